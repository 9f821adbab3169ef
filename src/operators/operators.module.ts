import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { FirstAdminService } from './first-admin.service.js';
import { AccountService } from './account.service.js';
import { ConsoleFormTokensRepository } from './console-form-tokens.repository.js';
import { ConsoleFormTokensService } from './console-form-tokens.service.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { EnrolmentService } from './enrolment.service.js';
import { OperatorSessionsRepository } from './operator-sessions.repository.js';
import { OperatorsRepository } from './operators.repository.js';
import { OperatorsService } from './operators.service.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { PasswordChangeService } from './password-change.service.js';
import { RecoveryCodesRepository } from './recovery-codes.repository.js';
import { SignInAudit } from './sign-in-audit.js';
import { SignInFailuresRepository } from './sign-in-failures.repository.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { SignInService } from './sign-in.service.js';

/**
 * The people who sign in to the console and how they do: accounts and the first administrator of a
 * fresh installation; passwords, one-time passwords, TOTP, recovery codes and passkeys; console
 * sessions and the one-time tokens of their forms, the sign-in slow-down and the sign-in's audit rows. The console only calls the services
 * exported here.
 */
@Module({
  imports: [AuditModule],
  providers: [
    OperatorsRepository,
    OperatorsService,
    FirstAdminService,
    OperatorSessionsRepository,
    RecoveryCodesRepository,
    PasskeysRepository,
    SignInFailuresRepository,
    ConsoleFormTokensRepository,
    ConsoleFormTokensService,
    SignInAudit,
    SignInThrottle,
    ConsoleSessionsService,
    SignInService,
    EnrolmentService,
    PasswordChangeService,
    PasskeysService,
    AccountService,
  ],
  exports: [
    OperatorsService,
    ConsoleSessionsService,
    ConsoleFormTokensService,
    SignInService,
    EnrolmentService,
    PasswordChangeService,
    PasskeysService,
    AccountService,
  ],
})
export class OperatorsModule {}
