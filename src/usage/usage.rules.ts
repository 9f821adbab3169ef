import { isTimeZone } from '../common/validation/time-zone.js';

/**
 * A user's usage is kept per period: `total`, and each day (`YYYY-MM-DD`) in the time zone of the
 * venue where the sessions were. Accounting only raises a session's counters; the usage fold adds
 * each session's rise since the fold before to its user's periods (usageDeltas), so that the usage
 * never falls and no packet is counted twice, whichever path (the service's or FreeRADIUS's SQL)
 * and whichever instance recorded it.
 */
export const TOTAL_PERIOD = 'total';

/** How long a day's usage is kept: a month and more, for whoever reads it back. */
export const DAY_USAGE_KEPT_DAYS = 40;

/** The oldest day whose usage is kept at `now` (days before it are deleted). */
export function oldestKeptDay(now: Date): string {
  return dayOf(new Date(now.getTime() - DAY_USAGE_KEPT_DAYS * 86_400_000), null);
}

/** A session's terminate cause when a plan's quota or time allowance ended it. */
export const QUOTA_TERMINATE_CAUSE = 'quota';

/** A session's counters as the fold reads them: now, and as the last fold added them. */
export interface SessionCounters {
  userId: string;
  /** The time zone of the session's venue (null: unregistered or none set, read as UTC). */
  timeZone: string | null;
  /** When its counters last rose: the day they count in. */
  lastAccountingAt: Date | null;
  inputOctets: bigint;
  outputOctets: bigint;
  sessionTime: number;
  foldedInputOctets: bigint;
  foldedOutputOctets: bigint;
  foldedSessionTime: number;
}

/** What to add to one period of one user. */
export interface UsageDelta {
  userId: string;
  period: string;
  inputOctets: bigint;
  outputOctets: bigint;
  sessionSeconds: bigint;
}

