import { nasFreshness, venueView } from './dashboard.rules.js';

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
