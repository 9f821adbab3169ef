import type { EffectivePlan } from '../plans/plan-limits.js';
import type { UserUsageDto, UsageCountersDto, UsageLimitDto } from './dto/user-usage.response.js';
import type { StoredUsage } from './usage.repository.js';
import { allowancesOf, type Allowance } from './usage.rules.js';

/** What the usage of a user at a venue is shown from. */
export interface UsageView {
  userId: string;
  venueId: string | null;
  timeZone: string;
  plan: EffectivePlan | null;
  day: { start: Date; end: Date; usage: StoredUsage | null };
  total: StoredUsage | null;
  /** The user's active session there with the most octets, for a per-session quota; null: none. */
  largestSession: { bytes: bigint; startedAt: Date } | null;
}

function countersOf(usage: StoredUsage | null): UsageCountersDto {
  return {
    inputOctets: Number(usage?.inputOctets ?? 0n),
    outputOctets: Number(usage?.outputOctets ?? 0n),
    sessionSeconds: Number(usage?.sessionSeconds ?? 0n),
  };
}

function bytesOf(usage: StoredUsage | null): bigint {
  return (usage?.inputOctets ?? 0n) + (usage?.outputOctets ?? 0n);
}

export function toUserUsageDto(view: UsageView): UserUsageDto {
  const { plan, day, total, largestSession } = view;
  const allowances = allowancesOf(plan, {
    dayBytes: bytesOf(day.usage),
    totalBytes: bytesOf(total),
    daySeconds: day.usage?.sessionSeconds ?? 0n,
    totalSeconds: total?.sessionSeconds ?? 0n,
    sessionBytes: largestSession?.bytes ?? 0n,
  });
  const dayBounds = { periodStart: day.start.toISOString(), periodEnd: day.end.toISOString() };
  const whole = { periodStart: null, periodEnd: null };
  const limit = (
    allowance: Allowance,
    period: UsageLimitDto['period'],
    bounds: Pick<UsageLimitDto, 'periodStart' | 'periodEnd'>,
  ): UsageLimitDto => ({ period, ...bounds, ...allowance });
  const quotaPeriod = plan?.quotaPeriod ?? 'total';
  const quotaBounds =
    quotaPeriod === 'day'
      ? dayBounds
      : quotaPeriod === 'session'
        ? { periodStart: largestSession?.startedAt.toISOString() ?? null, periodEnd: null }
        : whole;
  return {
    userId: view.userId,
    venueId: view.venueId,
    timeZone: view.timeZone,
    plan: plan === null ? null : { _id: plan.id, name: plan.name },
    day: { start: dayBounds.periodStart, end: dayBounds.periodEnd, ...countersOf(day.usage) },
    total: countersOf(total),
    limits: {
      data: limit(allowances.data, quotaPeriod, quotaBounds),
      dailyTime: limit(allowances.dailyTime, 'day', dayBounds),
      totalTime: limit(allowances.totalTime, 'total', whole),
    },
  };
}
