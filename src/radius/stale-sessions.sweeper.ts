import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig, RadiusConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { LoginAttemptsService } from './login-attempts.service.js';
import { SERVICE_TERMINATE_CAUSES } from './radius.rules.js';
import { RADIUS_OBSERVER, type RadiusObserver } from './radius-observer.js';

/**
 * Every RADIUS_STALE_SWEEP_INTERVAL seconds: ends the accounting sessions no NAS reported on within
 * the stale window (a NAS rebooted without Accounting-On, or lost its link), stops waiting for the
 * NAS to confirm the Disconnect of sessions ended here and silent as long (Online now lets them go),
 * and deletes login attempts past their retention. Sessions the CLI started have no accounting time and are left alone.
 */
@Injectable()
export class StaleSessionsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StaleSessionsSweeper.name);
  private readonly config: RadiusConfig;
  private readonly task: PeriodicTask;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly sessions: SessionsRepository,
    private readonly loginAttempts: LoginAttemptsService,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(RADIUS_OBSERVER) private readonly observer: RadiusObserver | null = null,
  ) {
    this.config = config.get('radius', { infer: true });
    this.task = new PeriodicTask(
      'Stale session sweep',
      async () => {
        const count = await this.sweep();
        if (count > 0) this.logger.log(`Ended ${count} stale RADIUS session(s) with no accounting update`);
      },
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.task.start(this.config.staleSweepIntervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One sweep: the sessions it ended. Safe with several instances (one conditional UPDATE). */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.config.staleAfterMs);
    const ended = await this.database.transaction(async (em) => {
      // A Disconnect never confirmed, of a session its NAS has said nothing of since: over, as an active one is.
      await this.sessions.clearStaleDisconnecting(em, before);
      return this.sessions.endStale(em, before, SERVICE_TERMINATE_CAUSES.stale, now);
    });
    this.observer?.staleSessionsEnded(ended);
    await this.loginAttempts.deleteOlderThan(new Date(now.getTime() - this.config.loginAttemptsRetentionMs));
    return ended;
  }
}
