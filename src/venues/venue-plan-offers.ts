import type { EntityManager } from 'typeorm';

/**
 * Whether a plan may be a venue's default plan. The plans module (above this one) provides it
 * (token VENUE_PLAN_OFFERS), so the registry checks a default plan in its own transaction without
 * importing plans.
 */
export interface VenuePlanOffers {
  /** Why `planId` cannot be the default plan of `venueId` (no such plan, not offered there), or null. */
  defaultPlanProblem(em: EntityManager, venueId: string, planId: string): Promise<string | null>;
}

export const VENUE_PLAN_OFFERS = Symbol('VENUE_PLAN_OFFERS');
