import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { VenuePlanOffers } from '../venues/venue-plan-offers.js';
import { venuesNotOffered } from './plan.rules.js';
import { PlansRepository } from './plans.repository.js';

/**
 * Whether a plan may serve venues: it exists and each of them offers it. Read in share mode, so a
 * change or delete of the plan waits for the transaction that puts a user, batch or venue on it.
 * The venue registry asks it about a default plan (VENUE_PLAN_OFFERS).
 */
@Injectable()
export class PlanOffers implements VenuePlanOffers {
  constructor(private readonly plans: PlansRepository) {}

  /** Why the plan `planId` cannot serve `venueIds`, or null. */
  async problem(em: EntityManager, planId: string, venueIds: readonly string[]): Promise<string | null> {
    const stored = await this.plans.findById(em, planId, 'share');
    if (stored === null) return `plan ${planId} does not exist`;
    const missing = venuesNotOffered(stored.venueIds, venueIds);
    return missing.length === 0 ? null : `plan ${planId} is not offered in venue ${missing.join(', ')}`;
  }

  defaultPlanProblem(em: EntityManager, venueId: string, planId: string): Promise<string | null> {
    return this.problem(em, planId, [venueId]);
  }
}
