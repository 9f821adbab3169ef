import 'reflect-metadata';
import { type DataSource, type MigrationInterface } from 'typeorm';
import { NasAddressUnique1796112000000 as MysqlNasAddressUnique } from '../migrations/mysql/1796112000000-NasAddressUnique.js';
import { MYSQL_MIGRATIONS } from '../migrations/mysql/index.js';
import { NasAddressUnique1796112000000 as SqliteNasAddressUnique } from '../migrations/sqlite/1796112000000-NasAddressUnique.js';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite/index.js';
import { createTestDatabase, databaseKinds, openWithMigrations, type TestDatabase } from './support/databases.js';

/**
 * The migration that makes a NAS's address unique: addresses stored by earlier releases in another
 * spelling are rewritten in the registry's one spelling first; a registry holding two NASes on one
 * address is not migrated, and the message names them.
 */

describe.each(databaseKinds())('migration NasAddressUnique [%s]', (kind) => {
  let database: TestDatabase;
  const dataSources: DataSource[] = [];
  const all = kind === 'sqlite' ? SQLITE_MIGRATIONS : MYSQL_MIGRATIONS;
  const before = all.slice(0, all.indexOf(kind === 'sqlite' ? SqliteNasAddressUnique : MysqlNasAddressUnique));

  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });

  afterEach(async () => {
    for (const dataSource of dataSources.splice(0)) if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  });

  async function open(migrations: Array<new () => MigrationInterface>): Promise<DataSource> {
    const dataSource = await openWithMigrations(database, migrations);
    dataSources.push(dataSource);
    return dataSource;
  }

  /** A registry at the release before, holding NASes `name → address` as that release could store them. */
  async function registryBefore(nases: Record<string, string>): Promise<void> {
    const old = await open(before);
    await old.runMigrations({ transaction: 'each' });
    for (const [index, [name, address]] of Object.entries(nases).entries()) {
      await old.query(
        `INSERT INTO nas_clients (id, venue_id, name, ip_address, secret, coa_port, vendor, require_message_authenticator, created_at)
         VALUES (?, 'venue-a', ?, ?, 'plain:secret', 3799, 'other', 0, ?)`,
        [`nas-${index}`, name, address, `2026-11-2${index} 09:00:00.000`],
      );
    }
    await old.destroy();
  }

  async function addresses(dataSource: DataSource): Promise<Record<string, string>> {
    const rows = await dataSource.query<Array<{ name: string; ip_address: string }>>(
      'SELECT name, ip_address FROM nas_clients ORDER BY name',
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.ip_address]));
  }

  it('rewrites older spellings, then refuses a second NAS on an address', async () => {
    await registryBefore({
      'v6-long': '2001:0DB8:0:0::10',
      'v4-slash-32': '192.0.2.10/32',
      'v6-network': '2001:DB8:1::/64',
      'v4-network': '198.51.100.0/24',
    });

    const after = await open(all);
    await after.runMigrations({ transaction: 'each' });

    expect(await addresses(after)).toEqual({
      'v6-long': '2001:db8::10',
      'v4-slash-32': '192.0.2.10',
      'v6-network': '2001:db8:1::/64',
      'v4-network': '198.51.100.0/24',
    });
    await expect(
      after.query(
        `INSERT INTO nas_clients (id, venue_id, name, ip_address, secret, coa_port, vendor, require_message_authenticator, created_at)
         VALUES ('twin', 'venue-a', 'twin', '2001:db8::10', 'plain:secret', 3799, 'other', 0, '2026-11-25 09:00:00.000')`,
      ),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it('stops on two NASes sharing an address, naming them, and changes nothing', async () => {
    await registryBefore({ 'lobby-a': '2001:db8::1', 'lobby-b': '2001:0db8:0000::1', bar: '192.0.2.1/32' });

    const after = await open(all);
    await expect(after.runMigrations({ transaction: 'each' })).rejects.toThrow(
      'Several NASes share an address: 2001:db8::1 ("lobby-a", "lobby-b"). Remove all but one of each',
    );
    expect(await addresses(after)).toEqual({
      'lobby-a': '2001:db8::1',
      'lobby-b': '2001:0db8:0000::1',
      bar: '192.0.2.1/32',
    });
    expect(await after.showMigrations()).toBe(true);
  });
});
