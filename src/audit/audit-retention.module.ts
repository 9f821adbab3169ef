import { Module } from '@nestjs/common';
import { AuditRetentionSweeper } from './audit-retention.sweeper.js';
import { AuditModule } from './audit.module.js';

/** The retention sweep: API instances import it, commands and the worker do not. */
@Module({ imports: [AuditModule], providers: [AuditRetentionSweeper] })
export class AuditRetentionModule {}
