import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EffectivePlan } from './plan-limits.js';
import { PlansRepository } from './plans.repository.js';

/** Service plans: their limits, the venues that offer them, and the plan a login is on. */
@Injectable()
export class PlansService {
  constructor(private readonly plans: PlansRepository) {}

  /**
   * The effective plan of a login, read through the caller's transaction: the user's own plan
   * (`userPlanId`), else the default plan of the venue the login comes through, else none.
   */
  effectivePlan(em: EntityManager, userPlanId: string | null, venueId: string | null): Promise<EffectivePlan | null> {
    return this.plans.findEffective(em, userPlanId, venueId);
  }
}
