import { DataSource, MigrationExecutor, type DataSourceOptions, type Migration, type QueryRunner } from 'typeorm';
import { isNotSupported, isSqliteBusy } from '../common/errors/database-errors.js';
import { isSqlite } from './plain-sql.js';

/** How long a process waits for another process's migrations before it gives up. */
const MIGRATION_LOCK_WAIT_MS = 300_000;

export interface MigrationRunOptions {
  waitMs?: number;
  /** Told once when another process is migrating and this one waits for it, or when no lock can be had. */
  onWait?: (message: string) => void;
}

/**
 * Connects a data source. When its options ask for the migrations to run (`migrationsRun`), they run
 * through runPendingMigrations rather than TypeORM's own run, which takes no lock; on a schema
 * already up to date (every start but the first after an upgrade) no lock is taken, so a process
 * never waits for another that is starting, or for a migration it does not need.
 */
export async function initializeDataSource(
  options: DataSourceOptions,
  migrationOptions: MigrationRunOptions = {},
): Promise<DataSource> {
  const dataSource = await new DataSource({ ...options, migrationsRun: false }).initialize();
  if (!options.migrationsRun) return dataSource;
  try {
    if (await isUpToDate(dataSource)) return dataSource;
    await runPendingMigrations(dataSource, migrationOptions);
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * Whether every migration this build knows is recorded as run: one plain read. Any doubt (no
 * migrations table yet, a read that fails) answers no, and the caller takes the path that locks.
 */
async function isUpToDate(dataSource: DataSource): Promise<boolean> {
  let rows: Array<{ name: string }>;
  try {
    rows = await dataSource.query<Array<{ name: string }>>(
      `SELECT name FROM ${dataSource.options.migrationsTableName ?? 'migrations'}`,
    );
  } catch {
    return false;
  }
  const applied = new Set(rows.map((row) => row.name));
  return dataSource.migrations.every((migration) => migration.name !== undefined && applied.has(migration.name));
}

/**
 * Runs the pending migrations while holding a lock that every process of this service takes for
 * them, so processes starting together on a schema that is not up to date (instances behind a load
 * balancer, CLI commands, a new SQLite file) apply each migration once: the others wait, then find
 * nothing pending. The migrations run on the connection that holds the lock (with DB_POOL_SIZE=1
 * there is no other). MySQL: a named lock (GET_LOCK) per database, released with the connection if
 * the process dies; each migration still runs in its own transaction. SQLite: the file's write lock
 * (BEGIN IMMEDIATE), with every pending migration in that one transaction.
 */
export async function runPendingMigrations(
  dataSource: DataSource,
  options: MigrationRunOptions = {},
): Promise<Migration[]> {
  const waitMs = options.waitMs ?? MIGRATION_LOCK_WAIT_MS;
  const onWait = options.onWait ?? (() => undefined);
  return isSqlite(dataSource) ? migrateSqlite(dataSource, waitMs, onWait) : migrateMysql(dataSource, waitMs, onWait);
}

async function migrateMysql(
  dataSource: DataSource,
  waitMs: number,
  onWait: (message: string) => void,
): Promise<Migration[]> {
  const lockHolder = dataSource.createQueryRunner();
  try {
    const locked = await takeMysqlMigrationLock(lockHolder, waitMs, onWait);
    try {
      return await executePending(dataSource, lockHolder, 'each');
    } finally {
      if (locked) await lockHolder.query(`DO RELEASE_LOCK(${MYSQL_LOCK_NAME})`);
    }
  } finally {
    await lockHolder.release();
  }
}

/** A lock name is server-wide and at most 64 characters: one per database, whatever its name. */
const MYSQL_LOCK_NAME = "CONCAT('hotspot_migrations_', SHA1(DATABASE()))";

/**
 * Takes the migration lock on `connection`, waiting up to `waitMs` for another process to let it go.
 * False when the server has no named locks (a MariaDB Galera cluster answers GET_LOCK with
 * ER_NOT_SUPPORTED_YET): the migrations then run without one, as TypeORM's would, and `onWait` is
 * told so.
 */
export async function takeMysqlMigrationLock(
  connection: { query(sql: string, parameters: unknown[]): Promise<unknown> },
  waitMs: number,
  onWait: (message: string) => void,
): Promise<boolean> {
  const tryLock = async (seconds: number) => {
    const rows = (await connection.query(`SELECT GET_LOCK(${MYSQL_LOCK_NAME}, ?) AS acquired`, [seconds])) as Array<{
      acquired: number | string | null;
    }>;
    return Number(rows[0]?.acquired) === 1;
  };
  try {
    if (await tryLock(0)) return true;
  } catch (error) {
    if (!isNotSupported(error)) throw error;
    onWait(
      'This server has no named locks (GET_LOCK; a Galera cluster): the migrations run without one, so start one instance alone after an upgrade',
    );
    return false;
  }
  onWait(`Another process is running the migrations: waiting for it, at most ${waitMs / 1000} s`);
  if (!(await tryLock(waitMs / 1000))) throw new Error(gaveUpMessage(waitMs));
  return true;
}

async function migrateSqlite(
  dataSource: DataSource,
  waitMs: number,
  onWait: (message: string) => void,
): Promise<Migration[]> {
  // better-sqlite3 has one connection per data source, and every query runner shares it.
  const connection = dataSource.createQueryRunner();
  // As TypeORM does around each migration: a table rebuilt by a migration must not cascade deletes.
  await connection.beforeMigration();
  try {
    await beginImmediate(connection, waitMs, onWait);
    try {
      const applied = await executePending(dataSource, connection, 'none');
      await connection.query('COMMIT');
      return applied;
    } catch (error) {
      // The migration's error is the one to report, whatever the rollback says.
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await connection.afterMigration();
  }
}

/** The pending migrations, run on `connection`: each in a transaction of its own, or none (inside the caller's). */
function executePending(
  dataSource: DataSource,
  connection: QueryRunner,
  transaction: 'each' | 'none',
): Promise<Migration[]> {
  const executor = new MigrationExecutor(dataSource, connection);
  executor.transaction = transaction;
  return executor.executePendingMigrations();
}

/** How long one attempt at the SQLite write lock blocks (start-up only: nothing else is served yet). */
const SQLITE_LOCK_ATTEMPT_MS = 1000;

/** Takes the file's write lock, trying every SQLITE_LOCK_ATTEMPT_MS until `waitMs` have passed. */
async function beginImmediate(
  connection: QueryRunner,
  waitMs: number,
  onWait: (message: string) => void,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  const [{ timeout }] = (await connection.query('PRAGMA busy_timeout')) as Array<{ timeout: number }>;
  await connection.query(`PRAGMA busy_timeout = ${Math.min(SQLITE_LOCK_ATTEMPT_MS, waitMs)}`);
  try {
    for (let told = false; ; told = true) {
      try {
        await connection.query('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isSqliteBusy(error)) throw error;
        if (!told)
          onWait(
            `Another process holds the database's write lock (its migrations, or a long write): waiting for it, at most ${waitMs / 1000} s`,
          );
        if (Date.now() >= deadline) throw new Error(gaveUpMessage(waitMs), { cause: error });
      }
    }
  } finally {
    await connection.query(`PRAGMA busy_timeout = ${timeout}`);
  }
}

function gaveUpMessage(waitMs: number): string {
  return `Gave up waiting for another process's migrations after ${waitMs / 1000} s: is one of them stuck?`;
}
