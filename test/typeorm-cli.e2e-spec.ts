import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MYSQL_MIGRATIONS } from '../migrations/mysql/index.js';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite/index.js';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { ensureBuilt, ROOT } from './support/build.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';

/**
 * `npm run migration:run` (the release step of docs/operations.md, "Upgrades and migrations") is TypeORM's own
 * command over dist/src/database/data-source.js. It must find the database as the service does: a
 * DATABASE_URL given only in `.env` is the one migrated, not the default SQLite file.
 */
const DATA_SOURCE = join(ROOT, 'dist/src/database/data-source.js');
const TYPEORM_CLI = join(ROOT, 'node_modules/typeorm/cli.js');

describe.each(databaseKinds())('the TypeORM CLI reads .env [%s]', (kind) => {
  let database: TestDatabase;
  let folder: string;

  beforeAll(async () => {
    ensureBuilt([DATA_SOURCE]);
    database = await createTestDatabase(kind);
    folder = mkdtempSync(join(tmpdir(), 'hotspot-typeorm-cli-'));
    writeFileSync(join(folder, '.env'), `DATABASE_URL=${database.url}\n`);
  });

  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await database?.drop();
  });

  it('migration:run migrates the database named in .env', async () => {
    const run = spawnSync(process.execPath, [TYPEORM_CLI, 'migration:run', '-d', DATA_SOURCE], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    // Not the default file beside the command.
    expect(existsSync(join(folder, 'data/hotspot.sqlite'))).toBe(false);

    const parsed = parseDatabaseUrl(database.url);
    if ('error' in parsed) throw new Error(parsed.error);
    const dataSource = new DataSource({ ...buildDataSourceOptions(parsed.value), logging: false });
    await dataSource.initialize();
    try {
      const rows: Array<{ name: string }> = await dataSource.query('SELECT name FROM migrations');
      const expected = kind === 'sqlite' ? SQLITE_MIGRATIONS : MYSQL_MIGRATIONS;
      expect(rows).toHaveLength(expected.length);
    } finally {
      await dataSource.destroy();
    }
  });
});
