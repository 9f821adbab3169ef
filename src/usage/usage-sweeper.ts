import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { UsageService } from './usage.service.js';

/** Old days' usage is deleted at most this often (and at the first sweep). */
const FORGET_INTERVAL_MS = 3_600_000;

/**
 * Every USAGE_SWEEP_INTERVAL seconds, in every API instance: the sessions' counters folded into
 * users' usage, and the sessions of users who used up a limit of their plan ended (reason `quota`);
 * hourly, the days' usage older than DAY_USAGE_KEPT_DAYS deleted.
 */
@Injectable()
export class UsageSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly intervalMs: number;
  private readonly task: PeriodicTask;
  /** When old days' usage was last deleted (0: not yet in this process). */
  private forgotAt = 0;

  constructor(
    private readonly usage: UsageService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('usageSweepIntervalMs', { infer: true });
    this.task = new PeriodicTask('Usage sweep', () => this.sweep(), new Logger(UsageSweeper.name));
  }

  onApplicationBootstrap(): void {
    this.task.start(this.intervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  async sweep(): Promise<void> {
    await this.usage.sweep();
    const now = Date.now();
    if (now - this.forgotAt < FORGET_INTERVAL_MS) return;
    this.forgotAt = now;
    await this.usage.forgetOldDays();
  }
}
