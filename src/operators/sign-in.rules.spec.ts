import { lastSeenDue, SECOND_FACTOR_MAX_DELAY_MS, sessionOver, signInDelayMs } from './sign-in.rules.js';

describe('signInDelayMs', () => {
  it('is free for the first failures, then doubles up to 30 s, never more', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 10_000].map((failures) => signInDelayMs(failures))).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('for a second factor, doubles on up to 15 minutes', () => {
    expect([2, 3, 8, 12, 13, 100].map((failures) => signInDelayMs(failures, SECOND_FACTOR_MAX_DELAY_MS))).toEqual([
      0, 1000, 32_000, 512_000, 900_000, 900_000,
    ]);
  });
});

describe('sessionOver', () => {
  const limits = { idleTimeoutMs: 30 * 60_000, absoluteTimeoutMs: 12 * 3_600_000 };
  const createdAt = new Date('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(createdAt.getTime() + ms);
  const session = { createdAt, lastSeenAt: createdAt, expiresAt: at(12 * 3_600_000) };

  it('is over after the idle time without use', () => {
    expect(sessionOver(session, at(30 * 60_000 - 1), limits)).toBe(false);
    expect(sessionOver(session, at(30 * 60_000), limits)).toBe(true);
  });

  it('is over after the absolute time however busy', () => {
    const busy = { ...session, lastSeenAt: at(12 * 3_600_000 - 1000) };
    expect(sessionOver(busy, at(12 * 3_600_000 - 1), limits)).toBe(false);
    expect(sessionOver(busy, at(12 * 3_600_000), limits)).toBe(true);
  });

  it('is over at its own expiry (a pending second step expires sooner)', () => {
    expect(sessionOver({ ...session, expiresAt: at(5 * 60_000) }, at(5 * 60_000), limits)).toBe(true);
  });
});

describe('lastSeenDue', () => {
  it('once a minute', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    expect(lastSeenDue(t, new Date(t.getTime() + 59_999))).toBe(false);
    expect(lastSeenDue(t, new Date(t.getTime() + 60_000))).toBe(true);
  });
});
