import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { BatchesModule } from '../batches/batches.module.js';
import { BatchesConsoleController } from './batches/batches.controller.js';
import { HotspotUsersModule } from '../hotspot-users/hotspot-users.module.js';
import { OperatorsModule } from '../operators/operators.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { LoginAttemptsModule } from '../radius/login-attempts.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { DashboardController } from './dashboard/dashboard.controller.js';
import { DashboardService } from './dashboard/dashboard.service.js';
import { LoginsController } from './logins/logins.controller.js';
import { NasSettingsController } from './settings/nas/nas-settings.controller.js';
import { GuestAccessModule } from '../guest-access/guest-access.module.js';
import { VenueSettingsController } from './settings/venues/venue-settings.controller.js';
import { VenuePortalSettingsController } from './settings/venues/venue-portal.controller.js';
import { PlansSettingsController } from './settings/plans/plans-settings.controller.js';
import { ConsoleUsersController } from './users/users.controller.js';
import { AccountController } from './account/account.controller.js';
import { AuditController } from './audit/audit.controller.js';
import { SignInController } from './sign-in/sign-in.controller.js';
import { ShellController } from './shell/shell.controller.js';
import { OperatorsController } from './settings/operators/operators.controller.js';
import { TokensController } from './settings/tokens/tokens.controller.js';
import { ConsolePages } from './console-page.js';
import { ConsoleNotFoundController } from './not-found.controller.js';
import { JobsController } from './jobs/jobs.controller.js';
import { OnlineController } from './online/online.controller.js';
import { UserPageController } from './user-page/user-page.controller.js';
import { PasswordController } from './guest-password/guest-password.controller.js';
import { GuestSlipController } from './guest-slip/guest-slip.controller.js';
import { ConsoleExceptionFilter } from './console-exception.filter.js';
import { ConsoleGuard } from './console.guard.js';
import { ConsoleViews } from './console-views.js';
import { DeniedAccessAudit } from './denied-access-audit.js';
import { DisconnectBanner } from './network/disconnect-banner.js';

/** The operator console under /admin: its pages, which call the features' services (sign-in: OperatorsModule). */
@Module({
  imports: [
    AuditModule,
    VenuesModule,
    HotspotUsersModule,
    SessionsModule,
    LoginAttemptsModule,
    OperatorsModule,
    BatchesModule,
    UsageModule,
    GuestAccessModule,
  ],
  // ConsoleNotFoundController stays last: its catch-all route must be registered after every page's.
  controllers: [
    ShellController,
    SignInController,
    DashboardController,
    // Before UserPageController: its /admin/users/:id would take /admin/users/new.
    ConsoleUsersController,
    UserPageController,
    PasswordController,
    GuestSlipController,
    OnlineController,
    JobsController,
    LoginsController,
    NasSettingsController,
    VenueSettingsController,
    VenuePortalSettingsController,
    PlansSettingsController,
    TokensController,
    OperatorsController,
    AuditController,
    AccountController,
    BatchesConsoleController,
    ConsoleNotFoundController,
  ],
  providers: [
    ConsoleViews,
    ConsolePages,
    ConsoleGuard,
    ConsoleExceptionFilter,
    DeniedAccessAudit,
    DashboardService,
    DisconnectBanner,
  ],
})
export class ConsoleModule {}
