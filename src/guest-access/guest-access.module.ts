import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { HotspotUsersModule } from '../hotspot-users/hotspot-users.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { GuestAccessRepository } from './guest-access.repository.js';
import { GuestAccessService } from './guest-access.service.js';
import { VenuePortalsService } from './venue-portals.service.js';

/**
 * The guest portal's domain: each venue's portal settings, the ways in (admissions making or finding
 * users), terms acceptances and the hand-over's one-time passes (which RADIUS authorize checks).
 */
@Module({
  imports: [AuditModule, HotspotUsersModule, PlansModule],
  providers: [GuestAccessService, VenuePortalsService, GuestAccessRepository],
  exports: [GuestAccessService, VenuePortalsService],
})
export class GuestAccessModule {}
