import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../common/clock.js';
import { PeriodicTask } from '../common/periodic-task.js';
import type { AppConfig, AuditConfig } from '../config/configuration.js';
import { retentionCutoff } from './audit.rules.js';
import { AuditService } from './audit.service.js';

/**
 * Every hour, in each API instance, deletes the audit events older than AUDIT_RETENTION_DAYS. Safe
 * with several instances (one conditional DELETE).
 */
@Injectable()
export class AuditRetentionSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AuditRetentionSweeper.name);
  private readonly config: AuditConfig;
  private readonly task: PeriodicTask;

  constructor(
    private readonly audit: AuditService,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.config = config.get('audit', { infer: true });
    this.task = new PeriodicTask('Audit retention sweep', async () => void (await this.sweep()), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start(this.config.pruneIntervalMs);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One sweep: how many events it deleted. */
  async sweep(): Promise<number> {
    const deleted = await this.audit.deleteOlderThan(retentionCutoff(this.clock.now(), this.config.retentionDays));
    if (deleted > 0) this.logger.log(`Deleted ${deleted} audit event(s) older than ${this.config.retentionDays} days`);
    return deleted;
  }
}
