import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { UsageRepository } from './usage.repository.js';
import { usageDeltas } from './usage.rules.js';

/** Sessions folded per transaction. */
const FOLD_BATCH_SIZE = 500;

/** What a fold did: how many sessions it folded, and whose usage rose. */
export interface FoldResult {
  sessions: number;
  userIds: Set<string>;
}

@Injectable()
export class UsageService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly usage: UsageRepository,
  ) {}

  /**
   * Adds the rise of every session's counters since the last fold to its user's usage (total and
   * the day), a batch of sessions per transaction, until none is left. Each batch's sessions are
   * locked, their rise added with `x = x + ?` and the sessions marked folded in the same
   * transaction: a packet recorded meanwhile waits for it and flags the session again, and a fold
   * of another instance skips them (MySQL) or runs after (SQLite), so nothing is added twice or
   * lost. With nothing to fold it opens no transaction.
   */
  async fold(): Promise<FoldResult> {
    const result: FoldResult = { sessions: 0, userIds: new Set() };
    if (!(await this.database.run((em) => this.usage.hasPending(em)))) return result;
    for (;;) {
      const batch = await this.database.transaction(
        async (em) => {
          const sessions = await this.usage.lockPending(em, FOLD_BATCH_SIZE);
          const zones = await this.usage.timeZonesOf(em, [...new Set(sessions.map((session) => session.venueId))]);
          const deltas = usageDeltas(
            sessions.map((session) => ({ ...session, timeZone: zones.get(session.venueId) ?? null })),
            this.clock.now(),
          );
          await this.usage.addUsage(em, deltas);
          await this.usage.markFolded(
            em,
            sessions.map((session) => session.id),
          );
          return { count: sessions.length, userIds: deltas.map((delta) => delta.userId) };
        },
        { readCommitted: true },
      );
      result.sessions += batch.count;
      for (const userId of batch.userIds) result.userIds.add(userId);
      if (batch.count < FOLD_BATCH_SIZE) return result;
    }
  }
}
