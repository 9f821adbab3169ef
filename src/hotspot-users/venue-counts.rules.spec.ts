import { bucketEnd, countBucket, countDeltas, foldCounts, pageStart, type CountedUser } from './venue-counts.rules.js';

const AT = new Date('2026-11-22T10:15:00.000Z');
const HOUR = countBucket(AT);
const user = (overrides: Partial<CountedUser> = {}): CountedUser => ({
  status: 'active',
  createdAt: AT,
  venueIds: ['b', 'a'],
  ...overrides,
});

describe('countBucket and bucketEnd', () => {
  it('puts a time in its UTC hour, and the hour ends at the next whole hour', () => {
    expect(countBucket(new Date('1970-01-01T01:59:59.999Z'))).toBe(1);
    expect(bucketEnd(HOUR)).toEqual(new Date('2026-11-22T11:00:00.000Z'));
    expect(countBucket(new Date(bucketEnd(HOUR).getTime() - 1))).toBe(HOUR);
  });
});

describe('countDeltas', () => {
  it('counts a new user once in each of its venues, in venue order', () => {
    expect(countDeltas(null, user())).toEqual([
      { venueId: 'a', status: 'active', bucket: HOUR, delta: 1 },
      { venueId: 'b', status: 'active', bucket: HOUR, delta: 1 },
    ]);
  });

  it('takes a deleted user out of each of its venues', () => {
    expect(countDeltas(user({ status: 'blocked', venueIds: ['a'] }), null)).toEqual([
      { venueId: 'a', status: 'blocked', bucket: HOUR, delta: -1 },
    ]);
  });

  it('moves a status change between the status counters of every venue', () => {
    expect(countDeltas(user({ venueIds: ['a'] }), user({ status: 'expired', venueIds: ['a'] }))).toEqual([
      { venueId: 'a', status: 'active', bucket: HOUR, delta: -1 },
      { venueId: 'a', status: 'expired', bucket: HOUR, delta: 1 },
    ]);
  });

  it('moves only the venues that changed; a change that moves nothing moves no counter', () => {
    expect(countDeltas(user({ venueIds: ['a', 'b'] }), user({ venueIds: ['c', 'a'] }))).toEqual([
      { venueId: 'b', status: 'active', bucket: HOUR, delta: -1 },
      { venueId: 'c', status: 'active', bucket: HOUR, delta: 1 },
    ]);
    expect(countDeltas(user(), user({ venueIds: ['a', 'b'] }))).toEqual([]);
  });

  it('counts a venue listed twice once', () => {
    expect(countDeltas(null, user({ venueIds: ['a', 'a'] }))).toEqual([
      { venueId: 'a', status: 'active', bucket: HOUR, delta: 1 },
    ]);
  });
});

describe('pageStart', () => {
  const buckets = [
    { bucket: 30, count: 2 },
    { bucket: 20, count: 3 },
    { bucket: 10, count: 1 },
  ];

  it('finds the hour holding the offset and how many newer rows it skips', () => {
    expect(pageStart(buckets, 0)).toEqual({ bucket: 30, skipped: 0 });
    expect(pageStart(buckets, 1)).toEqual({ bucket: 30, skipped: 0 });
    expect(pageStart(buckets, 2)).toEqual({ bucket: 20, skipped: 2 });
    expect(pageStart(buckets, 5)).toEqual({ bucket: 10, skipped: 5 });
  });

  it('is null past the last row', () => {
    expect(pageStart(buckets, 6)).toBeNull();
    expect(pageStart([], 0)).toBeNull();
  });
});

describe('foldCounts', () => {
  it('sums changes per venue and status, and per venue, status and hour, in key order without zeros', () => {
    const folded = foldCounts([
      { venueId: 'b', status: 'active', bucket: 7, delta: 1 },
      { venueId: 'a', status: 'blocked', bucket: 7, delta: 1 },
      { venueId: 'a', status: 'active', bucket: 8, delta: 1 },
      { venueId: 'a', status: 'active', bucket: 7, delta: 1 },
      { venueId: 'a', status: 'active', bucket: 7, delta: -1 },
      { venueId: 'b', status: 'active', bucket: 6, delta: -1 },
    ]);
    expect(folded.counts).toEqual([
      { venueId: 'a', status: 'active', delta: 1 },
      { venueId: 'a', status: 'blocked', delta: 1 },
    ]);
    expect(folded.buckets).toEqual([
      { venueId: 'a', status: 'active', bucket: 8, delta: 1 },
      { venueId: 'a', status: 'blocked', bucket: 7, delta: 1 },
      { venueId: 'b', status: 'active', bucket: 6, delta: -1 },
      { venueId: 'b', status: 'active', bucket: 7, delta: 1 },
    ]);
  });

  it('folds nothing into nothing', () => {
    expect(foldCounts([])).toEqual({ counts: [], buckets: [] });
  });
});
