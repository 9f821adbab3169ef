import { Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/configuration.js';
import {
  nextShares,
  WindowedMedian,
  WindowedMinimum,
  type AdmittedShares,
  type SheddableTier,
  type SheddingThresholds,
} from './admission.rules.js';
import type { DeadlineStage } from './deadline.js';

/** How often the event loop's delay is sampled, and how often the admitted shares are worked out again. */
const SAMPLE_INTERVAL_MS = 10;
const CONTROL_INTERVAL_MS = 100;
/** The queueing delay is the smallest delay seen over this long. */
const DELAY_WINDOW_MS = 250;
/** What a shed request is told to wait before trying again (Retry-After). */
export const SHED_RETRY_AFTER_SECONDS = 1;

/** The callers whose requests can be left undone past their deadline. */
export type DeadlineCaller = 'radius' | 'api';

/** The admission's figures for the metrics. */
export interface AdmissionStats {
  queueingDelayMs: number;
  admittedShares: AdmittedShares;
  shed: Record<SheddableTier, number>;
  deadlineExpired: Array<{ caller: DeadlineCaller; stage: DeadlineStage; count: number }>;
}

/**
 * Admission before collapse: measures how long work queues in this process (the event loop's delay
 * and the wait for a database connection, each as its smallest value over the last 250 ms, and how
 * long FreeRADIUS's calls waited before being read, their median over that time) and
 * admits a falling share of the sheddable tiers while that delay stays above their thresholds
 * (admission.rules.ts): console pages and v1 lists first, then v1 writes. RADIUS is never shed for
 * load. Also counts the requests left undone because their caller had stopped waiting.
 */
@Injectable()
export class Admission implements OnApplicationShutdown {
  private readonly thresholds: SheddingThresholds;
  private readonly loopDelay = new WindowedMinimum(DELAY_WINDOW_MS);
  private readonly databaseWait = new WindowedMinimum(DELAY_WINDOW_MS);
  private readonly requestWait = new WindowedMedian(DELAY_WINDOW_MS);
  private shares: AdmittedShares = { browse: 1, change: 1 };
  private delayMs = 0;
  private readonly shed: Record<SheddableTier, number> = { browse: 0, change: 0 };
  private readonly expired = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private lastControl = 0;

  constructor(@Optional() config?: ConfigService<AppConfig, true>) {
    this.thresholds = config?.get('shedding', { infer: true }) ?? { browse: 0, change: 0 };
  }

  /** Starts measuring the event loop's delay (the HTTP service does; a command or the worker admits nothing). */
  start(): void {
    if (this.timer !== null || (this.thresholds.browse === 0 && this.thresholds.change === 0)) return;
    this.lastControl = performance.now();
    this.sample(performance.now());
  }

  onApplicationShutdown(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Whether a request of this tier is let in now. */
  admit(tier: SheddableTier): boolean {
    const share = this.shares[tier];
    if (share >= 1 || (share > 0 && Math.random() < share)) return true;
    this.shed[tier] += 1;
    return false;
  }

  /** A unit of database work waited this long for its connection. */
  databaseWaited(ms: number): void {
    this.databaseWait.add(ms, performance.now());
  }

  /**
   * A request that said when it was sent (FreeRADIUS's do) waited this long before the service read
   * it: in the kernel's socket queue and the event loop's, the queue that matters most.
   */
  requestWaited(ms: number): void {
    this.requestWait.add(ms, performance.now());
  }

  /** A request was answered 503 without its work because its caller had stopped waiting. */
  deadlineExpired(caller: DeadlineCaller, stage: DeadlineStage): void {
    const key = `${caller} ${stage}`;
    this.expired.set(key, (this.expired.get(key) ?? 0) + 1);
  }

  stats(): AdmissionStats {
    return {
      queueingDelayMs: this.delayMs,
      admittedShares: { ...this.shares },
      shed: { ...this.shed },
      deadlineExpired: [...this.expired].map(([key, count]) => {
        const [caller, stage] = key.split(' ') as [DeadlineCaller, DeadlineStage];
        return { caller, stage, count };
      }),
    };
  }

  /** One timer: each run records how late it ran, and every 100 ms the shares are worked out anew. */
  private sample(expectedAt: number): void {
    const now = performance.now();
    this.loopDelay.add(Math.max(0, now - expectedAt), now);
    if (now - this.lastControl >= CONTROL_INTERVAL_MS) {
      this.lastControl = now;
      this.delayMs = Math.max(this.loopDelay.value(now), this.databaseWait.value(now), this.requestWait.value(now));
      this.shares = nextShares(this.shares, this.delayMs, this.thresholds);
    }
    this.timer = setTimeout(() => this.sample(now + SAMPLE_INTERVAL_MS), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }
}
