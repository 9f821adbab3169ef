import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { HotspotUsersService } from './hotspot-users.service.js';
import { EXPIRY_OBSERVER, type ExpiryObserver } from './expiry-observer.js';

/** Users expired per transaction round; a long backlog is worked through on the next ticks. */
const SWEEP_BATCH_SIZE = 100;
/** Idempotency-Keys deleted per tick: more than a busy integrator creates in one interval. */
const KEY_SWEEP_BATCH_SIZE = 500;

/**
 * Every EXPIRY_SWEEP_INTERVAL seconds, expires the users whose expiresAt has passed, and deletes
 * Idempotency-Keys older than 24 hours (requests ignore those anyway).
 */
@Injectable()
export class ExpirySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ExpirySweeper.name);
  private readonly intervalMs: number;
  private readonly task: PeriodicTask;

  constructor(
    private readonly users: HotspotUsersService,
    private readonly idempotency: IdempotencyService,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(EXPIRY_OBSERVER) private readonly observer: ExpiryObserver | null = null,
  ) {
    this.intervalMs = config.get('expirySweepIntervalMs', { infer: true });
    this.task = new PeriodicTask('Expiry sweep', () => this.sweep(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start(this.intervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  private async sweep(): Promise<void> {
    const count = await this.users.expireDue(SWEEP_BATCH_SIZE);
    this.observer?.expirySweepRan(count);
    if (count > 0) this.logger.log(`Expired ${count} user(s) whose expiresAt had passed`);
    await this.idempotency.forgetExpired(KEY_SWEEP_BATCH_SIZE);
  }
}
