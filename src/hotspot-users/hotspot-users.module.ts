import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UnauthJobsModule } from '../unauth-jobs/unauth-jobs.module.js';
import { ExpirySweeper } from './expiry-sweeper.service.js';
import { HotspotUsersController } from './hotspot-users.controller.js';
import { HotspotUsersService } from './hotspot-users.service.js';
import { PasswordHasher } from './password-hasher.js';

@Module({
  imports: [SessionsModule, UnauthJobsModule],
  controllers: [HotspotUsersController],
  providers: [HotspotUsersService, PasswordHasher, ExpirySweeper],
})
export class HotspotUsersModule {}
