import { Injectable } from '@nestjs/common';
import { DeadlineExceededError, type Deadline } from '../common/load/deadline.js';
import { DatabaseService } from '../database/database.service.js';
import type { LoginAttemptEntity } from './entities/login-attempt.entity.js';
import { LoginAttemptsRepository } from './login-attempts.repository.js';

/** Rows per INSERT: one statement, well under any driver's parameter limit (10 columns each). */
const MAX_ROWS = 200;
/** INSERTs under way at once; rows arriving meanwhile wait for the next. */
const MAX_IN_FLIGHT = 2;

interface PendingRow {
  row: LoginAttemptEntity;
  deadline: Deadline;
  settle: () => void;
  fail: (error: unknown) => void;
}

/**
 * Writes login attempts as post-auth hands them over, many in one INSERT: the rows that arrive while
 * a write is under way go together in the next (each login's post-auth then costs a share of one
 * statement, not a transaction of its own). Each caller learns when its row is stored, or why not;
 * a row whose caller stopped waiting before its INSERT began is not written.
 */
@Injectable()
export class LoginAttemptWriter {
  private pending: PendingRow[] = [];
  private inFlight = 0;
  private flushScheduled = false;

  constructor(
    private readonly database: DatabaseService,
    private readonly attempts: LoginAttemptsRepository,
  ) {}

  write(row: LoginAttemptEntity, deadline: Deadline): Promise<void> {
    return new Promise<void>((settle, fail) => {
      this.pending.push({ row, deadline, settle, fail });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.pending.length === 0 || this.inFlight >= MAX_IN_FLIGHT) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const now = performance.now();
    const batch: PendingRow[] = [];
    const rest: PendingRow[] = [];
    for (const pending of this.pending) {
      if (pending.deadline.expired(now)) pending.fail(new DeadlineExceededError('database'));
      else if (batch.length < MAX_ROWS) batch.push(pending);
      else rest.push(pending);
    }
    this.pending = rest;
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.scheduleFlush();
    try {
      await this.database.run(
        (em) =>
          this.attempts.insertMany(
            em,
            batch.map(({ row }) => row),
          ),
        { lane: 'radius' },
      );
      for (const pending of batch) pending.settle();
    } catch (error) {
      for (const pending of batch) pending.fail(error);
    } finally {
      this.inFlight -= 1;
      this.scheduleFlush();
    }
  }
}
