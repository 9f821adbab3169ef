import { instantAsWallDateTime } from '../web/zoned-time.js';

/**
 * A user's usage is kept per period: `total`, and each day (`YYYY-MM-DD`) in the time zone of the
 * venue where the sessions were. Accounting only raises a session's counters; the usage fold adds
 * each session's rise since the fold before to its user's periods (usageDeltas), so that the usage
 * never falls and no packet is counted twice, whichever path (the service's or FreeRADIUS's SQL)
 * and whichever instance recorded it.
 */
export const TOTAL_PERIOD = 'total';

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

/** The day (`YYYY-MM-DD`) `instant` falls on in `zone` (null or unknown: UTC). */
export function dayOf(instant: Date, zone: string | null): string {
  return instantAsWallDateTime(instant.toISOString(), zone).slice(0, 10);
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
