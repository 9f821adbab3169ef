import type { DataSourceOptions } from 'typeorm';
import { MYSQL_MIGRATIONS } from '../../migrations/mysql/index.js';
import { SQLITE_MIGRATIONS } from '../../migrations/sqlite/index.js';
import { DEFAULT_DB_POOL_SIZE, DEFAULT_DB_TIMEOUT_MS, type DatabaseConfig } from '../config/configuration.js';
import { ENTITIES } from './entities.js';
import { mysqlDriverWithLimits, serverSessionLimits } from './server-session-limits.js';
import { prepareSqliteFile } from './sqlite-file.js';

/** Bounds how long a request waits when the database does not answer. */
const CONNECT_TIMEOUT_MS = 3000;
/** Start-up only (migrations, before any request): DatabaseService then lowers it, see there. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * The one place that turns configuration into TypeORM options; the app, the CLIs and the TypeORM CLI
 * (src/database/data-source.ts) all use it. For SQLite it also creates a missing database file, private
 * to its owner (see prepareSqliteFile), as TypeORM would otherwise create it world-readable.
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  options: { migrationsRun?: boolean; poolSize?: number; timeoutMs?: number } = {},
): DataSourceOptions {
  const shared = {
    entities: ENTITIES,
    synchronize: false,
    migrationsRun: options.migrationsRun ?? false,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    // Failed queries are not logged here: their parameters may hold hashes; the exception filter logs them.
    logging: ['warn', 'migration'],
  } satisfies Partial<DataSourceOptions>;

  if (database.type === 'sqlite') {
    prepareSqliteFile(database.path);
    return {
      ...shared,
      type: 'better-sqlite3',
      database: database.path,
      migrations: SQLITE_MIGRATIONS,
      enableWAL: database.path !== ':memory:',
      timeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  const poolSize = options.poolSize ?? DEFAULT_DB_POOL_SIZE;
  const limits = serverSessionLimits(options.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS);
  return {
    ...shared,
    // Every connection gets the server-side lock and idle limits first (see server-session-limits.ts).
    driver: mysqlDriverWithLimits(limits),
    // 'mariadb' only changes how TypeORM reads the schema back (migration checks); queries are the same.
    type: database.type,
    url: database.url,
    migrations: MYSQL_MIGRATIONS,
    charset: 'utf8mb4_bin',
    timezone: 'Z',
    connectTimeout: CONNECT_TIMEOUT_MS,
    // trace: mysql2 would capture a stack trace for every query, to graft onto an error that may come:
    // a tenth of the CPU of a RADIUS accounting packet. Database errors never reach a response or a
    // log with their stack, so nothing is lost.
    // maxIdle below the limit turns on mysql2's closing of connections idle past idleTimeout, which
    // must come before the server's wait_timeout closes them under a request.
    extra: {
      connectionLimit: poolSize,
      maxIdle: poolSize - 1,
      idleTimeout: limits.poolIdleMs,
      enableKeepAlive: true,
      trace: false,
    },
  };
}
