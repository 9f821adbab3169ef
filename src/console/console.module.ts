import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { BatchesModule } from '../batches/batches.module.js';
import { BatchesConsoleController } from './batches.controller.js';
import { HotspotUsersModule } from '../hotspot-users/hotspot-users.module.js';
import { OperatorsModule } from '../operators/operators.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { UnauthJobCountsRepository } from '../hotspot-users/unauth-job-counts.repository.js';
import { VenueCountsRepository } from '../hotspot-users/venue-counts.repository.js';
import { LoginAttemptsModule } from '../radius/login-attempts.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { DashboardController } from './dashboard.controller.js';
import { DashboardService } from './dashboard.service.js';
import { LoginsController } from './logins.controller.js';
import { NasSettingsController } from './nas-settings.controller.js';
import { VenueSettingsController } from './venue-settings.controller.js';
import { ConsoleUsersController } from './users.controller.js';
import { AccountController } from './account.controller.js';
import { AccountService } from './account.service.js';
import { AuditController } from './audit.controller.js';
import { ConsoleController } from './console.controller.js';
import { OperatorsController } from './operators.controller.js';
import { TokensController } from './tokens.controller.js';
import { ConsolePages } from './console-page.js';
import { ConsoleNotFoundController } from './not-found.controller.js';
import { JobsController } from './jobs.controller.js';
import { OnlineController } from './online.controller.js';
import { UserPageController } from './user-page.controller.js';
import { PasswordController } from './password.controller.js';
import { ConsoleExceptionFilter } from './console-exception.filter.js';
import { ConsoleGuard } from './console.guard.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { ConsoleViews } from './console-views.js';
import { EnrolmentService } from './enrolment.service.js';
import { OperatorAccountsRepository } from './operator-accounts.repository.js';
import { OperatorSessionsRepository } from './operator-sessions.repository.js';
import { PasswordChangeService } from './password-change.service.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { SignInAudit } from './sign-in-audit.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { DeniedAccessAudit } from './denied-access-audit.js';
import { SignInFailuresRepository } from './sign-in-failures.repository.js';
import { SignInService } from './sign-in.service.js';
import { SignInThrottle } from './sign-in-throttle.js';

/** The operator console under /admin: sign-in, second factor, sessions, and its pages. */
@Module({
  imports: [
    AuditModule,
    VenuesModule,
    HotspotUsersModule,
    SessionsModule,
    LoginAttemptsModule,
    OperatorsModule,
    BatchesModule,
  ],
  // ConsoleNotFoundController stays last: its catch-all route must be registered after every page's.
  controllers: [
    ConsoleController,
    DashboardController,
    // Before UserPageController: its /admin/users/:id would take /admin/users/new.
    ConsoleUsersController,
    UserPageController,
    PasswordController,
    OnlineController,
    JobsController,
    LoginsController,
    NasSettingsController,
    VenueSettingsController,
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
    ConsoleSessionsService,
    SignInService,
    SignInThrottle,
    SignInAudit,
    EnrolmentService,
    PasswordChangeService,
    OperatorAccountsRepository,
    OperatorSessionsRepository,
    RecoveryCodesRepository,
    PasskeysRepository,
    PasskeysService,
    SignInFailuresRepository,
    DashboardService,
    VenueCountsRepository,
    UnauthJobCountsRepository,
    AccountService,
  ],
})
export class ConsoleModule {}
