import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { HotspotUsersModule } from '../hotspot-users/hotspot-users.module.js';
import { ConsoleUsersController } from './users.controller.js';
import { PasswordHasher } from '../hotspot-users/password-hasher.js';
import { ConsoleController } from './console.controller.js';
import { ConsolePages } from './console-page.js';
import { ConsoleNotFoundController } from './not-found.controller.js';
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
import { SignInFailuresRepository } from './sign-in-failures.repository.js';
import { SignInService } from './sign-in.service.js';

/** The operator console under /admin: sign-in, second factor, sessions, and its pages. */
@Module({
  imports: [AuditModule, VenuesModule, HotspotUsersModule],
  // ConsoleNotFoundController stays last: its catch-all route must be registered after every page's.
  controllers: [ConsoleController, ConsoleUsersController, ConsoleNotFoundController],
  providers: [
    ConsoleViews,
    ConsolePages,
    ConsoleGuard,
    ConsoleExceptionFilter,
    ConsoleSessionsService,
    SignInService,
    SignInAudit,
    EnrolmentService,
    PasswordChangeService,
    OperatorAccountsRepository,
    OperatorSessionsRepository,
    RecoveryCodesRepository,
    SignInFailuresRepository,
    PasswordHasher,
  ],
})
export class ConsoleModule {}
