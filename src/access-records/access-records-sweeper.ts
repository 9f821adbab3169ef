import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig } from '../config/configuration.js';
import { AccessRecordCapture } from './access-record-capture.service.js';
import { AccessRecordsService } from './access-records.service.js';

/** Old records are deleted at most this often (and at the first sweep). */
const FORGET_INTERVAL_MS = 3_600_000;
/** Finished days are sealed and exported at most this often (and at the first sweep): once a day is due. */
const EXPORT_INTERVAL_MS = 15 * 60_000;

/**
 * Every RECORDS_SWEEP_INTERVAL seconds, in every API instance: the records of sessions this
 * service ended captured; with RECORDS_EXPORT_DIR, every 15 minutes, the finished days sealed and
 * written there (the whole retention period checked at the first sweep, the last days after);
 * hourly, the records and days past RECORDS_KEPT_DAYS deleted.
 */
@Injectable()
export class AccessRecordsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly intervalMs: number;
  private readonly exportDir: string | null;
  private readonly task: PeriodicTask;
  private readonly logger = new Logger(AccessRecordsSweeper.name);
  /** When old records were last deleted (0: not yet in this process). */
  private forgotAt = 0;
  /** When days were last sealed and exported (0: not yet in this process). */
  private exportedAt = 0;

  constructor(
    private readonly capture: AccessRecordCapture,
    private readonly records: AccessRecordsService,
    config: ConfigService<AppConfig, true>,
  ) {
    const settings = config.get('records', { infer: true });
    this.intervalMs = settings.sweepIntervalMs;
    this.exportDir = settings.exportDir;
    this.task = new PeriodicTask('Records sweep', () => this.sweep(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start(this.intervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  async sweep(): Promise<void> {
    await this.capture.captureEnded();
    const now = Date.now();
    if (this.exportDir !== null && now - this.exportedAt >= EXPORT_INTERVAL_MS) {
      const written = await this.records.exportDue(this.exportDir, this.exportedAt === 0 ? 'kept' : 'recent');
      this.exportedAt = now;
      if (written.length > 0) this.logger.log(`Records: ${written.length} day file(s) written to ${this.exportDir}`);
    }
    if (now - this.forgotAt < FORGET_INTERVAL_MS) return;
    this.forgotAt = now;
    await this.records.forget();
  }
}
