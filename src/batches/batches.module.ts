import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { BatchesController } from './batches.controller.js';
import { BatchesRepository } from './batches.repository.js';
import { BatchesService } from './batches.service.js';

/** Batches of generated accounts: the v1 addition, and the service the console and the CLI call. */
@Module({
  imports: [AuditModule, IdempotencyModule, VenuesModule, PlansModule],
  controllers: [BatchesController],
  providers: [BatchesService, BatchesRepository],
  exports: [BatchesService],
})
export class BatchesModule {}
