import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { VenueCountsService } from './venue-counts.service.js';

/** Folds the venue counters' pending changes into them every countFoldIntervalMs, in every API instance. */
@Injectable()
export class VenueCountsFolder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(VenueCountsFolder.name);
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly counts: VenueCountsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.intervalMs = config.get('countFoldIntervalMs', { infer: true });
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

  /** One fold; a tick while the previous one still runs is skipped. */
  private async tick(): Promise<void> {
    if (this.running !== null) return;
    this.running = this.counts
      .fold()
      .then(() => undefined)
      .catch((error: unknown) =>
        this.logger.warn(
          `Folding the venue counters failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
