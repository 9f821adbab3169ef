import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { UsageService } from './usage.service.js';

/**
 * Every USAGE_SWEEP_INTERVAL seconds, in every API instance: the sessions' counters folded into
 * users' usage, and the sessions of users who used up a limit of their plan ended (reason `quota`).
 */
@Injectable()
export class UsageSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly intervalMs: number;
  private readonly task: PeriodicTask;

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
  }
}
