import { Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
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
        return await this.exclusive(() => this.dataSource.transaction(work));
      } catch (error) {
        if (attempt >= MAX_DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
      }
    }
  }

  /** Runs reads (or a single statement) outside a transaction; on SQLite never inside another's. */
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.exclusive(() => work(this.dataSource.manager));
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

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (!this.serialised) return this.timeoutMs === null ? work() : withDeadline(work(), this.timeoutMs);
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/**
 * Rejects when `work` has not settled in time. The work itself is not cancelled: a transaction
 * still under way then commits or rolls back on its own, so a 503 means "outcome unknown".
 */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
