import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { MAX_SIGN_IN_DELAY_MS, SECOND_FACTOR_MAX_DELAY_MS, signInDelayMs } from './sign-in.rules.js';
import type { ClientInfo } from './console-sessions.service.js';
import { SignInAudit } from './sign-in-audit.js';
import { SignInFailuresRepository } from './sign-in-failures.repository.js';

/** Failures older than this no longer count. */
const FAILURE_MEMORY_MS = 24 * 3_600_000;

/** What an attempt is counted against: its email's password checks, or an operator's second factor. */
export interface ThrottleKey {
  key: string;
  /** The longest wait this key's failures can impose. */
  maxDelayMs: number;
}

/**
 * The per-account slow-down of every check of an operator's password or second factor (sign-in, and
 * the confirmation of new recovery codes). An attempt takes its turn before anything is checked: it is
 * counted as a failure in advance, under a row lock, so attempts sent all at once count one by one,
 * and past the free failures the next ones are told to wait without being checked. A success forgets
 * the count. The state is in the database (sign_in_failures), so every instance applies it.
 */
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly database: DatabaseService,
    private readonly failures: SignInFailuresRepository,
    private readonly audit: SignInAudit,
    private readonly clock: Clock,
  ) {}

  /** The key of an email's password checks: as typed, trimmed and lower-cased. */
  static passwordKey(email: string): ThrottleKey {
    return { key: SignInThrottle.emailKeyOf(email), maxDelayMs: MAX_SIGN_IN_DELAY_MS };
  }

  /**
   * The key of an operator's second factor: counted apart from the password, so signing in again with
   * a known password gives no fresh guesses; only a completed sign-in forgets it, and it may wait longer.
   */
  static secondFactorKey(operatorId: string): ThrottleKey {
    return { key: `second-factor:${operatorId}`, maxDelayMs: SECOND_FACTOR_MAX_DELAY_MS };
  }

  static emailKeyOf(email: string): string {
    return email.trim().toLowerCase().slice(0, 254);
  }

  /**
   * Takes an attempt's turn: 0 when it may be checked now (it is counted as a failure until
   * `forget`), else the seconds to wait (nothing counted, nothing to check).
   */
  async claim({ key, maxDelayMs }: ThrottleKey): Promise<number> {
    const now = this.clock.now();
    await this.database.transaction(async (em) => {
      await this.failures.deleteOlderThan(em, new Date(now.getTime() - FAILURE_MEMORY_MS));
      await this.failures.ensure(em, key, now);
    });
    return this.database.transaction(async (em) => {
      const row = await this.failures.findLocked(em, key);
      const left = row === null ? 0 : Math.min(row.retryAt.getTime() - now.getTime(), maxDelayMs);
      if (left > 0) return Math.ceil(left / 1000);
      const failures = (row?.failures ?? 0) + 1;
      const retryAt = new Date(now.getTime() + signInDelayMs(failures, maxDelayMs));
      if (row === null) await this.failures.ensure(em, key, now);
      await this.failures.update(em, key, { failures, lastFailureAt: now, retryAt });
      return 0;
    });
  }

  /**
   * Runs the check of an attempt `claim` let through; when the service cannot run it (busy, or past
   * its deadline) the attempt is given back uncounted, since nothing was checked.
   */
  async checked(throttled: ThrottleKey, check: () => Promise<boolean>): Promise<boolean> {
    try {
      return await check();
    } catch (error) {
      await this.database.transaction((em) => this.failures.uncount(em, throttled.key));
      throw error;
    }
  }

  /** Forgets the keys' failures, in the caller's transaction (the attempt succeeded). */
  async forget(em: EntityManager, ...keys: ThrottleKey[]): Promise<void> {
    await this.failures.delete(
      em,
      keys.map(({ key }) => key),
    );
  }

  /** Audits a claimed attempt that failed (it is already counted). */
  async failed(emailKey: string, client: ClientInfo): Promise<void> {
    await this.database.transaction((em) => this.audit.signInFailed(em, emailKey, client));
  }
}
