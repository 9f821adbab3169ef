import { dateTimeParameter, readDateTime } from './columns.js';

describe('date-time values in plain SQL', () => {
  const date = new Date('2026-11-22T10:04:05.678Z');

  it('writes the UTC text both engines compare with the stored value', () => {
    expect(dateTimeParameter(date)).toBe('2026-11-22 10:04:05.678');
  });

  it("reads SQLite's stored UTC text and MySQL's Date alike, and null as null", () => {
    expect(readDateTime('2026-11-22 10:04:05.678')).toEqual(date);
    expect(readDateTime(date)).toBe(date);
    expect(readDateTime(null)).toBeNull();
  });

  it('reads six fractional digits without rounding up, and the text without any', () => {
    expect(readDateTime('2026-11-22 10:04:05.999900').toISOString()).toBe('2026-11-22T10:04:05.999Z');
    expect(readDateTime('2026-11-22 10:04:05').toISOString()).toBe('2026-11-22T10:04:05.000Z');
  });

  it('refuses text that is not a stored date and time', () => {
    expect(() => readDateTime('yesterday')).toThrow('not a stored date and time');
  });
});
