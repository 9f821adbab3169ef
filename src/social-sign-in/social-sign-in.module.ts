import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { OpenIdClients } from './openid-clients.js';
import { SocialProvidersService } from './social-providers.service.js';
import { SocialSignInRepository } from './social-sign-in.repository.js';
import { SocialSignInService } from './social-sign-in.service.js';

/** Social sign-in: the registry of OpenID providers, and the sign-in the guest portal runs with them. */
@Module({
  imports: [AuditModule, VenuesModule],
  providers: [SocialProvidersService, SocialSignInService, SocialSignInRepository, OpenIdClients],
  exports: [SocialProvidersService, SocialSignInService],
})
export class SocialSignInModule {}
