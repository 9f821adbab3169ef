import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setMaxListeners } from 'node:events';
import { Clock } from '../common/clock.js';
import type { AppConfig, UnauthJobsConfig } from '../config/configuration.js';
import {
  confirmedEndCause,
  deliveryAfter,
  errorOf,
  isOpen,
  jobVerdict,
  sessionCounts,
  skippedDelivery,
  unsettledSessions,
  type Deliveries,
  type SessionDispatchResult,
} from './delivery.js';
import {
  DeliveryTimeoutError,
  UNAUTH_DISPATCHERS,
  type UnauthDispatcher,
  type UnauthJobPayload,
} from './dispatchers/unauth-dispatcher.js';
import { UNAUTH_JOBS_OBSERVER, type UnauthJobsObserver } from './unauth-jobs-observer.js';
import type { UnauthJobSession, UnauthJobStatus } from './entities/unauth-job.entity.js';
import type { ClaimedJob } from './unauth-job-rules.js';
import { UnauthJobsService } from './unauth-jobs.service.js';

/**
 * Moves unauth jobs from the outbox to the network side: claims due jobs in a short transaction,
 * dispatches them outside it, then records the outcome. Several workers (instances or
 * `npm run worker` processes) may run against one database; each job is claimed by one at a time.
 */
@Injectable()
export class UnauthJobWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(UnauthJobWorker.name);
  private readonly settings: UnauthJobsConfig;
  private readonly shutdownTimeoutMs: number;
  private readonly abort = new AbortController();
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly jobs: UnauthJobsService,
    private readonly clock: Clock,
    @Inject(UNAUTH_DISPATCHERS) private readonly dispatchers: UnauthDispatcher[],
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(UNAUTH_JOBS_OBSERVER) private readonly observer: UnauthJobsObserver | null = null,
  ) {
    this.settings = config.get('unauthJobs', { infer: true });
    this.shutdownTimeoutMs = config.get('shutdownTimeoutMs', { infer: true });
    // Every exchange under way (one per session of every job of a batch) listens to this one signal
    // and stops listening when it ends: past ten, Node would warn of a leak on stderr.
    setMaxListeners(0, this.abort.signal);
  }

  onApplicationBootstrap(): void {
    if (this.settings.workerEnabled) this.start();
  }

  start(): void {
    if (this.loop !== null) return;
    this.logger.log(`Unauth job worker started (dispatchers: ${this.dispatchers.map((d) => d.name).join(', ')})`);
    this.loop = this.run();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /**
   * Stops claiming, lets deliveries under way finish for up to half the shutdown timeout, then
   * aborts the rest, whose jobs are handed back untried for another worker; so is a job whose
   * delivery times out meanwhile, so that a receiver slow at the moment of a shutdown costs no attempt. Once: the service calls
   * it when a shutdown begins, while its HTTP requests finish, before Nest's shutdown hooks call it.
   */
  stop(): Promise<void> {
    this.stopped ??= this.drain();
    return this.stopped;
  }

  private async drain(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    const settled = Promise.all([this.loop, ...this.inFlight]);
    const patience = new Promise<void>((resolve) => setTimeout(resolve, this.shutdownTimeoutMs / 2).unref());
    await Promise.race([settled, patience]);
    this.abort.abort();
    await settled;
  }

  /** Claims and dispatches one batch. Returns how many jobs it claimed. */
  async processBatch(): Promise<number> {
    const claimed = await this.jobs.claimDue(this.clock.now(), this.settings.batchSize, this.settings.leaseMs);
    if (claimed.length === 0) return 0;
    const statuses: Partial<Record<UnauthJobStatus | 'released', number>> = {};
    const sessions: Record<string, number> = {};
    await Promise.all(
      claimed.map((job) =>
        this.track(
          this.deliver(job).then(({ status, deliveries }) => {
            statuses[status] = (statuses[status] ?? 0) + 1;
            for (const [result, count] of Object.entries(sessionCounts(deliveries))) {
              sessions[result] = (sessions[result] ?? 0) + count;
            }
          }),
        ),
      ),
    );
    this.logger.debug({ message: `Unauth job batch: ${claimed.length} job(s)`, jobs: statuses, sessions });
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.processBatch();
        this.observer?.polled();
      } catch (error) {
        this.logger.warn(`Could not claim unauth jobs: ${describe(error)}`);
      }
      // A full batch suggests more are due: go again at once. Otherwise wait (one indexed query per interval),
      // unless shutdown began during the batch: its wake-up came before this pause and would be missed.
      if (claimed < this.settings.batchSize && !this.stopping) await this.pause(this.settings.pollIntervalMs);
    }
  }

  /**
   * Runs every dispatcher whose delivery of the job is still open (in parallel), then records the
   * outcome. Per-session dispatchers get only the sessions not settled by earlier attempts, so a
   * failing webhook never resends an acknowledged Disconnect, nor the other way round; a session
   * the NAS's accounting said is over is settled as `stopped` instead of being sent.
   */
  private async deliver(job: ClaimedJob): Promise<{ status: UnauthJobStatus | 'released'; deliveries: Deliveries }> {
    const deliveries: Deliveries = { ...(job.deliveries ?? {}) };
    const payload = toPayload(job);
    const confirmed: SessionDispatchResult[] = [];
    const stopped = await this.stoppedByNas(job);
    let aborted = false;
    await Promise.all(
      this.dispatchers.map(async (dispatcher) => {
        const previous = deliveries[dispatcher.name];
        if (!isOpen(previous)) return;
        if (job.reason === 'coa' && !dispatcher.deliversCoa) {
          deliveries[dispatcher.name] = skippedDelivery('coa jobs are delivered by radius only', this.clock.now());
          this.observer?.delivered(dispatcher.name, 'skipped');
          return;
        }
        const open = dispatcher.perSession ? unsettledSessions(job.sessions, previous) : job.sessions;
        const settled = dispatcher.perSession ? open.filter((session) => stopped.has(session.id)) : [];
        const sessions = open.filter((session) => !settled.includes(session));
        let results: SessionDispatchResult[] | null;
        try {
          results =
            settled.length > 0 && sessions.length === 0
              ? []
              : ((await dispatcher.dispatch({ ...payload, sessions }, this.abort.signal)) ?? null);
          if (settled.length > 0) results = [...settled.map(stoppedResult), ...(results ?? [])];
        } catch (error) {
          if (this.abort.signal.aborted || (this.stopping && error instanceof DeliveryTimeoutError)) {
            aborted = true;
            return;
          }
          const message = describe(error);
          this.observer?.delivered(dispatcher.name, error instanceof DeliveryTimeoutError ? 'timeout' : 'error');
          this.logger.warn(
            `Unauth job ${job.id} attempt ${job.attempts} through ${dispatcher.name} failed: ${message}`,
          );
          deliveries[dispatcher.name] = deliveryAfter(previous, { error: message }, this.clock.now());
          return;
        }
        deliveries[dispatcher.name] = deliveryAfter(previous, { results }, this.clock.now());
        // A per-session dispatcher counts each session's result itself.
        if (!dispatcher.perSession) this.observer?.delivered(dispatcher.name, 'ack');
        confirmed.push(...(results ?? []));
      }),
    );
    // First, so that a job recorded done has its confirmed sessions ended here; a close that fails
    // is logged and leaves the NAS's answers to be recorded all the same.
    await this.closeConfirmed(job, confirmed);
    let status: UnauthJobStatus | 'released' = 'released';
    if (aborted) {
      await this.jobs.release(job, this.clock.now(), deliveries);
    } else {
      status = await this.jobs.recordAttempt(job, deliveries, jobVerdict(deliveries), this.clock.now(), this.settings);
      if (status !== 'done') {
        const left = status === 'failed' ? 'failed' : 'will be retried';
        this.logger.warn(`Unauth job ${job.id} ${left} after attempt ${job.attempts}: ${errorOf(deliveries) ?? ''}`);
      }
    }
    return { status, deliveries };
  }

  /**
   * Sessions a NAS confirmed over (ACK, NAK 503) end here too; a CoA changes nothing locally. A close
   * that fails is logged and left: the session is ended already when the job came from a block, expiry,
   * deletion or venue removal, and otherwise accounting's Stop or the stale sweep ends it.
   */
  private async closeConfirmed(job: ClaimedJob, results: SessionDispatchResult[]): Promise<void> {
    if (job.reason === 'coa') return;
    for (const { sessionId, result } of results) {
      const terminateCause = confirmedEndCause(result);
      if (terminateCause === null) continue;
      try {
        await this.jobs.closeDisconnected(sessionId, terminateCause, this.clock.now());
      } catch (error) {
        this.logger.warn(`Unauth job ${job.id}: could not close session ${sessionId} locally: ${describe(error)}`);
      }
    }
  }

  /**
   * The job's sessions the NAS said are over. When that cannot be read, none: the Disconnects are sent
   * as before, and a NAS without the session answers NAK 503.
   */
  private async stoppedByNas(job: ClaimedJob): Promise<Set<string>> {
    if (!this.dispatchers.some((dispatcher) => dispatcher.perSession)) return new Set();
    try {
      return new Set(await this.jobs.stoppedByNas(job.sessions.map((session) => session.id)));
    } catch (error) {
      this.logger.warn(`Unauth job ${job.id}: could not read which sessions the NAS stopped: ${describe(error)}`);
      return new Set();
    }
  }

  private track(delivery: Promise<void>): Promise<void> {
    const tracked = delivery.catch((error: unknown) =>
      this.logger.error(`Could not record an unauth job outcome: ${describe(error)}`),
    );
    this.inFlight.add(tracked);
    return tracked.finally(() => this.inFlight.delete(tracked));
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

function toPayload(job: ClaimedJob): UnauthJobPayload {
  return {
    jobId: job.id,
    userId: job.userId,
    username: job.username,
    reason: job.reason,
    sessions: job.sessions,
    ...(job.reason === 'coa' ? { expiresAt: job.expiresAt?.toISOString() ?? null } : {}),
    attempt: job.attempts,
    createdAt: job.createdAt.toISOString(),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A session the NAS's accounting said is over: settled without a request. */
function stoppedResult(session: UnauthJobSession): SessionDispatchResult {
  return {
    sessionId: session.id,
    result: 'stopped',
    errorCause: null,
    detail: 'the NAS reported the session over (accounting) before a request reached it',
    nas: session.nasId,
  };
}
