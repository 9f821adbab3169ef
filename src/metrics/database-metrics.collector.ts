import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { DatabaseService } from '../database/database.service.js';
import { HotspotMetrics } from './hotspot-metrics.js';
import { METRICS_SETTINGS, type MetricsSettings } from './metrics-settings.js';
import { MetricsRepository, type DatabaseReading } from './metrics.repository.js';
import { ageSeconds, isFresh, venueSessionSeries } from './metrics.rules.js';

/**
 * The values read from the database, read on a scrape at most once per METRICS_DATABASE_READ_SECONDS
 * in this process (concurrent scrapes share one read), never on an API request. A failed read keeps
 * the last values and sets hotspot_database_up to 0.
 */
@Injectable()
export class DatabaseMetricsCollector {
  private readonly logger = new Logger('Metrics');
  private readAt: number | null = null;
  private reading: Promise<void> | null = null;
  private failing = false;

  constructor(
    private readonly database: DatabaseService,
    private readonly repository: MetricsRepository,
    private readonly metrics: HotspotMetrics,
    private readonly clock: Clock,
    @Inject(METRICS_SETTINGS) private readonly settings: MetricsSettings,
  ) {}

  /** Called on each scrape: the pool now, and the database's values when the last read is old. */
  async collect(): Promise<void> {
    const usage = this.database.poolUsage();
    this.metrics.poolInUse.set(usage.inUse);
    this.metrics.poolWaiting.set(usage.waiting);
    if (isFresh(this.readAt, Date.now(), this.settings.databaseReadMs)) return;
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    await this.reading;
  }

  private async read(): Promise<void> {
    let reading: DatabaseReading;
    try {
      reading = await this.database.run(async (em) => ({
        venueSessions: await this.repository.venueSessions(em),
        usersByStatus: await this.repository.usersByStatus(em),
        jobs: await this.repository.jobs(em),
        oldestPending: await this.repository.oldestPending(em),
        nases: await this.repository.nases(em),
      }));
    } catch (error) {
      this.metrics.databaseUp.set(0);
      // Tried again on the next scrape, not before: an unreachable database is not read in a loop.
      this.readAt = Date.now();
      if (!this.failing) this.logger.warn(`Could not read the database for the metrics: ${messageOf(error)}`);
      this.failing = true;
      return;
    }
    this.failing = false;
    this.readAt = Date.now();
    this.apply(reading);
  }

  private apply(reading: DatabaseReading): void {
    const { metrics } = this;
    metrics.databaseUp.set(1);
    metrics.databaseReadAt.set(this.clock.now().getTime() / 1000);
    const sessions = venueSessionSeries(reading.venueSessions, this.settings.maxVenueLabels);
    metrics.sessionsActive.set(sessions.total);
    metrics.venueSessionsActive.reset();
    for (const { venueId, sessions: count } of sessions.perVenue)
      metrics.venueSessionsActive.set({ venue: venueId }, count);
    metrics.users.reset();
    for (const status of ['active', 'blocked', 'expired']) metrics.users.set({ status }, 0);
    for (const { status, users } of reading.usersByStatus) metrics.users.set({ status }, users);
    metrics.jobsWritten.reset();
    metrics.jobs.reset();
    for (const status of ['pending', 'processing', 'done', 'not-sent', 'failed']) metrics.jobs.set({ status }, 0);
    const written = new Map<string, number>();
    const byStatus = new Map<string, number>();
    for (const { reason, status, jobs } of reading.jobs) {
      written.set(reason, (written.get(reason) ?? 0) + jobs);
      byStatus.set(status, (byStatus.get(status) ?? 0) + jobs);
    }
    for (const [reason, jobs] of written) metrics.jobsWritten.set({ reason }, jobs);
    for (const [status, jobs] of byStatus) metrics.jobs.set({ status }, jobs);
    metrics.oldestPending.set(ageSeconds(reading.oldestPending, this.clock.now()));
    metrics.nasSessionsActive.reset();
    metrics.nasLastAccounting.reset();
    for (const nas of reading.nases) {
      metrics.nasSessionsActive.set({ nas: nas.name }, nas.activeSessions);
      if (nas.lastAccountingAt !== null) {
        metrics.nasLastAccounting.set({ nas: nas.name }, nas.lastAccountingAt.getTime() / 1000);
      }
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
