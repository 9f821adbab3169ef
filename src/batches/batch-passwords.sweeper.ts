import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { BatchesService } from './batches.service.js';

/**
 * In each API instance, on the audit retention sweep's interval (hourly by default), erases the
 * passwords of batches whose reveal window has closed. A reveal past the window erases them too, so
 * the sweep only bounds how long an unvisited batch keeps them. Safe with several instances.
 */
@Injectable()
export class BatchPasswordsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(BatchPasswordsSweeper.name);
  private readonly intervalMs: number;
  private readonly task: PeriodicTask;

  constructor(
    private readonly batches: BatchesService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('audit', { infer: true }).pruneIntervalMs;
    this.task = new PeriodicTask('Batch passwords sweep', async () => void (await this.sweep()), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start(this.intervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  async sweep(): Promise<number> {
    const erased = await this.batches.eraseClosed();
    if (erased > 0) this.logger.log(`Erased the passwords of ${erased} batch(es) past their reveal window`);
    return erased;
  }
}
