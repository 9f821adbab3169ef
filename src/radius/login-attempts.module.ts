import { Module } from '@nestjs/common';
import { LoginAttemptsRepository } from './login-attempts.repository.js';
import { LoginAttemptsService } from './login-attempts.service.js';
import { RadiusUsersRepository } from './radius-users.repository.js';

/** Login attempts: recorded by post-auth, listed by `hotspot logins`, pruned by the stale-session sweep. */
@Module({
  providers: [LoginAttemptsService, LoginAttemptsRepository, RadiusUsersRepository],
  exports: [LoginAttemptsService, LoginAttemptsRepository],
})
export class LoginAttemptsModule {}
