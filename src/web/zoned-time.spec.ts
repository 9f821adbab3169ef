import { dayEnd, dayStart, nextWallTime, wallDateTime, wallTimeOnDay } from './zoned-time.js';

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

describe('wall times of a day', () => {
  it('names HH:MM on the date some days after an instant, in the zone (across a clock change too)', () => {
    const at = new Date('2026-11-27T22:30:00.000Z'); // 28 Nov 01:30 in Istanbul (UTC+3)
    expect(wallTimeOnDay(at, 0, '12:00', 'Europe/Istanbul')).toEqual(new Date('2026-11-28T09:00:00.000Z'));
    expect(wallTimeOnDay(at, 1, '12:00', 'Europe/Istanbul')).toEqual(new Date('2026-11-29T09:00:00.000Z'));
    expect(wallTimeOnDay(at, 0, '12:00', null)).toEqual(new Date('2026-11-27T12:00:00.000Z'));
    // Berlin leaves summer time on 25 Oct 2026: noon on the 26th is UTC+1.
    const berlin = new Date('2026-10-25T08:00:00.000Z');
    expect(wallTimeOnDay(berlin, 1, '12:00', 'Europe/Berlin')).toEqual(new Date('2026-10-26T11:00:00.000Z'));
    expect(wallTimeOnDay(at, 0, '24:00', 'UTC')).toBeNull();
  });

  it("takes today's time while it is ahead, else tomorrow's", () => {
    expect(nextWallTime(new Date('2026-11-28T06:00:00.000Z'), '12:00', 'Europe/Istanbul')).toEqual(
      new Date('2026-11-28T09:00:00.000Z'),
    );
    expect(nextWallTime(new Date('2026-11-28T09:00:00.000Z'), '12:00', 'Europe/Istanbul')).toEqual(
      new Date('2026-11-29T09:00:00.000Z'),
    );
  });
});
