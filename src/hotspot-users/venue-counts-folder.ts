import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { VenueCountsService } from './venue-counts.service.js';

/** Folds the venue counters' pending changes into them every countFoldIntervalMs, in every API instance. */
@Injectable()
export class VenueCountsFolder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly intervalMs: number;
  private readonly task: PeriodicTask;

  constructor(counts: VenueCountsService, config: ConfigService<AppConfig, true>) {
    this.intervalMs = config.get('countFoldIntervalMs', { infer: true });
    this.task = new PeriodicTask(
      'Folding the venue counters',
      async () => {
        await counts.fold();
      },
      new Logger(VenueCountsFolder.name),
    );
  }

  onApplicationBootstrap(): void {
    this.task.start(this.intervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }
}
