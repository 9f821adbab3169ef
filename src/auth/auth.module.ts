import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditModule } from '../audit/audit.module.js';
import { ApiTokenRepository } from './api-token.repository.js';
import { ApiTokenService } from './api-token.service.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { BootstrapTokenService } from './bootstrap-token.service.js';
import { PermissionGuard } from './permission.guard.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimiterService } from './rate-limit/rate-limiter.service.js';
import { VenueScopeService } from './venue-scope.service.js';

/**
 * The global guards run in the order listed: who is calling, then the rate limit (per token, or per
 * IP for callers without a valid token), then 401/403.
 */
@Global()
@Module({
  imports: [AuditModule],
  providers: [
    ApiTokenRepository,
    ApiTokenService,
    RateLimiterService,
    VenueScopeService,
    BootstrapTokenService,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [ApiTokenService, VenueScopeService, RateLimiterService],
})
export class AuthModule {}
