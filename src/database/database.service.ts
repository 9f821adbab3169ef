import { Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { AppConfig } from '../config/configuration.js';

const MAX_DEADLOCK_ATTEMPTS = 3;

function isDeadlock(error: unknown): boolean {
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return (candidate?.driverError?.code ?? candidate?.code) === 'ER_LOCK_DEADLOCK';
}

/** A database call outlived DB_TIMEOUT_MS; the request gets 503 rather than waiting on. */
export class DatabaseTimeoutError extends Error {
  readonly code = 'DB_TIMEOUT';

  constructor(ms: number) {
    super(`database did not answer within ${ms} ms`);
    this.name = 'DatabaseTimeoutError';
  }
}

/**
 * The way services reach the database. On MySQL it is a thin wrapper around the DataSource. With
 * better-sqlite3, TypeORM shares one connection, so a second transaction started while one is open
 * would silently nest inside it as a savepoint; here work on SQLite runs one unit at a time instead.
 */
@Injectable()
export class DatabaseService {
  private readonly serialised: boolean;
  private readonly timeoutMs: number | null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() readonly dataSource: DataSource, @Optional() config?: ConfigService<AppConfig, true>) {
    this.serialised = dataSource.options.type === 'better-sqlite3';
    // A server can stop answering (network cut, overload); an embedded file cannot.
    this.timeoutMs = this.serialised ? null : (config?.get('databaseTimeoutMs', { infer: true }) ?? null);
  }

  /** True on MySQL/MariaDB, where `SELECT … FOR UPDATE SKIP LOCKED` is available. */
  get supportsRowLocks(): boolean {
    return !this.serialised;
  }

  /**
   * Runs `work` in one transaction; inside it, use only the given EntityManager. On MySQL a
   * transaction InnoDB chose as a deadlock victim was rolled back whole, so it is run again.
   */
  async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    if (this.serialised) return this.exclusive(() => this.immediateTransaction(work));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.exclusive((em) => em.transaction(work));
      } catch (error) {
        if (attempt >= MAX_DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
      }
    }
  }

  /** Runs reads (or a single statement) outside a transaction; on SQLite never inside another's. */
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.exclusive(work);
  }

  /**
   * SQLite: BEGIN IMMEDIATE takes the write lock up front (waiting up to the busy timeout), so a
   * transaction that reads and then writes cannot fail midway because another process (a worker,
   * a CLI command) wrote to the file in between, as TypeORM's deferred BEGIN can.
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

  /** MySQL: `work` with the deadline, on a connection of its own. SQLite: one unit at a time. */
  private exclusive<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serialised) {
      return this.timeoutMs === null ? work(this.dataSource.manager) : this.withDeadline(work, this.timeoutMs);
    }
    const result = this.queue.then(() => work(this.dataSource.manager));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Runs `work` on a connection of its own and rejects when it has not settled in time. That
   * connection is then closed rather than given back to the pool: a server that stopped answering
   * (a partition, a hung server) may never answer on it, and every later call handed that
   * connection would queue behind it, so with the whole pool stuck the service would stay
   * unavailable long after the database is back. Closing it also makes the server roll back a
   * transaction still under way, unless it had already committed: a 503 means "outcome unknown".
   */
  private async withDeadline<T>(work: (em: EntityManager) => Promise<T>, ms: number): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new DatabaseTimeoutError(ms));
      }, ms);
    });
    try {
      return await Promise.race([work(runner.manager), deadline]);
    } finally {
      clearTimeout(timer);
      if (expired) closeConnection(runner);
      await runner.release();
    }
  }
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
