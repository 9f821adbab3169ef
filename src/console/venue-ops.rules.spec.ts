import { REJECT_MESSAGES } from '../radius/radius.rules.js';
import { attemptOutcomeFilter, nasFreshness, outcomesOf, pageNumber, reasonKey, venueView } from './venue-ops.rules.js';

describe('venueView', () => {
  it('covers every venue of an unrestricted operator, with attempts of no venue', () => {
    expect(venueView(null, false, '')).toEqual({ venueIds: null, withoutVenue: true });
  });

  it("covers a restricted operator's venues, without attempts of no venue unless an administrator", () => {
    expect(venueView(['a', 'b'], false, '')).toEqual({ venueIds: ['a', 'b'], withoutVenue: false });
    expect(venueView(['a'], true, '')).toEqual({ venueIds: ['a'], withoutVenue: true });
  });

  it('narrows to a venue asked for, refusing one outside the operator and a malformed one', () => {
    expect(venueView(['a', 'b'], false, 'b')).toEqual({ venueIds: ['b'], withoutVenue: false });
    expect(venueView(null, true, 'z')).toEqual({ venueIds: ['z'], withoutVenue: false });
    expect(venueView(['a'], false, 'b')).toBe('forbidden');
    expect(venueView(['a'], false, 'no spaces')).toBe('invalid');
    expect(venueView(null, false, 'x'.repeat(65))).toBe('invalid');
  });
});

describe('nasFreshness', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  it('is silent without a packet, stale past the window, fresh within it', () => {
    expect(nasFreshness(null, now, 60_000)).toBe('silent');
    expect(nasFreshness(new Date(now.getTime() - 60_001), now, 60_000)).toBe('stale');
    expect(nasFreshness(new Date(now.getTime() - 60_000), now, 60_000)).toBe('fresh');
  });
});

describe('login attempt filters', () => {
  it('shows rejections unless asked otherwise', () => {
    expect(attemptOutcomeFilter('')).toBe('rejected');
    expect(attemptOutcomeFilter('nonsense')).toBe('rejected');
    expect(outcomesOf('rejected')).toEqual(['reject', 'unknown']);
    expect(outcomesOf(attemptOutcomeFilter('accepted'))).toEqual(['accept']);
    expect(outcomesOf(attemptOutcomeFilter('all'))).toEqual(['accept', 'reject', 'unknown']);
  });

  it('names every reject reason authorize records, and none for anything else', () => {
    for (const reason of Object.keys(REJECT_MESSAGES))
      expect(reasonKey('reject', reason)).toBe(`logins.reason.${reason}`);
    expect(reasonKey('reject', null)).toBe('logins.reason.none');
    expect(reasonKey('reject', 'made-up')).toBe('logins.reason.none');
    expect(reasonKey('accept', null)).toBe('logins.reason.accepted');
  });

  it('reads a page number safely', () => {
    expect(pageNumber('', 100)).toBe(1);
    expect(pageNumber('0', 100)).toBe(1);
    expect(pageNumber('3', 100)).toBe(3);
    expect(pageNumber('99999', 100)).toBe(100);
    expect(pageNumber('-2', 100)).toBe(1);
    expect(pageNumber('1e9', 100)).toBe(1);
  });
});
