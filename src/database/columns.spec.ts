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
});
