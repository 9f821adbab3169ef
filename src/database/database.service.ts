import { Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isLockConflict, isSqliteBusy } from '../common/errors/database-errors.js';
import { Admission } from '../common/load/admission.js';
import { Deadline } from '../common/load/deadline.js';
import { WorkQueue } from '../common/load/work-queue.js';
import { DEFAULT_DB_TIMEOUT_MS, type AppConfig } from '../config/configuration.js';
import { retryOnContention, type RetryPolicy } from './contention-retry.js';
import { isSqlite } from './plain-sql.js';

/**
 * better-sqlite3 waits for a lock synchronously, blocking the event loop (every request, /healthz
 * included), so the driver barely waits; DatabaseService waits instead, asynchronously.
 */
const SQLITE_DRIVER_BUSY_TIMEOUT_MS = 10;

/** InnoDB deadlocks between requests on different users: a few quick tries, well under a second in all. */
const LOCK_CONFLICT_POLICY: RetryPolicy = {
  maxAttempts: 6,
  deadlineMs: Number.POSITIVE_INFINITY,
  baseDelayMs: 20,
  maxDelayMs: 320,
};

/** A database call outlived DB_TIMEOUT_MS; the request gets 503 rather than waiting on. */
class DatabaseTimeoutError extends Error {
  readonly code = 'DB_TIMEOUT';

  constructor(ms: number) {
    super(`database did not answer within ${ms} ms`);
    this.name = 'DatabaseTimeoutError';
  }
}

/**
 * The way services reach the database.
 *
 * MySQL/MariaDB: each call runs on a pooled connection of its own, within DB_TIMEOUT_MS; work that
 * InnoDB rolled back for a deadlock or a lock wait timeout is run again after a short randomised
 * backoff, a few times, then answered 503.
 *
 * SQLite: TypeORM's better-sqlite3 driver shares one connection, so a second transaction started
 * while one is open would silently nest inside it as a savepoint; here work runs one unit at a time
 * instead, in an in-process queue. When another process (a CLI command, the worker, a backup)
 * holds the file's write lock, a unit fails at once with SQLITE_BUSY, leaves the queue to the reads
 * behind it, waits without blocking the event loop and tries again, up to DB_TIMEOUT_MS.
 */
