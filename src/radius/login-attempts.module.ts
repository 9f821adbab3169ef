import { Module } from '@nestjs/common';
import { LoginAttemptWriter } from './login-attempt-writer.js';
import { LoginAttemptsRepository } from './login-attempts.repository.js';
import { LoginDecisions } from './login-decisions.js';
import { LoginAttemptsService } from './login-attempts.service.js';
import { RadiusUsersRepository } from './radius-users.repository.js';

/** Login attempts: recorded by post-auth, listed by `hotspot logins`, pruned by the stale-session sweep. */
@Module({
  providers: [LoginAttemptsService, LoginAttemptsRepository, RadiusUsersRepository, LoginAttemptWriter, LoginDecisions],
  exports: [LoginAttemptsService, LoginAttemptsRepository, LoginDecisions],
})
export class LoginAttemptsModule {}
