import { Module } from '@nestjs/common';
import { AccessRecordCaptureModule } from '../access-records/access-record-capture.module.js';
import { HotspotUsersModule } from '../hotspot-users/hotspot-users.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UnauthJobsModule } from '../unauth-jobs/unauth-jobs.module.js';
import { UsageController } from './usage.controller.js';
import { UsageSweeper } from './usage-sweeper.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

/** Users' usage per period, folded from the sessions' counters, and the plans' limits it enforces. */
@Module({
  imports: [AccessRecordCaptureModule, HotspotUsersModule, PlansModule, SessionsModule, UnauthJobsModule],
  controllers: [UsageController],
  providers: [UsageService, UsageRepository, UsageSweeper],
  exports: [UsageService],
})
export class UsageModule {}
