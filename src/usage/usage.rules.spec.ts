import {
  allowancesOf,
  DAY_USAGE_KEPT_DAYS,
  dayOf,
  isExhausted,
  leftOf,
  oldestKeptDay,
  planLoginDecision,
  type SessionCounters,
  TOTAL_PERIOD,
  usageDeltas,
} from './usage.rules.js';

const now = new Date('2026-11-28T10:00:00.000Z');

function counters(overrides: Partial<SessionCounters>): SessionCounters {
  return {
    userId: 'u1',
    timeZone: null,
    lastAccountingAt: now,
    inputOctets: 0n,
    outputOctets: 0n,
    sessionTime: 0,
    foldedInputOctets: 0n,
    foldedOutputOctets: 0n,
    foldedSessionTime: 0,
    ...overrides,
  };
}

describe('usage rules', () => {
  it('names the day of an instant in the venue time zone, UTC without one', () => {
    const lateEvening = new Date('2026-11-28T22:30:00.000Z');
    expect(dayOf(lateEvening, null)).toBe('2026-11-28');
    expect(dayOf(lateEvening, 'Europe/Istanbul')).toBe('2026-11-29');
    expect(dayOf(lateEvening, 'America/New_York')).toBe('2026-11-28');
    expect(dayOf(lateEvening, 'Not/AZone')).toBe('2026-11-28');
  });

  it(`keeps a day's usage ${DAY_USAGE_KEPT_DAYS} days`, () => {
    expect(oldestKeptDay(new Date('2026-11-28T10:00:00.000Z'))).toBe('2026-10-19');
    // Rows of `total` sort after every day, so deleting the days before one never deletes them.
    expect(TOTAL_PERIOD > '9999-12-31').toBe(true);
  });

  it('adds the rise since the last fold to the total and to the day of the last accounting', () => {
    const deltas = usageDeltas(
      [
        counters({
          inputOctets: 1500n,
          outputOctets: 700n,
          sessionTime: 90,
          foldedInputOctets: 500n,
          foldedSessionTime: 30,
        }),
      ],
      now,
    );
    expect(deltas).toEqual([
      { userId: 'u1', period: '2026-11-28', inputOctets: 1000n, outputOctets: 700n, sessionSeconds: 60n },
      { userId: 'u1', period: TOTAL_PERIOD, inputOctets: 1000n, outputOctets: 700n, sessionSeconds: 60n },
    ]);
  });

  it("sums a user's sessions per period, each day in its own venue's zone", () => {
    const late = new Date('2026-11-28T22:30:00.000Z');
    const deltas = usageDeltas(
      [
        counters({ inputOctets: 10n, lastAccountingAt: late, timeZone: 'Europe/Istanbul' }),
        counters({ inputOctets: 5n, lastAccountingAt: late }),
        counters({ userId: 'u0', outputOctets: 2n, lastAccountingAt: null }),
      ],
      now,
    );
    expect(
      deltas.map(({ userId, period, inputOctets, outputOctets }) => [userId, period, inputOctets, outputOctets]),
    ).toEqual([
      ['u0', '2026-11-28', 0n, 2n],
      ['u0', TOTAL_PERIOD, 0n, 2n],
      ['u1', '2026-11-28', 5n, 0n],
      ['u1', '2026-11-29', 10n, 0n],
      ['u1', TOTAL_PERIOD, 15n, 0n],
    ]);
  });

  it('counts octets past 2^53 exactly and never subtracts', () => {
    const big = 2n ** 62n + 1n;
    const deltas = usageDeltas(
      [
        counters({ inputOctets: big, foldedInputOctets: 1n }),
        counters({ userId: 'u2', inputOctets: 5n, foldedInputOctets: 9n, sessionTime: 3, foldedSessionTime: 7 }),
      ],
      now,
    );
    expect(deltas).toHaveLength(2);
    expect(deltas[0].inputOctets).toBe(2n ** 62n);
  });
});

describe('plan limits against usage', () => {
  const plan = {
    quotaBytes: 1000,
    quotaPeriod: 'day' as const,
    dailyTimeSeconds: 3600,
    totalTimeSeconds: 36_000,
    maxSessions: 2,
    maxDevices: 2,
  };
  const usage = { dayBytes: 400n, totalBytes: 5000n, daySeconds: 600n, totalSeconds: 35_900n, sessionBytes: 300n };
  const counts = { devices: 1, deviceKnown: false, recentSessions: 1 };

  it('reads the quota over its period: a day, in total, or the session', () => {
    expect(allowancesOf(plan, usage).data).toEqual({ allowed: 1000, used: 400, left: 600 });
    expect(allowancesOf({ ...plan, quotaPeriod: 'total' }, usage).data).toEqual({ allowed: 1000, used: 5000, left: 0 });
    expect(allowancesOf({ ...plan, quotaPeriod: 'session' }, usage).data).toEqual({
      allowed: 1000,
      used: 300,
      left: 700,
    });
    expect(allowancesOf(null, usage)).toEqual({
      data: { allowed: null, used: 5000, left: null },
      dailyTime: { allowed: null, used: 600, left: null },
      totalTime: { allowed: null, used: 35_900, left: null },
    });
  });

  it('leaves the lesser of the day and total time, and says when anything is used up', () => {
    const allowances = allowancesOf(plan, usage);
    expect(leftOf(allowances)).toEqual({ bytesLeft: 600, secondsLeft: 100 });
    expect(isExhausted(allowances)).toBe(false);
    expect(isExhausted(allowancesOf(plan, { ...usage, totalSeconds: 36_000n }))).toBe(true);
    expect(isExhausted(allowancesOf(plan, { ...usage, dayBytes: 1001n }))).toBe(true);
  });

  it('refuses a login when used up, from a device past maxDevices, or past maxSessions', () => {
    expect(planLoginDecision(plan, usage, counts)).toEqual({ refused: null, bytesLeft: 600, secondsLeft: 100 });
    expect(planLoginDecision(plan, { ...usage, dayBytes: 1000n }, counts)).toEqual({ refused: 'quotaExhausted' });
    expect(planLoginDecision(plan, usage, { ...counts, devices: 2 })).toEqual({ refused: 'tooManyDevices' });
    expect(planLoginDecision(plan, usage, { ...counts, devices: 2, deviceKnown: true })).toMatchObject({
      refused: null,
    });
    expect(planLoginDecision(plan, usage, { ...counts, recentSessions: 2 })).toEqual({ refused: 'tooManySessions' });
    // A session quota starts afresh with each session.
    expect(
      planLoginDecision({ ...plan, quotaPeriod: 'session' }, { ...usage, sessionBytes: 5000n }, counts),
    ).toMatchObject({
      refused: null,
      bytesLeft: 1000,
    });
  });
});
