import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig, UnauthJobsConfig } from '../config/configuration.js';
import { UNAUTH_DISPATCHER, type UnauthDispatcher, type UnauthJobPayload } from './dispatchers/unauth-dispatcher.js';
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
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly jobs: UnauthJobsService,
    private readonly clock: Clock,
    @Inject(UNAUTH_DISPATCHER) private readonly dispatcher: UnauthDispatcher,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('unauthJobs', { infer: true });
    this.shutdownTimeoutMs = config.get('shutdownTimeoutMs', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (this.settings.workerEnabled) this.start();
  }

  start(): void {
    if (this.loop !== null) return;
    this.logger.log(`Unauth job worker started (dispatcher: ${this.dispatcher.name})`);
    this.loop = this.run();
  }

  /**
   * Stops claiming, lets deliveries under way finish for up to half the shutdown timeout, then
   * aborts the rest, whose jobs are handed back untried for another worker.
   */
  async beforeApplicationShutdown(): Promise<void> {
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
    await Promise.all(claimed.map((job) => this.track(this.deliver(job))));
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.processBatch();
      } catch (error) {
        this.logger.warn(`Could not claim unauth jobs: ${describe(error)}`);
      }
      // A full batch suggests more are due: go again at once. Otherwise wait (one indexed query per interval),
      // unless shutdown began during the batch: its wake-up came before this pause and would be missed.
      if (claimed < this.settings.batchSize && !this.stopping) await this.pause(this.settings.pollIntervalMs);
    }
  }

  private async deliver(job: ClaimedJob): Promise<void> {
    try {
      await this.dispatcher.dispatch(toPayload(job), this.abort.signal);
    } catch (error) {
      if (this.abort.signal.aborted) {
        await this.jobs.release(job, this.clock.now());
        return;
      }
      const message = describe(error);
      this.logger.warn(`Unauth job ${job.id} attempt ${job.attempts} failed: ${message}`);
      await this.jobs.markFailed(job, message, this.clock.now(), this.settings);
      return;
    }
    await this.jobs.markDone(job, this.clock.now());
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
    attempt: job.attempts,
    createdAt: job.createdAt.toISOString(),
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
