import {
  admissionTierOf,
  nextShares,
  WindowedMedian,
  WindowedMinimum,
  type AdmittedShares,
} from './admission.rules.js';

describe('admissionTierOf', () => {
  it.each([
    ['POST', '/radius/authorize', 'radius'],
    ['POST', '/radius/accounting', 'radius'],
    ['GET', '/healthz', 'probe'],
    ['GET', '/readyz', 'probe'],
    ['GET', '/admin', 'browse'],
    ['GET', '/admin/users', 'browse'],
    ['POST', '/admin/users/new', 'change'],
    ['POST', '/admin/login', 'change'],
    ['GET', '/api/v1/hotspot-users', 'browse'],
    ['GET', '/api/v1/hotspot-users/', 'browse'],
    ['GET', '/api/v1/sessions', 'browse'],
    ['GET', '/api/v1/hotspot-users/01ABC/sessions', 'browse'],
    ['GET', '/api/v1/hotspot-user-batches/01ABC/cards', 'browse'],
    ['GET', '/api/docs', 'browse'],
    ['GET', '/api/v1/hotspot-users/01ABC', 'change'],
    ['GET', '/api/v1/unauth-jobs/01ABC', 'change'],
    ['HEAD', '/api/v1/hotspot-users/01ABC', 'change'],
    ['POST', '/api/v1/hotspot-users', 'change'],
    ['PUT', '/api/v1/hotspot-users/01ABC', 'change'],
    ['DELETE', '/api/v1/hotspot-users/01ABC', 'change'],
    ['POST', '/api/v1/hotspot-user-batches', 'change'],
  ])('%s %s is %s', (method, path, tier) => {
    expect(admissionTierOf(method, path)).toBe(tier);
  });
});

describe('nextShares', () => {
  const thresholds = { browse: 20, change: 50 };
  const all: AdmittedShares = { browse: 1, change: 1 };

  it('admits everything while the delay stays under both thresholds', () => {
    expect(nextShares(all, 5, thresholds)).toEqual(all);
  });

  it('sheds pages and lists first: writes fall only once every page is shed', () => {
    let shares = all;
    const seen: AdmittedShares[] = [];
    for (let step = 0; step < 12; step += 1) {
      shares = nextShares(shares, 200, thresholds);
      seen.push(shares);
    }
    for (const step of seen) if (step.change < 1) expect(step.browse).toBe(0);
    expect(seen[0]).toEqual({ browse: 0.5, change: 1 });
    expect(shares).toEqual({ browse: 0, change: 0 });
  });

  it('between the thresholds only pages and lists are shed', () => {
    let shares = all;
    for (let step = 0; step < 20; step += 1) shares = nextShares(shares, 30, thresholds);
    expect(shares).toEqual({ browse: 0, change: 1 });
  });

  it('recovers a tenth per step once the delay is back under', () => {
    let shares: AdmittedShares = { browse: 0, change: 0 };
    shares = nextShares(shares, 1, thresholds);
    expect(shares).toEqual({ browse: 0.1, change: 0.1 });
    for (let step = 0; step < 9; step += 1) shares = nextShares(shares, 1, thresholds);
    expect(shares).toEqual(all);
  });

  it('a threshold of 0 never sheds its tier; writes then fall without waiting for pages', () => {
    expect(nextShares(all, 10_000, { browse: 0, change: 0 })).toEqual(all);
    expect(nextShares(all, 10_000, { browse: 0, change: 50 })).toEqual({ browse: 1, change: 0.5 });
  });
});

describe('WindowedMinimum', () => {
  it('is the smallest sample of the last window, 0 with none', () => {
    const minimum = new WindowedMinimum(200);
    expect(minimum.value(1000)).toBe(0);
    minimum.add(30, 1000);
    minimum.add(80, 1060);
    minimum.add(50, 1120);
    expect(minimum.value(1150)).toBe(30);
    // The 30 ages out of the window; the 50 and 80 remain.
    expect(minimum.value(1205)).toBe(50);
    expect(minimum.value(1500)).toBe(0);
  });

  it('one short sample among long ones pulls it down: a queue, not a moment', () => {
    const minimum = new WindowedMinimum(250);
    for (let at = 0; at < 250; at += 10) minimum.add(at === 120 ? 1 : 90, at);
    expect(minimum.value(249)).toBe(1);
  });
});

describe('WindowedMedian', () => {
  it('is the median of the last window, so a backlog shows though some calls were quick', () => {
    const median = new WindowedMedian(250);
    expect(median.value(0)).toBe(0);
    for (const [value, at] of [
      [2, 0],
      [300, 10],
      [400, 20],
      [1, 30],
      [350, 40],
    ])
      median.add(value, at);
    expect(median.value(50)).toBe(300);
    median.add(5, 260);
    // The samples of 0 and 10 ms have left the window.
    expect(median.value(265)).toBe(5);
    expect(median.value(600)).toBe(0);
  });
});