@Injectable()
export class DatabaseService {
  private readonly serialised: boolean;
  private readonly timeoutMs: number | null;
  private readonly busyPolicy: RetryPolicy;
  /** SQLite: whether a unit holds the shared connection, and the units waiting for it, RADIUS's first. */
  private running = false;
  private readonly waiting: Record<Lane, Array<() => void>> = { radius: [], general: [] };
  /**
   * MySQL: the connections units other than RADIUS's may hold at once; the rest of the pool is kept
   * for logins and accounting, so no amount of other work can make them wait for a connection.
   */
  private readonly generalConnections: WorkQueue | null = null;

  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    @Optional() config?: ConfigService<AppConfig, true>,
    /** Told how long each unit waited for its connection: part of the queueing delay that sheds load. */
    @Optional() private readonly admission?: Admission,
  ) {
    this.serialised = isSqlite(dataSource);
    const configuredTimeoutMs = config?.get('databaseTimeoutMs', { infer: true }) ?? null;
    // A server can stop answering (network cut, overload); an embedded file cannot.
    this.timeoutMs = this.serialised ? null : configuredTimeoutMs;
    this.busyPolicy = {
      maxAttempts: Number.POSITIVE_INFINITY,
      deadlineMs: configuredTimeoutMs ?? DEFAULT_DB_TIMEOUT_MS,
      baseDelayMs: 10,
      maxDelayMs: 200,
    };
    // Start-up (migrations) kept the data source's longer busy timeout; from here on DatabaseService waits.
    if (this.serialised) sqliteConnection(dataSource)?.pragma(`busy_timeout = ${SQLITE_DRIVER_BUSY_TIMEOUT_MS}`);
    const poolSize = config?.get('databasePoolSize', { infer: true }) ?? null;
    const reserved = poolSize === null ? 0 : radiusReservedConnections(poolSize);
    if (!this.serialised && poolSize !== null && reserved > 0) {
      this.generalConnections = new WorkQueue('database', poolSize - reserved, Number.POSITIVE_INFINITY);
    }
  }

  /** True on MySQL/MariaDB, where `SELECT … FOR UPDATE SKIP LOCKED` is available. */
  get supportsRowLocks(): boolean {
    return !this.serialised;
  }

  /**
   * Runs `work` in one transaction; inside it, use only the given EntityManager. `work` may run
   * more than once: a transaction InnoDB chose as a deadlock victim was rolled back whole, and on
   * SQLite a transaction that could not start is tried again.
   *
   * `readCommitted` (MySQL; SQLite's transactions are serialisable whatever is asked): InnoDB then
   * takes no gap locks for the transaction's searches, so transactions that look a key up, find
   * nothing and insert it (a new session, a new device) cannot deadlock on the gap between their
   * neighbouring keys, as they do in bursts under REPEATABLE READ. For work that takes the row
   * locks it relies on itself and needs no repeatable snapshot.
   *
   * `deadline`: the caller's; once it has passed, no try begins (DeadlineExceededError), whether the
   * unit waited for its connection or for a retry. A transaction under way is never cut short.
   */
  transaction<T>(
    work: (em: EntityManager) => Promise<T>,
    options: UnitOptions & { readCommitted?: boolean } = {},
  ): Promise<T> {
    const deadline = options.deadline ?? Deadline.none;
    const lane = options.lane ?? 'general';
    if (this.serialised) {
      const attempt = () => this.exclusive(() => this.immediateTransaction(work), deadline, lane);
      return retryOnContention(attempt, isSqliteBusy, this.busyPolicy);
    }
    const attempt = () =>
      this.onConnection(
        (em) => (options.readCommitted ? em.transaction('READ COMMITTED', work) : em.transaction(work)),
        deadline,
        lane,
      );
    return retryOnContention(attempt, isLockConflict, LOCK_CONFLICT_POLICY);
  }

  /**
   * Runs reads (or a single statement) outside a transaction; on SQLite never inside another's.
   * Contention is retried as for transactions, so `work` must be safe to run again.
   */
  run<T>(work: (em: EntityManager) => Promise<T>, options: UnitOptions = {}): Promise<T> {
    const deadline = options.deadline ?? Deadline.none;
    const lane = options.lane ?? 'general';
    if (this.serialised) {
      return retryOnContention(() => this.exclusive(work, deadline, lane), isSqliteBusy, this.busyPolicy);
    }
    return retryOnContention(() => this.onConnection(work, deadline, lane), isLockConflict, LOCK_CONFLICT_POLICY);
  }

  /**
   * SQLite: BEGIN IMMEDIATE takes the write lock up front, so a transaction that reads and then
   * writes cannot fail midway because another process (a worker, a CLI command) wrote to the file
   * in between, as TypeORM's deferred BEGIN can. When that lock is taken, BEGIN fails with
   * SQLITE_BUSY before anything ran, and the caller tries again later.
   */
  private async immediateTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    // TypeORM declares the flag read-only; set, it keeps TypeORM from starting a transaction of its own inside this one.
    const flags = runner as { isTransactionActive: boolean };
    await runner.query('BEGIN IMMEDIATE');
    flags.isTransactionActive = true;
    try {
      const result = await work(runner.manager);
      await runner.query('COMMIT');
      return result;
    } catch (error) {
      await runner.query('ROLLBACK');
      throw error;
    } finally {
      flags.isTransactionActive = false;
    }
  }

  /**
   * MySQL: `work` with the time limit, on a connection of its own; outside RADIUS's lane, once one
   * of the connections other work may hold is free.
   */
  private onConnection<T>(work: (em: EntityManager) => Promise<T>, deadline: Deadline, lane: Lane): Promise<T> {
    deadline.check('database');
    const askedAt = performance.now();
    if (this.timeoutMs === null) return work(this.dataSource.manager);
    const timeoutMs = this.timeoutMs;
    if (lane === 'radius' || this.generalConnections === null)
      return this.withDeadline(work, timeoutMs, deadline, askedAt);
    return this.generalConnections.run(() => this.withDeadline(work, timeoutMs, deadline, askedAt), deadline);
  }

  /**
   * SQLite: `work` alone on the shared connection, after the units queued before it in its lane
   * (RADIUS's lane goes first). One try holds the connection only while it runs, so a unit waiting
   * to retry lets the others through.
   */
  private async exclusive<T>(work: (em: EntityManager) => Promise<T>, deadline: Deadline, lane: Lane): Promise<T> {
    deadline.check('database');
    if (this.running) {
      const queuedAt = performance.now();
      await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
      this.admission?.databaseWaited(performance.now() - queuedAt);
    } else {
      this.running = true;
      this.admission?.databaseWaited(0);
    }
    try {
      deadline.check('database');
      return await work(this.dataSource.manager);
    } finally {
      const next = this.waiting.radius.shift() ?? this.waiting.general.shift();
      if (next === undefined) this.running = false;
      else next();
    }
  }

  /**
   * MySQL: takes the runner's pooled connection (reporting how long the unit waited for it since it
   * asked), then checks the caller still waits: a unit that queued past its deadline sends nothing.
   */
  private async connected(runner: QueryRunner, deadline: Deadline, askedAt: number): Promise<void> {
    await runner.connect();
    this.admission?.databaseWaited(performance.now() - askedAt);
    deadline.check('database');
  }

  /**
   * Connections in use and units of work waiting for one, now (for the metrics). MySQL: mysql2's
   * pool (TypeORM's driver keeps it as `pool`); SQLite: the one shared connection and its queue.
   */
  poolUsage(): { inUse: number; waiting: number } {
    if (this.serialised) {
      return { inUse: this.running ? 1 : 0, waiting: this.waiting.radius.length + this.waiting.general.length };
    }
    const pool = (this.dataSource.driver as unknown as { pool?: MysqlPoolInternals }).pool;
    if (pool?._allConnections === undefined) return { inUse: 0, waiting: 0 };
    const all = pool._allConnections.length;
    const free = pool._freeConnections?.length ?? 0;
    return { inUse: Math.max(0, all - free), waiting: pool._connectionQueue?.length ?? 0 };
  }

  /**
   * Runs `work` on a connection of its own and rejects when it has not settled in time. That
   * connection is then closed rather than given back to the pool: a server that stopped answering
   * (a partition, a hung server) may never answer on it, and every later call handed that
   * connection would queue behind it, so with the whole pool stuck the service would stay
   * unavailable long after the database is back. Closing it also makes the server roll back a
   * transaction still under way, unless it had already committed: a 503 means "outcome unknown".
   */
  private async withDeadline<T>(
    work: (em: EntityManager) => Promise<T>,
    ms: number,
    deadline: Deadline,
    askedAt: number,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const limit = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new DatabaseTimeoutError(ms));
      }, ms);
    });
    try {
      return await Promise.race([this.connected(runner, deadline, askedAt).then(() => work(runner.manager)), limit]);
    } finally {
      clearTimeout(timer);
      if (expired) closeConnection(runner);
      await runner.release();
    }
  }
}

