/** Driver error codes, MySQL/MariaDB (mysql2) and SQLite (better-sqlite3). */
const UNIQUE_VIOLATION_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/** InnoDB lock conflicts: the statement (a deadlock: the whole transaction) was rolled back, so trying again is safe. */
const LOCK_CONFLICT_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const LOCK_CONFLICT_ERRNOS = new Set([1213, 1205]);

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_LOCKED',
  'DB_TIMEOUT',
  'DB_BUSY',
]);

/** Seconds a client is asked to wait (`Retry-After`) after a 503: contention clears fast, an outage does not. */
const RETRY_AFTER_CONTENTION_SECONDS = 1;
const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/**
 * Database contention outlasted the retries: InnoDB kept choosing the work as a deadlock victim, or
 * another process kept the SQLite file's write lock past the deadline. Nothing was written; the
 * request gets 503 with Retry-After.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'DB_BUSY';
  readonly retryAfterSeconds = RETRY_AFTER_CONTENTION_SECONDS;

  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'DatabaseBusyError';
  }
}

function driverFields(error: unknown): { code?: string; errno?: number } {
  if (error === null || typeof error !== 'object') return {};
  const candidate = error as { code?: unknown; errno?: unknown; driverError?: { code?: unknown; errno?: unknown } };
  const code = candidate.driverError?.code ?? candidate.code;
  const errno = candidate.driverError?.errno ?? candidate.errno;
  return {
    code: typeof code === 'string' ? code : undefined,
    errno: typeof errno === 'number' ? errno : undefined,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  const { code } = driverFields(error);
  return code !== undefined && UNIQUE_VIOLATION_CODES.has(code);
}

/** A MySQL/MariaDB deadlock or lock wait timeout. */
export function isLockConflict(error: unknown): boolean {
  const { code, errno } = driverFields(error);
  if (code !== undefined && LOCK_CONFLICT_CODES.has(code)) return true;
  return errno !== undefined && LOCK_CONFLICT_ERRNOS.has(errno);
}

/** SQLite could not take a lock another connection holds (`SQLITE_BUSY` and its extended codes). */
export function isSqliteBusy(error: unknown): boolean {
  return driverFields(error).code?.startsWith('SQLITE_BUSY') ?? false;
}

/** MySQL/MariaDB: a feature this server does not offer (ER_NOT_SUPPORTED_YET, e.g. GET_LOCK on Galera). */
export function isNotSupported(error: unknown): boolean {
  const { code, errno } = driverFields(error);
  return code === 'ER_NOT_SUPPORTED_YET' || errno === 1235;
}

/** Contention that goes away by itself: worth trying the same work again after a short wait. */
export function isContention(error: unknown): boolean {
  return isLockConflict(error) || isSqliteBusy(error);
}

/** Errors that mean the database cannot be reached, is overloaded or contended, rather than a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code } = driverFields(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  if (isContention(error)) return true;
  const message = String((error as { message?: unknown })?.message ?? '');
  // The last three: the DataSource is closed (a shutdown under way), as TypeORM and better-sqlite3 say it.
  return /Pool is closed|Connection lost|connect ETIMEDOUT|Can't add new command when connection is in closed state|connection is not (yet )?established|database is not established|database connection is not open/i.test(
    message,
  );
}

/** The `Retry-After` (seconds) of the 503 that answers an error isDatabaseUnavailable accepts. */
export function retryAfterSeconds(error: unknown): number {
  if (error instanceof DatabaseBusyError || isContention(error)) return RETRY_AFTER_CONTENTION_SECONDS;
  return RETRY_AFTER_UNAVAILABLE_SECONDS;
}
