import { Module } from '@nestjs/common';
import { UsageSweeper } from './usage-sweeper.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

/** Users' usage per period, folded from the sessions' counters, and the plans' limits it enforces. */
@Module({
  providers: [UsageService, UsageRepository, UsageSweeper],
  exports: [UsageService],
})
export class UsageModule {}
