import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { UnauthJobsModule } from '../unauth-jobs/unauth-jobs.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { ExpirySweeper } from './expiry-sweeper.service.js';
import { HotspotUserWriter } from './hotspot-user.writer.js';
import { HotspotUsersController } from './hotspot-users.controller.js';
import { HotspotUsersService } from './hotspot-users.service.js';
import { UnauthJobsController } from './unauth-jobs.controller.js';
import { UserAccess } from './user-access.js';
import { UserExportService } from './user-export.service.js';
import { UserUnauthJobsService } from './user-unauth-jobs.service.js';
import { UserSessionEndings } from './user-session-endings.js';
import { PortalUsersService } from './portal-users.service.js';
import { PasswordResetController } from './password-reset.controller.js';
import { PasswordResetService } from './password-reset.service.js';
import { SessionDisconnectService } from './session-disconnect.service.js';
import { UserSessionsModule } from './user-sessions.module.js';
import { VenueCountsFolder } from './venue-counts-folder.js';
import { VenueJobsRepository } from './venue-jobs.repository.js';
import { VenueCountsRepository } from './venue-counts.repository.js';
import { VenueCountsService } from './venue-counts.service.js';
import { VenueFiguresService } from './venue-figures.service.js';
import { VenueSessionsController } from './venue-sessions.controller.js';
import { VenueSessionsService } from './venue-sessions.service.js';

@Module({
  imports: [UserSessionsModule, UnauthJobsModule, IdempotencyModule, AuditModule, VenuesModule, PlansModule],
  controllers: [HotspotUsersController, UnauthJobsController, VenueSessionsController, PasswordResetController],
  providers: [
    HotspotUsersService,
    UserAccess,
    HotspotUserWriter,
    UserSessionEndings,
    ExpirySweeper,
    VenueCountsRepository,
    VenueCountsService,
    VenueCountsFolder,
    UserUnauthJobsService,
    VenueSessionsService,
    SessionDisconnectService,
    PasswordResetService,
    VenueJobsRepository,
    VenueFiguresService,
    UserExportService,
    PortalUsersService,
  ],
  // For the console's pages, which call the same use cases with the signed-in operator as the actor.
  exports: [
    HotspotUsersService,
    // For the usage API (usage/), which reads a user under the same rules as GET user.
    UserAccess,
    UserUnauthJobsService,
    VenueSessionsService,
    SessionDisconnectService,
    PasswordResetService,
    VenueFiguresService,
    UserExportService,
    // For the guest portal (guest-access/), which makes and finds its users through the same writer.
    PortalUsersService,
  ],
})
export class HotspotUsersModule {}
