import { Logger } from '@nestjs/common';
import mysql2 from 'mysql2';

/**
 * How long the MySQL/MariaDB server itself lets one of the service's connections hold or wait for
 * a lock, derived from DB_TIMEOUT_MS (the service's own deadline for a database call).
 *
 * The service gives up on a call at its deadline and closes the connection, but a server cut off
 * from the service by a network partition never sees that close: without server-side limits a
 * transaction whose COMMIT was lost stays open, its row locks held, until TCP keepalive or
 * `wait_timeout` (hours) end it, and every other instance's write to those rows waits on it.
 */
export interface ServerSessionLimits {
  /** `innodb_lock_wait_timeout` and `lock_wait_timeout`: a statement waiting on a lock gives up with the request. */
  lockWaitSeconds: number;
  /** MariaDB's `idle_transaction_timeout`: a connection idle inside a transaction this long is closed, rolling it back. */
  idleInTransactionSeconds: number;
  /** `wait_timeout`: any idle connection this long is closed; the bound on MySQL, which has no idle_transaction_timeout. */
  idleSeconds: number;
  /** mysql2's pool closes its idle connections after this long, before the server's wait_timeout would. */
  poolIdleMs: number;
}

/** A lower `wait_timeout` would make the pool reconnect needlessly often when the service is quiet. */
const MIN_IDLE_SECONDS = 10;

export function serverSessionLimits(timeoutMs: number): ServerSessionLimits {
  const deadlineSeconds = Math.ceil(timeoutMs / 1000);
  // A transaction of the service never idles past its deadline: the deadline closes its connection first.
  const idleInTransactionSeconds = deadlineSeconds + 1;
  const idleSeconds = Math.max(MIN_IDLE_SECONDS, 2 * idleInTransactionSeconds);
  return {
    lockWaitSeconds: deadlineSeconds,
    idleInTransactionSeconds,
    idleSeconds,
    poolIdleMs: (idleSeconds / 2) * 1000,
  };
}

/**
 * The one statement that sets the limits on a new connection. The MariaDB-only variable sits in an
 * executable comment opened by `/*M!100300`, which MariaDB 10.3 and later run and MySQL skips.
 */
export function sessionLimitsStatement(limits: ServerSessionLimits): string {
  return (
    `SET SESSION innodb_lock_wait_timeout = ${limits.lockWaitSeconds}, lock_wait_timeout = ${limits.lockWaitSeconds}, ` +
    `wait_timeout = ${limits.idleSeconds} /*M!100300 , idle_transaction_timeout = ${limits.idleInTransactionSeconds} */`
  );
}

const logger = new Logger('Database');

interface PoolConnection {
  query(sql: string, callback: (error: Error | null) => void): unknown;
}

/**
 * mysql2 as TypeORM's driver, except that every connection its pools open runs the limits'
 * statement before anything else (mysql2 runs a connection's commands in order, and a pool emits
 * 'connection' before handing a new connection out).
 */
export function mysqlDriverWithLimits(limits: ServerSessionLimits): typeof mysql2 {
  const statement = sessionLimitsStatement(limits);
  const createPool = ((options: mysql2.PoolOptions) => {
    const pool = mysql2.createPool(options);
    pool.on('connection', (connection) => {
      (connection as unknown as PoolConnection).query(statement, (error) => {
        if (error !== null) logger.warn(`Could not set the server-side lock and idle limits: ${error.message}`);
      });
    });
    return pool;
  }) as typeof mysql2.createPool;
  return { ...mysql2, createPool };
}