/**
 * Whose work a unit is: `radius` (logins and accounting) may take the connections kept for it on
 * MySQL and goes first on SQLite; `general` is everything else.
 */
export type Lane = 'radius' | 'general';

/** What a unit of work may be given besides its work. */
export interface UnitOptions {
  /** The caller's deadline: past it, the unit does not begin (DeadlineExceededError). */
  deadline?: Deadline;
  lane?: Lane;
}

/** Of a MySQL pool of `poolSize` connections, those kept for RADIUS: a quarter (none of a pool of one). */
export function radiusReservedConnections(poolSize: number): number {
  return poolSize < 2 ? 0 : Math.max(1, Math.floor(poolSize / 4));
}

/** better-sqlite3's connection, which TypeORM's driver keeps once the data source is initialised. */
function sqliteConnection(dataSource: DataSource): SqliteConnection | undefined {
  return (dataSource.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection;
}

interface SqliteConnection {
  pragma(source: string): unknown;
}

/** The fields of TypeORM's MysqlQueryRunner that hold its pooled mysql2 connection, once asked for. */
interface PooledRunner {
  databaseConnection?: { destroy(): void };
  databaseConnectionPromise?: Promise<{ destroy(): void }>;
}

/**
 * Destroys the runner's connection, now or as soon as the pool hands it over; mysql2 then drops it
 * from the pool. The query still waiting on it fails, and nobody waits for that answer any more.
 */
function closeConnection(runner: QueryRunner): void {
  const pooled = runner as unknown as PooledRunner;
  if (pooled.databaseConnection !== undefined) {
    pooled.databaseConnection.destroy();
  } else if (pooled.databaseConnectionPromise !== undefined) {
    pooled.databaseConnectionPromise.then(
      (connection) => connection.destroy(),
      () => undefined,
    );
  }
}

/** The parts of mysql2's pool (not in its typings) that say how busy it is. */
interface MysqlPoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}
