import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { UserSessionsModule } from '../hotspot-users/user-sessions.module.js';
import { NasModule } from '../nas/nas.module.js';
import { UnauthJobsModule } from '../unauth-jobs/unauth-jobs.module.js';
import { GuestAccessModule } from '../guest-access/guest-access.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { AccountingService } from './accounting.service.js';
import { AuthorizeService } from './authorize.service.js';
import { InterimUpdateBatcher } from './interim-update-batcher.js';
import { LoginAttemptsModule } from './login-attempts.module.js';
import { RadiusNasResolver } from './radius-nas-resolver.js';
import { RadiusUsersRepository } from './radius-users.repository.js';
import { RadiusController } from './radius.controller.js';
import { StaleSessionsSweeper } from './stale-sessions.sweeper.js';

/** The FreeRADIUS back end: authorize, accounting and post-auth over rlm_rest, and the stale-session sweep. */
@Module({
  imports: [
    UserSessionsModule,
    UnauthJobsModule,
    NasModule,
    LoginAttemptsModule,
    AuditModule,
    UsageModule,
    GuestAccessModule,
  ],
  controllers: [RadiusController],
  providers: [
    AuthorizeService,
    AccountingService,
    InterimUpdateBatcher,
    RadiusUsersRepository,
    RadiusNasResolver,
    StaleSessionsSweeper,
  ],
})
export class RadiusModule {}
