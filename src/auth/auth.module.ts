import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiTokenService } from './api-token.service.js';
import { AuthGuard } from './auth.guard.js';
import { BootstrapTokenService } from './bootstrap-token.service.js';
import { VenueScopeService } from './venue-scope.service.js';

@Global()
@Module({
  providers: [ApiTokenService, VenueScopeService, BootstrapTokenService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [ApiTokenService, VenueScopeService],
})
export class AuthModule {}
