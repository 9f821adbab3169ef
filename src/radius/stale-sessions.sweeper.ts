import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import type { AppConfig, RadiusConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { LoginAttemptsService } from './login-attempts.service.js';
import { SERVICE_TERMINATE_CAUSES } from './radius.rules.js';

/**
 * Every RADIUS_STALE_SWEEP_INTERVAL seconds: ends the accounting sessions no NAS reported on within
 * the stale window (a NAS rebooted without Accounting-On, or lost its link), and deletes login
 * attempts past their retention. Sessions the CLI started have no accounting time and are left alone.
 */
@Injectable()
export class StaleSessionsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StaleSessionsSweeper.name);
  private readonly config: RadiusConfig;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly sessions: SessionsRepository,
    private readonly loginAttempts: LoginAttemptsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.config = config.get('radius', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (this.config.staleSweepIntervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.config.staleSweepIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.running;
  }

  /** One sweep: the sessions it ended. Safe with several instances (one conditional UPDATE). */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.config.staleAfterMs);
    const ended = await this.database.transaction((em) =>
      this.sessions.endStale(em, before, SERVICE_TERMINATE_CAUSES.stale, now),
    );
    await this.loginAttempts.deleteOlderThan(new Date(now.getTime() - this.config.loginAttemptsRetentionMs));
    return ended;
  }

  /** A tick while the previous one still runs is skipped. */
  private async tick(): Promise<void> {
    if (this.running !== null) return;
    this.running = this.sweep()
      .then((count) => {
        if (count > 0) this.logger.log(`Ended ${count} stale RADIUS session(s) with no accounting update`);
      })
      .catch((error: unknown) =>
        this.logger.warn(`Stale session sweep failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