/**
 * A date formatter per time zone named: building one costs about a millisecond, and the usage fold
 * names a day for every session it folds (the zones are the venues', a handful).
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day (`YYYY-MM-DD`) `instant` falls on in `zone` (null or unknown: UTC). */
export function dayOf(instant: Date, zone: string | null): string {
  const key = zone ?? 'UTC';
  let format = dayFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: isTimeZone(key) ? key : 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(key, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * The rise of each session's counters since the last fold, added up per user and period (`total`
 * and the day of the session's last accounting, or `now` when it has none), in (user, period)
 * order so that concurrent folds take the usage rows in the same order; periods with nothing to
 * add are left out. A counter below its folded value (none ever should be) adds nothing.
 */
export function usageDeltas(sessions: readonly SessionCounters[], now: Date): UsageDelta[] {
  const sums = new Map<string, UsageDelta>();
  const add = (userId: string, period: string, input: bigint, output: bigint, seconds: bigint) => {
    const key = `${userId}\u0000${period}`;
    const sum = sums.get(key) ?? { userId, period, inputOctets: 0n, outputOctets: 0n, sessionSeconds: 0n };
    sum.inputOctets += input;
    sum.outputOctets += output;
    sum.sessionSeconds += seconds;
    sums.set(key, sum);
  };
  for (const session of sessions) {
    const input = rise(session.inputOctets, session.foldedInputOctets);
    const output = rise(session.outputOctets, session.foldedOutputOctets);
    const seconds = rise(BigInt(session.sessionTime), BigInt(session.foldedSessionTime));
    if (input === 0n && output === 0n && seconds === 0n) continue;
    add(session.userId, TOTAL_PERIOD, input, output, seconds);
    add(session.userId, dayOf(session.lastAccountingAt ?? now, session.timeZone), input, output, seconds);
  }
  return [...sums.values()].sort((a, b) =>
    a.userId === b.userId ? compare(a.period, b.period) : compare(a.userId, b.userId),
  );
}

function rise(current: bigint, folded: bigint): bigint {
  return current > folded ? current - folded : 0n;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What a user used, as a plan's limits read it: in the period's day, in total, and in one session. */
export interface UsageFigures {
  /** Octets in and out together. */
  dayBytes: bigint;
  totalBytes: bigint;
  daySeconds: bigint;
  totalSeconds: bigint;
  /** Octets in and out of the session in question (0 for a login about to start one). */
  sessionBytes: bigint;
}

export const NO_USAGE: UsageFigures = {
  dayBytes: 0n,
  totalBytes: 0n,
  daySeconds: 0n,
  totalSeconds: 0n,
  sessionBytes: 0n,
};

/** One limit of a plan against the usage: what it allows (null: no limit), what was used, what is left. */
export interface Allowance {
  allowed: number | null;
  used: number;
  left: number | null;
}

/** The limits of a plan that usage counts against, and how much of each is left. */
export interface Allowances {
  data: Allowance;
  dailyTime: Allowance;
  totalTime: Allowance;
}

/** The plan's limits that usage counts against (a PlanLimits' fields). */
export interface UsageLimits {
  quotaBytes: number | null;
  quotaPeriod: 'session' | 'day' | 'total' | null;
  dailyTimeSeconds: number | null;
  totalTimeSeconds: number | null;
}

function allowance(allowed: number | null, used: bigint): Allowance {
  const usedNumber = Number(used);
  return { allowed, used: usedNumber, left: allowed === null ? null : Math.max(0, allowed - usedNumber) };
}

/** Each limit of `plan` (none: every limit null) against the usage. */
export function allowancesOf(plan: UsageLimits | null, usage: UsageFigures): Allowances {
  const period = plan?.quotaPeriod ?? 'total';
  const bytes = period === 'session' ? usage.sessionBytes : period === 'day' ? usage.dayBytes : usage.totalBytes;
  return {
    data: allowance(plan?.quotaBytes ?? null, bytes),
    dailyTime: allowance(plan?.dailyTimeSeconds ?? null, usage.daySeconds),
    totalTime: allowance(plan?.totalTimeSeconds ?? null, usage.totalSeconds),
  };
}

/** What is left of the data quota and of the time allowance (the lesser of the day's and the total's); null: no limit. */
export function leftOf(allowances: Allowances): { bytesLeft: number | null; secondsLeft: number | null } {
  const times = [allowances.dailyTime.left, allowances.totalTime.left].filter((left): left is number => left !== null);
  return { bytesLeft: allowances.data.left, secondsLeft: times.length === 0 ? null : Math.min(...times) };
}

/** Whether a data quota or a time allowance of the plan is used up. */
export function isExhausted(allowances: Allowances): boolean {
  return [allowances.data, allowances.dailyTime, allowances.totalTime].some((limit) => limit.left === 0);
}

/** Why a plan refuses a login. */
export type PlanRefusal = 'quotaExhausted' | 'tooManyDevices' | 'tooManySessions';

/** What a login's plan decision needs beyond the usage: the user's devices and recent sessions. */
export interface LoginCounts {
  /** Distinct devices the user has. */
  devices: number;
  /** Whether the login's device is one of them (or the login names none). */
  deviceKnown: boolean;
  /** The user's sessions with a recent accounting update. */
  recentSessions: number;
}

export interface PlanLoginLimits extends UsageLimits {
  maxSessions: number | null;
  maxDevices: number | null;
}

/**
 * A login under its plan: refused when a quota or time allowance is used up (until its period
 * resets), when a new device would pass maxDevices, or when maxSessions sessions are online;
 * otherwise what is left of the quota and the time allowance for the reply's attributes.
 */
export function planLoginDecision(
  plan: PlanLoginLimits,
  usage: UsageFigures,
  counts: LoginCounts,
): { refused: PlanRefusal } | { refused: null; bytesLeft: number | null; secondsLeft: number | null } {
  const allowances = allowancesOf(plan, { ...usage, sessionBytes: 0n });
  if (isExhausted(allowances)) return { refused: 'quotaExhausted' };
  if (plan.maxDevices !== null && !counts.deviceKnown && counts.devices >= plan.maxDevices) {
    return { refused: 'tooManyDevices' };
  }
  if (plan.maxSessions !== null && counts.recentSessions >= plan.maxSessions) return { refused: 'tooManySessions' };
  return { refused: null, ...leftOf(allowances) };
}
