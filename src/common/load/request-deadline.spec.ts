import { announcedSentAt, announcedTimeoutMs, RequestAges } from './request-deadline.js';

describe('announcedTimeoutMs / announcedSentAt', () => {
  it('reads plain milliseconds within ten minutes, and nothing else', () => {
    expect(announcedTimeoutMs('250')).toBe(250);
    expect(announcedTimeoutMs('600000')).toBe(600_000);
    for (const bad of [undefined, '', '0', '-5', '1e3', '2.5', '600001', ' 250', ['250', '300']])
      expect(announcedTimeoutMs(bad)).toBeNull();
  });

  it('reads Unix milliseconds, with decimals', () => {
    expect(announcedSentAt('1795786165903')).toBe(1795786165903);
    expect(announcedSentAt('1795786165903.25')).toBe(1795786165903.25);
    for (const bad of [undefined, 'now', '17957861', '-1795786165903', '1795786165903.', ['1', '2']])
      expect(announcedSentAt(bad)).toBeNull();
  });
});

describe('RequestAges', () => {
  it("a peer's first request is 0 old; later ones by how much later than the quickest they arrived", () => {
    const ages = new RequestAges();
    // The peer's clock is 5 s behind ours: offsets are about 5000 ms.
    expect(ages.ageMs('10.0.0.1', 1_000_000, 1_005_001)).toBe(0);
    expect(ages.ageMs('10.0.0.1', 1_000_100, 1_005_101)).toBe(0);
    expect(ages.ageMs('10.0.0.1', 1_000_200, 1_005_381)).toBe(180);
    // A quicker one lowers the baseline: never judged older than it is.
    expect(ages.ageMs('10.0.0.1', 1_000_300, 1_005_300)).toBe(0);
    expect(ages.ageMs('10.0.0.1', 1_000_400, 1_005_500)).toBe(100);
  });

  it("reads a send time a second early, at the start of a second, as FreeRADIUS's two clocks make it", () => {
    const ages = new RequestAges();
    // This peer's clock runs 3 s behind ours.
    expect(ages.ageMs('fr', 1_795_791_427_500, 1_795_791_430_501)).toBe(0);
    // %c still showed second …430 when %C had wrapped: sent at …431.002, announced as …430.002.
    expect(ages.ageMs('fr', 1_795_791_427_002, 1_795_791_431_003)).toBe(0);
    // A send time in the window that is really two seconds late is still a second late.
    expect(ages.ageMs('fr', 1_795_791_426_004, 1_795_791_431_005)).toBe(1000);
    // Outside the window, a second is a second.
    expect(ages.ageMs('fr', 1_795_791_427_020, 1_795_791_431_021)).toBe(1000);
  });

  it('keeps each peer apart, whatever its clock', () => {
    const ages = new RequestAges();
    ages.ageMs('a', 1000, 1000);
    ages.ageMs('b', 1000, 61_000);
    expect(ages.ageMs('a', 2000, 2050)).toBe(50);
    expect(ages.ageMs('b', 2000, 62_000)).toBe(0);
  });

  it('forgets a baseline after one to two minutes, so a clock stepped forward is learnt again', () => {
    const ages = new RequestAges();
    ages.ageMs('a', 500, 510);
    // The peer's clock was stepped 2 s back: every request looks 2 s late, until the old minimum ages out.
    expect(ages.ageMs('a', 30_500 - 2000, 30_510)).toBe(2000);
    expect(ages.ageMs('a', 70_500 - 2000, 70_510)).toBe(2000);
    expect(ages.ageMs('a', 130_500 - 2000, 130_510)).toBe(0);
  });
});
