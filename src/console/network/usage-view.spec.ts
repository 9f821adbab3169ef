import type { UsageLimitDto, UserUsageDto } from '../../usage/dto/user-usage.response.js';
import { durationWords, tightestBar, usageBars } from './usage-view.js';

const none: UsageLimitDto = { period: 'total', periodStart: null, periodEnd: null, allowed: null, used: 0, left: null };

const usage = (limits: Partial<UserUsageDto['limits']>): UserUsageDto => ({
  userId: 'u1',
  venueId: 'venue-a',
  timeZone: 'Europe/Istanbul',
  plan: { _id: 'p1', name: 'Free' },
  day: { start: '', end: '', inputOctets: 0, outputOctets: 0, sessionSeconds: 0 },
  total: { inputOctets: 0, outputOctets: 0, sessionSeconds: 0 },
  limits: { data: none, dailyTime: { ...none, period: 'day' }, totalTime: none, ...limits },
});

describe('usage bars', () => {
  it('has a bar for each counter the plan limits, with used, allowed and left, and when a day resets', () => {
    const bars = usageBars(
      usage({
        data: {
          period: 'day',
          periodStart: '2026-11-27T21:00:00.000Z',
          periodEnd: '2026-11-28T21:00:00.000Z',
          allowed: 1_000_000_000,
          used: 750_000_000,
          left: 250_000_000,
        },
        totalTime: { ...none, allowed: 7200, used: 5400, left: 1800 },
      }),
    );
    expect(bars.map((bar) => bar.counter)).toEqual(['data', 'totalTime']);
    expect(bars[0]).toMatchObject({
      percent: 75,
      usedUp: false,
      usedAmount: { bytes: 750_000_000 },
      leftAmount: { bytes: 250_000_000 },
      resetsAt: '2026-11-28T21:00:00.000Z',
    });
    expect(bars[1]).toMatchObject({
      resetsAt: null,
      allowedAmount: { duration: { key: 'net.duration.hours', values: { hours: 2 } } },
      leftAmount: { duration: { key: 'net.duration.minutes', values: { minutes: 30 } } },
    });
  });

  it('says a counter is used up, its bar full even past the limit', () => {
    const [bar] = usageBars(usage({ data: { ...none, allowed: 100, used: 150, left: 0 } }));
    expect(bar).toMatchObject({ percent: 100, usedUp: true });
  });

  it('has none without a limit, and picks the counter nearest its limit', () => {
    expect(usageBars(usage({}))).toEqual([]);
    expect(tightestBar([])).toBeNull();
    const bars = usageBars(
      usage({
        data: { ...none, allowed: 100, used: 10, left: 90 },
        totalTime: { ...none, allowed: 3600, used: 3000, left: 600 },
      }),
    );
    expect(tightestBar(bars)?.counter).toBe('totalTime');
  });

  it('names durations in hours and minutes', () => {
    expect(durationWords(600)).toEqual({ key: 'net.duration.minutes', values: { minutes: 10 } });
    expect(durationWords(5400)).toEqual({ key: 'net.duration.hoursMinutes', values: { hours: 1, minutes: 30 } });
  });
});
