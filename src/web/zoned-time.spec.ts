import { dayEnd, dayStart, wallDateTime } from './zoned-time.js';

describe('zoned form times', () => {
  it('reads a date and a date-time in the operator zone', () => {
    expect(dayStart('2026-11-25', null)?.toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(dayStart('2026-11-25', 'Europe/Istanbul')?.toISOString()).toBe('2026-11-24T21:00:00.000Z');
    expect(dayEnd('2026-11-25', 'Europe/Istanbul')?.toISOString()).toBe('2026-11-25T21:00:00.000Z');
    expect(dayEnd('2026-12-31', 'UTC')?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(wallDateTime('2026-07-01T12:30', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T10:30:00.000Z');
    expect(wallDateTime('2026-01-01T12:30:15', 'America/New_York')?.toISOString()).toBe('2026-01-01T17:30:15.000Z');
  });

  it('refuses what is no real date or time', () => {
    for (const raw of ['', '2026-02-30', '2026-13-01', '26-01-01', 'x', '0000-01-01', '2026-01-01T24:00']) {
      expect([raw, dayStart(raw, null) ?? wallDateTime(raw, null)]).toEqual([raw, null]);
    }
    expect(dayEnd('2026-02-30', null)).toBeNull();
  });
});
