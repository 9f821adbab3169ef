import { Global, Module } from '@nestjs/common';
import { VenueScopeService } from '../auth/venue-scope.service.js';

/**
 * The venue rules the users' and batches' services ask for. AuthModule, which provides them to the
 * service, is not for a command (its BootstrapTokenService would store or print a token); they are
 * plain rules.
 */
@Global()
@Module({ providers: [VenueScopeService], exports: [VenueScopeService] })
export class CommandVenueScopeModule {}
