/** Driver error codes, MySQL/MariaDB (mysql2) and SQLite (better-sqlite3). */
const UNIQUE_VIOLATION_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

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
  'ER_LOCK_WAIT_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'DB_TIMEOUT',
]);

function driverCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = candidate.driverError?.code ?? candidate.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code !== undefined && UNIQUE_VIOLATION_CODES.has(code);
}

/** Errors that mean the database cannot be reached or is overloaded, rather than a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = driverCode(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  const message = String((error as { message?: unknown })?.message ?? '');
  // The last three: the DataSource is closed (a shutdown under way), as TypeORM and better-sqlite3 say it.
  return /Pool is closed|Connection lost|connect ETIMEDOUT|Can't add new command when connection is in closed state|connection is not (yet )?established|database is not established|database connection is not open/i.test(
    message,
  );
}
