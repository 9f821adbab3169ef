import 'reflect-metadata';
import { type DataSource, type MigrationInterface } from 'typeorm';
import { MYSQL_MIGRATIONS } from '../migrations/mysql/index.js';
import { PublicTokenPrefixes1795420800000 as MysqlPublicTokenPrefixes } from '../migrations/mysql/1795420800000-PublicTokenPrefixes.js';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite/index.js';
import { PublicTokenPrefixes1795420800000 as SqlitePublicTokenPrefixes } from '../migrations/sqlite/1795420800000-PublicTokenPrefixes.js';
import { createTestDatabase, databaseKinds, openWithMigrations, type TestDatabase } from './support/databases.js';

/**
 * The data migration that stops listings from showing part of a token's secret: tokens stored by
 * the previous release (generated ones with `hsp_` and 8 more characters, operator-chosen ones with
 * their first 4) keep only their public prefix.
 */

/** Prefixes as the previous release stored them, and what each must become. */
const OLD_AND_NEW: Array<[string, string]> = [
  ['hsp_AbCd3fGh', 'hsp_'], // generated
  ['hsp_a_b-c_de', 'hsp_'], // generated, underscores in the random part
  ['my-o', ''], // BOOTSTRAP_TOKEN "my-own-secret…"
  ['Zq9x', ''], // BOOTSTRAP_TOKEN of random characters
  ['ci_x', 'ci_'], // BOOTSTRAP_TOKEN "ci_…": its public prefix stays
  ['', ''],
];

describe.each(databaseKinds())('migration PublicTokenPrefixes [%s]', (kind) => {
  let database: TestDatabase;
  const dataSources: DataSource[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    for (const dataSource of dataSources) if (dataSource.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  async function open(migrations: Array<new () => MigrationInterface>): Promise<DataSource> {
    const dataSource = await openWithMigrations(database, migrations);
    dataSources.push(dataSource);
    return dataSource;
  }

  it('rewrites every stored prefix to the public prefix it starts with, or nothing', async () => {
    const all = kind === 'sqlite' ? SQLITE_MIGRATIONS : MYSQL_MIGRATIONS;
    const migration = kind === 'sqlite' ? SqlitePublicTokenPrefixes : MysqlPublicTokenPrefixes;
    const before = await open(all.slice(0, all.indexOf(migration)));
    await before.runMigrations({ transaction: 'each' });
    for (const [index, [prefix]] of OLD_AND_NEW.entries()) {
      await before.query(
        'INSERT INTO api_tokens (id, name, prefix, token_hash, permissions, venue_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          `token-${index}`,
          `name-${index}`,
          prefix,
          String(index).padStart(64, '0'),
          '["read"]',
          null,
          '2026-11-22 09:00:00.000',
        ],
      );
    }
    await before.destroy();

    const after = await open(all);
    const applied = await after.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toContain('PublicTokenPrefixes1795420800000');
    const rows: Array<{ id: string; prefix: string; name: string }> = await after.query(
      'SELECT id, name, prefix FROM api_tokens ORDER BY id',
    );
    expect(rows).toEqual(
      OLD_AND_NEW.map(([, prefix], index) => ({ id: `token-${index}`, name: `name-${index}`, prefix })),
    );
  });
});
