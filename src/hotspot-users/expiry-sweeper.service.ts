import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { HotspotUsersService } from './hotspot-users.service.js';

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
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly users: HotspotUsersService,
    private readonly idempotency: IdempotencyService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('expirySweepIntervalMs', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.running;
  }

  /** One sweep; a tick while the previous one still runs is skipped. */
  private async tick(): Promise<void> {
    if (this.running !== null) return;
    this.running = this.users
      .expireDue(SWEEP_BATCH_SIZE)
      .then(async (count) => {
        if (count > 0) this.logger.log(`Expired ${count} user(s) whose expiresAt had passed`);
        await this.idempotency.forgetExpired(KEY_SWEEP_BATCH_SIZE);
      })
      .catch((error: unknown) =>
        this.logger.warn(`Expiry sweep failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
