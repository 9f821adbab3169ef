import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { runPendingMigrations } from '../src/database/migrations.js';
import { ensureBuilt } from './support/build.js';
import { CLI_MAIN, spawnCli, type CliRun } from './support/cli-io.js';
import { MYSQL_MIGRATIONS } from '../migrations/mysql/index.js';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite/index.js';
import {
  createTestDatabase,
  databaseKinds,
  openWithMigrations,
  type DatabaseKind,
  type TestDatabase,
} from './support/databases.js';
import { sleep } from './support/expected.js';
import { holdWriteLock } from './support/sqlite-lock-holder.js';

/** Processes that start at once, as instances behind a load balancer or CLI commands of a script. */
const TOGETHER = 6;

function dataSourceFor(url: string): DataSource {
  const parsed = parseDatabaseUrl(url);
  if ('error' in parsed) throw new Error(parsed.error);
  return new DataSource({ ...buildDataSourceOptions(parsed.value), logging: false });
}

/** The rows of the migrations table: each migration's name, as many times as it was recorded. */
async function recordedMigrations(url: string): Promise<{ names: string[]; known: number }> {
  const dataSource = await dataSourceFor(url).initialize();
  try {
    const rows = await dataSource.query<Array<{ name: string }>>('SELECT name FROM migrations');
    return { names: rows.map((row) => row.name).sort(), known: dataSource.migrations.length };
  } finally {
    await dataSource.destroy();
  }
}

/** The lock name the service takes on MySQL, held here by a connection of the test's. */
const MYSQL_LOCK = "CONCAT('hotspot_migrations_', SHA1(DATABASE()))";

/**
 * Holds what the service's migrations wait for, as another process would, until the function it
 * settles with is called: on MySQL the named lock, on SQLite the file's write lock.
 */
async function holdMigrationLock(kind: DatabaseKind, url: string): Promise<() => Promise<void>> {
  if (kind === 'sqlite') {
    // A bound, should the test stop before it lets the lock go.
    const holder = await holdWriteLock(url.slice('sqlite:'.length), 60_000);
    return async () => {
      await holder.release();
    };
  }
  const holder = await dataSourceFor(url).initialize();
  const runner = holder.createQueryRunner();
  expect(await runner.query(`SELECT GET_LOCK(${MYSQL_LOCK}, 0) AS acquired`)).toEqual([{ acquired: 1 }]);
  return async () => {
    await runner.release();
    await holder.destroy();
  };
}

describe.each(databaseKinds())('migrations under a lock [%s]', (kind) => {
  let database: TestDatabase;
  let cwd: string;
  const cli = (...argv: string[]): Promise<CliRun> => spawnCli({ DATABASE_URL: database.url }, cwd, ...argv);

  beforeAll(() => {
    ensureBuilt([CLI_MAIN]);
    cwd = mkdtempSync(join(tmpdir(), 'hotspot-migrations-'));
  });

  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });

  afterEach(async () => {
    await database.drop();
  });

  it(`${TOGETHER} processes started together on a new database all succeed and apply each migration once`, async () => {
    const runs = await Promise.all(Array.from({ length: TOGETHER }, () => cli('token', 'list', '--json')));

    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: '[]\n' });
    const { names, known } = await recordedMigrations(database.url);
    expect(names).toHaveLength(known);
    expect(new Set(names).size).toBe(known);
  });

  it('migrates with a pool of one connection, the one that holds the lock', async () => {
    const run = await spawnCli({ DATABASE_URL: database.url, DB_POOL_SIZE: '1' }, cwd, 'token', 'list', '--json');
    expect(run).toMatchObject({ code: 0, stdout: '[]\n' });
    const { names, known } = await recordedMigrations(database.url);
    expect(names).toHaveLength(known);
  }, 30_000);

  it('a process with a migration pending waits while another holds the migration lock, says so on stderr, then runs it', async () => {
    // The schema of the release before this one: the newest migration is pending.
    const previous = await openWithMigrations(
      database,
      (kind === 'sqlite' ? SQLITE_MIGRATIONS : MYSQL_MIGRATIONS).slice(0, -1),
    );
    await previous.runMigrations({ transaction: 'each' });
    await previous.destroy();
    const release = await holdMigrationLock(kind, database.url);

    const child = spawn(process.execPath, [CLI_MAIN, 'token', 'list', '--json'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => child.once('close', done));
    let exitedEarly = false;
    void exited.then(() => (exitedEarly = true));

    for (let waited = 0; !stderr.includes('waiting for it') && !exitedEarly && waited < 15_000; waited += 100)
      await sleep(100);
    expect(stderr).toContain('Another process');
    expect(exitedEarly).toBe(false);

    await release();
    expect(await exited).toBe(0);
    expect(stdout).toBe('[]\n');
    const { names, known } = await recordedMigrations(database.url);
    expect(names).toHaveLength(known);
  });

  it('a process on an up-to-date schema does not wait for the migration lock', async () => {
    expect((await cli('token', 'list', '--json')).code).toBe(0);
    const release = await holdMigrationLock(kind, database.url);
    try {
      const runs = await Promise.all(Array.from({ length: 3 }, () => cli('token', 'list', '--json')));
      for (const run of runs) {
        expect(run).toMatchObject({ code: 0, stdout: '[]\n' });
        expect(run.stderr).not.toContain('Another process');
      }
    } finally {
      await release();
    }
  });

  it('gives up with a clear error when another process keeps the lock past the wait', async () => {
    const waiting = await dataSourceFor(database.url).initialize();
    const release = await holdMigrationLock(kind, database.url);
    try {
      const told: string[] = [];
      await expect(
        runPendingMigrations(waiting, { waitMs: 500, onWait: (message) => told.push(message) }),
      ).rejects.toThrow("Gave up waiting for another process's migrations after 0.5 s");
      expect(told).toHaveLength(1);
      expect(await waiting.query('SELECT COUNT(*) AS tables FROM migrations').catch(() => 'no migrations table')).toBe(
        'no migrations table',
      );
    } finally {
      await release();
      await waiting.destroy();
    }
  });
});
