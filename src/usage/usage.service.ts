import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../auth/actor.js';
import { Clock } from '../common/clock.js';
import { Deadline } from '../common/load/deadline.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { VenueContextDto } from '../hotspot-users/dto/hotspot-user-queries.dto.js';
import { UserAccess } from '../hotspot-users/user-access.js';
import type { EffectivePlan } from '../plans/plan-limits.js';
import { PlansService } from '../plans/plans.service.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { ENDED_BY_SERVICE, endedByService } from '../sessions/session.rules.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { dayEnd, dayStart } from '../web/zoned-time.js';
import type { UserUsageDto } from './dto/user-usage.response.js';
import { toUserUsageDto } from './usage.mapper.js';
import { type StoredUsage, UsageRepository } from './usage.repository.js';
import {
  allowancesOf,
  dayOf,
  isExhausted,
  oldestKeptDay,
  planLoginDecision,
  type PlanRefusal,
  QUOTA_TERMINATE_CAUSE,
  TOTAL_PERIOD,
  type UsageFigures,
  usageDeltas,
} from './usage.rules.js';

/** Sessions folded per transaction. */
const FOLD_BATCH_SIZE = 500;
/** Old days' usage rows deleted per statement. */
const FORGET_BATCH_SIZE = 1000;

/** What a fold did: how many sessions it folded, and whose usage rose. */
export interface FoldResult {
  sessions: number;
  userIds: Set<string>;
}

/** A login's standing under its plan: refused, or what is left of its quota and time allowance. */
export type PlanLoginStanding =
  | { plan: EffectivePlan; refused: PlanRefusal }
  | { plan: EffectivePlan; refused: null; bytesLeft: number | null; secondsLeft: number | null };

