import { Global, Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { VENUE_PLAN_OFFERS } from '../venues/venue-plan-offers.js';
import { VenuesModule } from '../venues/venues.module.js';
import { PlansController } from './plans.controller.js';
import { PlansRepository } from './plans.repository.js';
import { PlansService } from './plans.service.js';
import { PlanOffers } from './plan-offers.js';

/**
 * Service plans: the /api/v1/plans API, the plan a login is on, and (global, as VENUE_PLAN_OFFERS)
 * the check the venue registry makes of a venue's default plan.
 */
@Global()
@Module({
  imports: [AuditModule, VenuesModule],
  controllers: [PlansController],
  providers: [PlansService, PlansRepository, PlanOffers, { provide: VENUE_PLAN_OFFERS, useExisting: PlanOffers }],
  exports: [PlansService, VENUE_PLAN_OFFERS],
})
export class PlansModule {}
