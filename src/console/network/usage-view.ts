import type { UsageLimitDto, UserUsageDto } from '../../usage/dto/user-usage.response.js';

/**
 * A user's usage against its plan as the network screens show it (the user page, Online now): one
 * bar per counter the plan limits, with what was used, what is allowed and left, in words as well as
 * a bar (a screen reader, and an operator who cannot tell the colours, read the words).
 */

/** The counters a plan may limit, in the order the pages show them. */
export const USAGE_COUNTERS = ['data', 'dailyTime', 'totalTime'] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/** A catalogue message and its values: what a view shows with it.t(key, values). */
export interface Words {
  key: string;
  values: Record<string, string | number>;
}

/** An amount as a view shows it: a byte count (put in words by the page's `bytes`), or a duration. */
export type Amount = { bytes: number } | { duration: Words };

export interface UsageBar {
  counter: UsageCounter;
  period: UsageLimitDto['period'];
  /** The raw figures, for the bar itself (octets or seconds). */
  used: number;
  allowed: number;
  usedAmount: Amount;
  allowedAmount: Amount;
  leftAmount: Amount;
  /** Of the allowance, the share used in whole percent, at most 100. */
  percent: number;
  usedUp: boolean;
  /** When the counter starts from nothing again (a day's next midnight); null for a total or a session. */
  resetsAt: string | null;
}

/** A span of seconds in hours and minutes (`net.duration.*`): 2 h, 45 min, 1 h 30 min. */
export function durationWords(seconds: number): Words {
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return { key: 'net.duration.minutes', values: { minutes: rest } };
  if (rest === 0) return { key: 'net.duration.hours', values: { hours } };
  return { key: 'net.duration.hoursMinutes', values: { hours, minutes: rest } };
}

/** The bars of the counters the user's plan limits (none without a plan, or a plan that limits none). */
export function usageBars(usage: UserUsageDto): UsageBar[] {
  return USAGE_COUNTERS.flatMap((counter) => {
    const limit = usage.limits[counter];
    if (limit.allowed === null) return [];
    const amount = (value: number): Amount =>
      counter === 'data' ? { bytes: value } : { duration: durationWords(value) };
    const left = limit.left ?? Math.max(limit.allowed - limit.used, 0);
    return [
      {
        counter,
        period: limit.period,
        used: limit.used,
        allowed: limit.allowed,
        usedAmount: amount(limit.used),
        allowedAmount: amount(limit.allowed),
        leftAmount: amount(left),
        percent: limit.allowed === 0 ? 100 : Math.min(100, Math.floor((limit.used / limit.allowed) * 100)),
        usedUp: left <= 0,
        resetsAt: limit.period === 'day' ? limit.periodEnd : null,
      },
    ];
  });
}

/** Of a user's bars, the one nearest its limit (Online now shows that one): null when there is none. */
export function tightestBar(bars: readonly UsageBar[]): UsageBar | null {
  return bars.reduce<UsageBar | null>((most, bar) => (most === null || bar.percent > most.percent ? bar : most), null);
}