@Injectable()
export class UsageService {
  private readonly logger = new Logger('Usage');
  private readonly staleAfterMs: number;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly usage: UsageRepository,
    private readonly plans: PlansService,
    private readonly sessions: SessionsRepository,
    private readonly unauthJobs: UnauthJobsService,
    private readonly access: UserAccess,
    config: ConfigService<AppConfig, true>,
  ) {
    this.staleAfterMs = config.get('radius', { infer: true }).staleAfterMs;
  }

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

  /** Deletes the days' usage older than DAY_USAGE_KEPT_DAYS, a batch per statement; how many rows. */
  async forgetOldDays(): Promise<number> {
    const before = oldestKeptDay(this.clock.now());
    let deleted = 0;
    for (;;) {
      const batch = await this.database.run((em) => this.usage.deleteDaysBefore(em, before, FORGET_BATCH_SIZE));
      deleted += batch;
      if (batch < FORGET_BATCH_SIZE) return deleted;
    }
  }

  /**
   * The fold, then the plans' limits on the users whose usage rose: returns the ids of the unauth
   * jobs written (reason `quota`). A user whose check failed is checked again when its usage next
   * rises (its NAS's next Interim-Update), the others' checks go on.
   */
  async sweep(): Promise<string[]> {
    const { userIds } = await this.fold();
    const jobIds: string[] = [];
    for (const userId of await this.usersOverLimits([...userIds])) {
      try {
        const jobId = await this.enforce(userId);
        if (jobId !== null) jobIds.push(jobId);
      } catch (error) {
        this.logger.warn(
          `Checking the plan limits of user ${userId} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return jobIds;
  }

  /**
   * Of `userIds`, those with an active session whose plan has a limit used up, read a batch of users
   * at a time in two queries and a plan's limits once (no locks: enforce checks again under its
   * locks), so that the many users whose usage rose within their limits cost no transaction each.
   * A batch whose read failed is logged and its users left to their next rise.
   */
  private async usersOverLimits(userIds: readonly string[]): Promise<string[]> {
    const now = this.clock.now();
    const plans = new Map<string, EffectivePlan | null>();
    const over = new Set<string>();
    for (let start = 0; start < userIds.length; start += FOLD_BATCH_SIZE) {
      const batch = userIds.slice(start, start + FOLD_BATCH_SIZE);
      try {
        await this.database.run(async (em) => {
          const sessions = await this.usage.findActiveOnPlans(em, batch);
          for (const planId of new Set(sessions.map((session) => session.planId))) {
            if (!plans.has(planId)) plans.set(planId, await this.plans.effectivePlan(em, planId, null));
          }
          const days = new Map(sessions.map((session) => [session.timeZone, dayOf(now, session.timeZone)]));
          const stored = await this.usage.findUsageOfUsers(
            em,
            [...new Set(sessions.map((session) => session.userId))],
            [TOTAL_PERIOD, ...new Set(days.values())],
          );
          for (const session of sessions) {
            const plan = plans.get(session.planId) ?? null;
            const figures = {
              ...figuresOf(stored.get(session.userId) ?? [], days.get(session.timeZone)!),
              sessionBytes: session.sessionBytes,
            };
            if (plan !== null && isExhausted(allowancesOf(plan, figures))) over.add(session.userId);
          }
        });
      } catch (error) {
        this.logger.warn(
          `Checking the plan limits of ${batch.length} user(s) failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return [...over];
  }

  /**
   * Ends the user's active sessions whose plan's data quota or time allowance is used up, in one
   * transaction with the user's row locked first (as every status change and session start), and
   * writes one unauth job (reason `quota`) for them, which tells the NAS. Returns its id, or null
   * when no session was over its limits.
   */
  async enforce(userId: string): Promise<string | null> {
    return this.database.transaction(async (em) => {
      const user = await this.usage.lockUser(em, userId);
      if (user === null || user.status !== 'active') return null;
      const active = await this.sessions.lockActiveOfUser(em, userId);
      if (active.length === 0) return null;
      const now = this.clock.now();
      const over = await this.sessionsOverLimits(em, user.planId, userId, active, now);
      if (over.length === 0) return null;
      const ended = endedByService(over, now);
      await this.sessions.end(
        em,
        ended.map((session) => session.id),
        ENDED_BY_SERVICE,
        now,
      );
      for (const session of ended) {
        session.terminateCause = QUOTA_TERMINATE_CAUSE;
        await this.sessions.update(em, session.id, { terminateCause: QUOTA_TERMINATE_CAUSE });
      }
      const job = await this.unauthJobs.enqueue(
        em,
        { userId, username: user.username, reason: 'quota', sessions: ended },
        now,
      );
      this.logger.log(
        `User ${userId} used up a limit of its plan: ${ended.length} session(s) ended, unauth job ${job.id}`,
      );
      return job.id;
    });
  }

  /** Of `active`, the sessions whose plan (the user's, else their venue's default) has a limit used up. */
  private async sessionsOverLimits(
    em: EntityManager,
    planId: string | null,
    userId: string,
    active: readonly SessionEntity[],
    now: Date,
  ): Promise<SessionEntity[]> {
    const venueIds = [...new Set(active.map((session) => session.venueId))];
    const plans = new Map<string, EffectivePlan | null>();
    for (const venueId of venueIds) plans.set(venueId, await this.plans.effectivePlan(em, planId, venueId));
    if ([...plans.values()].every((plan) => plan === null)) return [];
    const zones = await this.usage.timeZonesOf(em, venueIds);
    const days = new Map(venueIds.map((venueId) => [venueId, dayOf(now, zones.get(venueId) ?? null)]));
    const stored = await this.usage.findUsage(em, userId, [TOTAL_PERIOD, ...new Set(days.values())]);
    return active.filter((session) => {
      const plan = plans.get(session.venueId) ?? null;
      if (plan === null) return false;
      const figures = {
        ...figuresOf(stored, days.get(session.venueId)!),
        sessionBytes: BigInt(session.inputOctets ?? 0) + BigInt(session.outputOctets ?? 0),
      };
      return isExhausted(allowancesOf(plan, figures));
    });
  }

  /**
   * The usage of a user the token may read (GET user's rules: 404 otherwise) at the venue of the
   * query, else the user's first in the token's venues: its plan there, today's and the total counters, each limit with
   * what is allowed, used and left, and the period's bounds.
   */
  usageOf(token: Actor, id: string, context: VenueContextDto): Promise<UserUsageDto> {
    return this.database.run(async (em) => {
      const record = await this.access.findReadable(em, token, id, context);
      // Without one asked for, the user's first venue the token may see (a token sees its venues only).
      const visible = record.venueIds.filter((venue) => token.venueIds === null || token.venueIds.includes(venue));
      const venueId = context.venueId ?? visible[0] ?? null;
      const now = this.clock.now();
      const plan = await this.plans.effectivePlan(em, record.user.planId, venueId);
      const zone = venueId === null ? undefined : (await this.usage.timeZonesOf(em, [venueId])).get(venueId);
      const timeZone = zone ?? 'UTC';
      const day = dayOf(now, timeZone);
      const stored = await this.usage.findUsage(em, id, [TOTAL_PERIOD, day]);
      const sessions = (await this.sessions.findActiveOfUser(em, id)).filter((session) => session.venueId === venueId);
      const largest = sessions
        .map((session) => ({
          bytes: BigInt(session.inputOctets ?? 0) + BigInt(session.outputOctets ?? 0),
          startedAt: session.startedAt,
        }))
        .reduce<{ bytes: bigint; startedAt: Date } | null>(
          (most, session) => (most === null || session.bytes > most.bytes ? session : most),
          null,
        );
      return toUserUsageDto({
        userId: id,
        venueId,
        timeZone,
        plan,
        day: {
          start: dayStart(day, timeZone)!,
          end: dayEnd(day, timeZone)!,
          usage: stored.find((row) => row.period === day) ?? null,
        },
        total: stored.find((row) => row.period === TOTAL_PERIOD) ?? null,
        largestSession: largest,
      });
    });
  }

  /**
   * A login's standing under its plan (the user's own, else the venue's default), read in one
   * statement and the plan's: null when the login has no plan. In RADIUS's lane unless the caller is
   * a page (the guest portal's status page).
   */
  async loginStanding(
    userId: string,
    venueId: string,
    macAddress: string,
    deadline: Deadline = Deadline.none,
    lane: 'radius' | 'general' = 'radius',
  ): Promise<PlanLoginStanding | null> {
    const now = this.clock.now();
    // The venue's day is one of these three, whatever its time zone.
    const days = [-1, 0, 1].map((offset) => dayOf(new Date(now.getTime() + offset * 86_400_000), null));
    return this.database.run(
      async (em) => {
        const recentSince = new Date(now.getTime() - this.staleAfterMs);
        const figures = await this.usage.findLoginFigures(em, userId, venueId, macAddress, recentSince, [
          TOTAL_PERIOD,
          ...days,
        ]);
        // Most logins are on no plan at all: no second query for them.
        if (figures === null || (figures.planId === null && figures.venuePlanId === null)) return null;
        const plan = await this.plans.effectivePlan(em, figures.planId, venueId);
        if (plan === null) return null;
        const usage = figuresOf(figures.usage, dayOf(now, figures.timeZone));
        return { plan, ...planLoginDecision(plan, usage, figures) };
      },
      { deadline, lane },
    );
  }
}

/** The usage of the day `day` and in total, from the stored rows (a period without a row: nothing used). */
export function figuresOf(stored: readonly StoredUsage[], day: string): UsageFigures {
  const of = (period: string) => stored.find((row) => row.period === period);
  const today = of(day);
  const total = of(TOTAL_PERIOD);
  return {
    dayBytes: (today?.inputOctets ?? 0n) + (today?.outputOctets ?? 0n),
    totalBytes: (total?.inputOctets ?? 0n) + (total?.outputOctets ?? 0n),
    daySeconds: today?.sessionSeconds ?? 0n,
    totalSeconds: total?.sessionSeconds ?? 0n,
    sessionBytes: 0n,
  };
}
