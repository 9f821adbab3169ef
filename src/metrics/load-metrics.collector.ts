import { Injectable } from '@nestjs/common';
import type { Counter, LabelValues } from 'prom-client';
import { Admission } from '../common/load/admission.js';
import type { DeadlineStage } from '../common/load/deadline.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { HotspotMetrics } from './hotspot-metrics.js';

const STAGES: readonly DeadlineStage[] = ['admission', 'database', 'argon2'];

/**
 * The work classes' and the admission's figures, copied into the registry on each scrape: they are
 * counted in memory where the work happens (plain numbers, no I/O), so watching costs nothing.
 */
@Injectable()
export class LoadMetricsCollector {
  constructor(
    private readonly metrics: HotspotMetrics,
    private readonly passwords: PasswordHasher,
    private readonly admission: Admission,
  ) {}

  collect(): void {
    const { metrics } = this;
    for (const stats of this.passwords.stats()) {
      const labels = { class: stats.name };
      metrics.workSlots.set(labels, stats.slots);
      metrics.workRunning.set(labels, stats.running);
      metrics.workWaiting.set(labels, stats.waiting);
      setCounter(metrics.workStarted, labels, stats.started);
      setCounter(metrics.workWaited, labels, stats.waitedSeconds);
      for (const reason of ['busy', 'deadline'] as const)
        setCounter(metrics.workRejected, { ...labels, reason }, stats.refused[reason]);
    }
    const admission = this.admission.stats();
    metrics.queueingDelay.set(admission.queueingDelayMs / 1000);
    for (const tier of ['browse', 'change'] as const) {
      metrics.admittedShare.set({ tier }, admission.admittedShares[tier]);
      setCounter(metrics.shed, { tier }, admission.shed[tier]);
    }
    // Every series present from the first scrape, so that rates over them exist before the first event.
    for (const caller of ['radius', 'api'] as const)
      for (const stage of STAGES) setCounter(metrics.deadlineExpired, { caller, stage }, 0);
    for (const { caller, stage, count } of admission.deadlineExpired)
      setCounter(metrics.deadlineExpired, { caller, stage }, count);
  }
}

/** A counter kept elsewhere as a running total: the registry's copy set to it (it only ever grows). */
function setCounter<T extends string>(counter: Counter<T>, labels: LabelValues<T>, total: number): void {
  counter.remove(labels);
  counter.inc(labels, total);
}
