import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { GuestAccessService } from './guest-access.service.js';

/**
 * In each API instance, on the audit retention sweep's interval (hourly by default), deletes the
 * hand-over passes expired for a while: an expired pass lets nobody in, so this only keeps the
 * table small. Safe with several instances (each deletes rows by id).
 */
@Injectable()
export class PortalPassesSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PortalPassesSweeper.name);
  private readonly intervalMs: number;
  private readonly task: PeriodicTask;

  constructor(
    private readonly guestAccess: GuestAccessService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('audit', { infer: true }).pruneIntervalMs;
    this.task = new PeriodicTask(
      'Portal passes sweep',
      async () => void (await this.guestAccess.sweepPasses()),
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.task.start(this.intervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }
}
