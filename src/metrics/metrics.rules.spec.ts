import {
  ageSeconds,
  isFresh,
  methodLabel,
  refusedByRateLimiter,
  routeLabel,
  statusClass,
  venueSessionSeries,
} from './metrics.rules.js';

describe('metrics rules', () => {
  it('labels a status by its class', () => {
    expect([200, 204, 301, 404, 429, 500, 503].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
    expect(statusClass(0)).toBe('other');
    expect(statusClass(999)).toBe('other');
  });

  it('keeps methods to a fixed set', () => {
    expect(methodLabel('GET')).toBe('GET');
    expect(methodLabel('PROPFIND')).toBe('other');
  });

  it('labels a request by its route template, never its path', () => {
    expect(routeLabel({ path: '/api/v1/hotspot-users/:id' }, '')).toBe('/api/v1/hotspot-users/:id');
    expect(routeLabel({ path: '/:id' }, '/api/v1/things')).toBe('/api/v1/things/:id');
    expect(routeLabel(undefined, '')).toBe('unmatched');
    expect(routeLabel({ path: /x/ }, '')).toBe('unmatched');
    expect(routeLabel({ path: '/' + 'a'.repeat(300) }, '')).toBe('unmatched');
  });

  it("counts only the rate limiter's 429s", () => {
    expect(refusedByRateLimiter(429, '600')).toBe(true);
    expect(refusedByRateLimiter(429, undefined)).toBe(false);
    expect(refusedByRateLimiter(200, '600')).toBe(false);
  });

  it('labels sessions by venue only up to the cap', () => {
    const counts = [
      { venueId: 'a', sessions: 2 },
      { venueId: 'b', sessions: 3 },
    ];
    expect(venueSessionSeries(counts, 2)).toEqual({ total: 5, perVenue: counts });
    expect(venueSessionSeries(counts, 1)).toEqual({ total: 5, perVenue: [] });
    expect(venueSessionSeries([], 0)).toEqual({ total: 0, perVenue: [] });
  });

  it('serves a database read while it is younger than the interval', () => {
    expect(isFresh(null, 1000, 500)).toBe(false);
    expect(isFresh(1000, 1400, 500)).toBe(true);
    expect(isFresh(1000, 1500, 500)).toBe(false);
  });

  it('ages the oldest pending job', () => {
    expect(ageSeconds(null, new Date(10_000))).toBe(0);
    expect(ageSeconds(new Date(4000), new Date(10_000))).toBe(6);
    expect(ageSeconds(new Date(20_000), new Date(10_000))).toBe(0);
  });
});
