import { MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-delay.js';

const highest = () => 1 - Number.EPSILON; // Math.random() never returns 1
const lowest = () => 0;
const middle = () => 0.5;

describe('retryDelayMs', () => {
  it('doubles with each attempt, from the base for the first', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 1000, highest))).toEqual([
      1000, 2000, 4000, 8000, 16000,
    ]);
  });

  it('treats attempt 0 (or less) like the first', () => {
    expect(retryDelayMs(0, 1000, highest)).toBe(1000);
    expect(retryDelayMs(-3, 1000, highest)).toBe(1000);
  });

  it('stops growing at the cap, even for absurd attempt counts', () => {
    expect(MAX_RETRY_DELAY_MS).toBe(15 * 60 * 1000);
    expect(retryDelayMs(20, 5000, highest)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(100, 5000, highest)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(10_000, 5000, highest)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(10_000, 5000, lowest)).toBe(MAX_RETRY_DELAY_MS / 2);
    expect(Number.isFinite(retryDelayMs(10_000, 5000))).toBe(true);
  });

  it('jitters between half and all of the exponential delay', () => {
    expect(retryDelayMs(3, 1000, lowest)).toBe(2000);
    expect(retryDelayMs(3, 1000, middle)).toBe(3000);
    expect(retryDelayMs(3, 1000, highest)).toBe(4000);
  });

  it('stays within those bounds with the real random source', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const full = Math.min(MAX_RETRY_DELAY_MS, 250 * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(attempt, 250);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
      }
    }
  });

  it('gives whole milliseconds, at least 1 for the smallest base', () => {
    expect(retryDelayMs(1, 1, lowest)).toBe(1); // 0.5 rounds up
    expect(retryDelayMs(1, 3, middle)).toBe(2); // 2.25
  });
});
