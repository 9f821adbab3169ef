/**
 * Who is turned away first when the service is saturated, in this fixed order:
 * - `browse`: console pages and v1 lists (and the API's documentation), shed first;
 * - `change`: v1 writes, single-record reads and console form posts, shed only once every `browse`
 *   request already is;
 * - `radius`: FreeRADIUS's logins and accounting, never shed for load: only a request whose caller
 *   has stopped waiting is left undone;
 * - `probe`: health checks, always answered.
 */
export type AdmissionTier = 'browse' | 'change' | 'radius' | 'probe';

/** The tiers load can shed, in the order it sheds them. */
export const SHEDDABLE_TIERS = ['browse', 'change'] as const;
export type SheddableTier = (typeof SHEDDABLE_TIERS)[number];

const CONSOLE_PREFIX = '/admin';
const API_V1_PREFIX = '/api/v1/';

export function admissionTierOf(method: string, path: string): AdmissionTier {
  if (path.startsWith('/radius/')) return 'radius';
  if (path === '/healthz' || path === '/readyz') return 'probe';
  const reading = method === 'GET' || method === 'HEAD';
  if (path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`)) return reading ? 'browse' : 'change';
  if (!reading) return 'change';
  if (!path.startsWith(API_V1_PREFIX)) return 'browse';
  // /api/v1/<collection>/<id> is one record; the collection itself, and anything below a record
  // (its sessions, jobs, a batch's cards), is a list.
  const segments = path
    .slice(API_V1_PREFIX.length)
    .split('/')
    .filter((segment) => segment !== '');
  return segments.length === 2 ? 'change' : 'browse';
}

/** The admission's settings: the queueing delay (ms) above which each tier starts being shed; 0: never. */
export interface SheddingThresholds {
  browse: number;
  change: number;
}

/** The share of each sheddable tier admitted now (1: all, 0: none). */
export type AdmittedShares = Record<SheddableTier, number>;

/** Each step of 100 ms above its threshold halves a tier's admitted share, down to none in about 0.7 s. */
const DECREASE_FACTOR = 0.5;
/** Below it, a share grows back by a tenth per step: all admitted again about a second later. */
const RECOVERY_STEP = 0.1;
const NONE_BELOW = 0.02;

/**
 * One control step: the admitted shares after a measured queueing delay. A tier's share falls while
 * the delay stays above its threshold and recovers while it is below; `change` falls only once
 * `browse` is shed entirely, so the order holds whatever the thresholds.
 */
export function nextShares(shares: AdmittedShares, delayMs: number, thresholds: SheddingThresholds): AdmittedShares {
  const over = (tier: SheddableTier) => thresholds[tier] > 0 && delayMs > thresholds[tier];
  const decreased = (share: number) => (share * DECREASE_FACTOR < NONE_BELOW ? 0 : share * DECREASE_FACTOR);
  const recovered = (share: number) => Math.min(1, Math.round((share + RECOVERY_STEP) * 1000) / 1000);
  const browse = over('browse') ? decreased(shares.browse) : recovered(shares.browse);
  let change: number;
  if (!over('change')) change = recovered(shares.change);
  else if (browse === 0 || thresholds.browse === 0) change = decreased(shares.change);
  else change = shares.change;
  return { browse, change };
}

/**
 * The smallest sample of the last `windowMs`: a queue that stays long, not one slow moment (a
 * garbage collection, one big page), is what the minimum shows. Samples land in four buckets.
 */
export class WindowedMinimum {
  private readonly bucketMs: number;
  private readonly minima = new Float64Array(4).fill(Number.POSITIVE_INFINITY);
  private readonly starts = new Float64Array(4).fill(Number.NEGATIVE_INFINITY);

  constructor(windowMs: number) {
    this.bucketMs = windowMs / 4;
  }

  add(value: number, now: number): void {
    const start = Math.floor(now / this.bucketMs) * this.bucketMs;
    const index = Math.floor(now / this.bucketMs) % 4;
    if (this.starts[index] !== start) {
      this.starts[index] = start;
      this.minima[index] = value;
    } else if (value < this.minima[index]) {
      this.minima[index] = value;
    }
  }

  /** The minimum over the window ending at `now`; 0 when nothing was sampled in it. */
  value(now: number): number {
    let minimum = Number.POSITIVE_INFINITY;
    for (let index = 0; index < 4; index += 1) {
      if (now - this.starts[index] < 4 * this.bucketMs && this.minima[index] < minimum) minimum = this.minima[index];
    }
    return minimum === Number.POSITIVE_INFINITY ? 0 : minimum;
  }
}

/**
 * The median of the samples of the last `windowMs` (0 with none). For waits that are not one line:
 * FreeRADIUS's calls come over many connections, and the service reads some at once while others
 * wait in the kernel; the quickest would hide that backlog, the median shows it.
 */
export class WindowedMedian {
  private values: number[] = [];
  private times: number[] = [];
  private head = 0;

  constructor(private readonly windowMs: number) {}

  add(value: number, now: number): void {
    this.values.push(value);
    this.times.push(now);
    this.forget(now);
  }

  value(now: number): number {
    this.forget(now);
    if (this.head === this.values.length) return 0;
    const sorted = Float64Array.from(this.values.slice(this.head)).sort();
    return sorted[Math.floor((sorted.length - 1) / 2)];
  }

  /** Drops the samples older than the window (the arrays are trimmed now and then, so each sample costs O(1)). */
  private forget(now: number): void {
    while (this.head < this.times.length && now - this.times[this.head] >= this.windowMs) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.values = this.values.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}
