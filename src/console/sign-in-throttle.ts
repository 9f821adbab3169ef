import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { MAX_SIGN_IN_DELAY_MS, signInDelayMs } from './console.rules.js';
import type { ClientInfo } from './console-sessions.service.js';
import { SignInAudit } from './sign-in-audit.js';
import { SignInFailuresRepository } from './sign-in-failures.repository.js';

/** Failures older than this no longer count. */
const FAILURE_MEMORY_MS = 24 * 3_600_000;

/**
 * The per-email slow-down of every check of an operator's password or second factor (sign-in, and
 * the confirmation of new recovery codes): each failure in a row makes the next attempt wait longer,
 * on every instance (the failures are rows of sign_in_failures); a success forgets them.
 */
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly database: DatabaseService,
    private readonly failures: SignInFailuresRepository,
    private readonly audit: SignInAudit,
    private readonly clock: Clock,
  ) {}

  /** The key of an email: as typed, trimmed and lower-cased. */
  static keyOf(email: string): string {
    return email.trim().toLowerCase().slice(0, 254);
  }

  /** Seconds this email must still wait before an attempt is checked; 0 when it may try now. */
  async waitSeconds(emailKey: string): Promise<number> {
    const row = await this.database.run((em) => this.failures.find(em, emailKey));
    if (row === null) return 0;
    const left = Math.min(row.retryAt.getTime() - this.clock.now().getTime(), MAX_SIGN_IN_DELAY_MS);
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Forgets the email's failures, in the caller's transaction (the attempt succeeded). */
  async forget(em: EntityManager, emailKey: string): Promise<void> {
    await this.failures.delete(em, emailKey);
  }

  /** Counts a failed attempt (and audits it as a failed sign-in). */
  async recordFailure(emailKey: string, client: ClientInfo): Promise<void> {
    const now = this.clock.now();
    const record = (em: EntityManager) => this.addFailure(em, emailKey, now, client);
    try {
      await this.database.transaction(record);
    } catch {
      // Another instance inserted the first failure of this email at the same moment: count on its row.
      await this.database.transaction(record);
    }
  }

  private async addFailure(em: EntityManager, emailKey: string, now: Date, client: ClientInfo): Promise<void> {
    await this.failures.deleteOlderThan(em, new Date(now.getTime() - FAILURE_MEMORY_MS));
    const row = await this.failures.find(em, emailKey);
    const failures = (row?.failures ?? 0) + 1;
    const retryAt = new Date(now.getTime() + signInDelayMs(failures));
    if (row === null) await this.failures.insert(em, { emailKey, failures, lastFailureAt: now, retryAt });
    else await this.failures.update(em, emailKey, { failures, lastFailureAt: now, retryAt });
    await this.audit.signInFailed(em, emailKey, client);
  }
}
