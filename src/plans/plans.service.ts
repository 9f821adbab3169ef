import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { actorOf, type AuditOrigin } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { Clock } from '../common/clock.js';
import { ApiError, ERROR_MESSAGES } from '../common/errors/api-error.js';
import { newId } from '../common/ids.js';
import { uniqueVenueIds } from '../common/validation/normalise.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { RegisteredVenuesCheck } from '../venues/registered-venues-check.js';
import type { PlanDto } from './dto/plan.response.js';
import { PlanEntity } from './entities/plan.entity.js';
import type { EffectivePlan } from './plan-limits.js';
import { toPlanDto } from './plan.mapper.js';
import { PlanOffers } from './plan-offers.js';
import * as rules from './plan.rules.js';
import { PlansRepository, type PlanRecord } from './plans.repository.js';

export const PLAN_NOT_FOUND = ERROR_MESSAGES.planNotFound;
export const PLAN_NOT_USABLE = 'Plan not usable here';

/**
 * Service plans: their limits, the venues that offer them, and the plan a login is on. A token sees
 * and changes only the plans whose venues all lie within its own; each change is one transaction
 * with its audit row.
 */
@Injectable()
export class PlansService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly venueScope: VenueScopeService,
    private readonly plans: PlansRepository,
    private readonly audit: AuditService,
    private readonly registeredVenues: RegisteredVenuesCheck,
    private readonly offers: PlanOffers,
  ) {}

  /** `claim` (the console's form token) is taken first and settled last, in the change's transaction. */
  async create(
    actor: Actor,
    fields: rules.PlanFields,
    origin: AuditOrigin,
    claim: TransactionClaim<PlanDto> | null = null,
  ): Promise<PlanDto> {
    const venueIds = uniqueVenueIds(fields.venueIds);
    const errors = rules.planErrors(fields);
    if (errors.length > 0) throw ApiError.validation(errors);
    this.venueScope.assertVenuesInScope(actor, venueIds, 'venueIds');
    const now = this.clock.now();
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.assertVenuesRegistered(em, venueIds);
      const plan = Object.assign(new PlanEntity(), {
        id: newId(),
        name: fields.name,
        ...rules.limitsOf(fields),
        createdAt: now,
        updatedAt: now,
      } satisfies PlanEntity);
      await this.plans.insert(em, plan, venueIds);
      await this.audit.record(em, {
        actor: actorOf(actor),
        action: 'plan.create',
        target: { type: 'plan', id: plan.id },
        venueIds,
        origin,
      });
      const created = toPlanDto({ plan, venueIds });
      await claim?.settle(em, created);
      return created;
    });
  }

  async list(actor: Actor, venueId: string | null): Promise<PlanDto[]> {
    if (venueId !== null) this.venueScope.assertVenuesInScope(actor, [venueId], 'venueId');
    const records = await this.database.run((em) => this.plans.findVisible(em, actor.venueIds, venueId));
    return records.map(toPlanDto);
  }

  async get(actor: Actor, id: string): Promise<PlanDto> {
    return this.database.run(async (em) => toPlanDto(this.visible(actor, await this.plans.findById(em, id))));
  }

  async update(
    actor: Actor,
    id: string,
    changes: rules.PlanChanges,
    origin: AuditOrigin,
    claim: TransactionClaim<PlanDto> | null = null,
  ): Promise<PlanDto> {
    const requested =
      changes.venueIds === undefined ? changes : { ...changes, venueIds: uniqueVenueIds(changes.venueIds) };
    if (requested.venueIds !== undefined) this.venueScope.assertVenuesInScope(actor, requested.venueIds, 'venueIds');
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const stored = this.visible(actor, await this.plans.findById(em, id, 'update'));
      const current = { ...rules.limitsOf(stored.plan), name: stored.plan.name, venueIds: stored.venueIds };
      const next = rules.appliedPlanChanges(current, requested);
      const errors = rules.planErrors(next);
      if (errors.length > 0) throw ApiError.validation(errors);
      const changed = rules.changedPlanFields(current, next);
      if (changed.length === 0) {
        const unchanged = toPlanDto(stored);
        await claim?.settle(em, unchanged);
        return unchanged;
      }
      if (changed.includes('venueIds')) {
        await this.assertVenuesRegistered(em, next.venueIds);
        const inUse = await this.plans.findVenuesUsing(em, id, rules.removedVenues(current.venueIds, next.venueIds));
        if (inUse.length > 0) {
          throw ApiError.conflict([
            {
              field: 'venueIds',
              message: `the plan is in use in venue ${inUse.join(', ')} (a user or batch on it, or its default plan)`,
            },
          ]);
        }
        await this.plans.replaceVenues(em, id, next.venueIds);
      }
      const now = this.clock.now();
      const { venueIds: _venueIds, ...columns } = next;
      await this.plans.update(em, id, { ...columns, updatedAt: now });
      await this.audit.record(em, {
        actor: actorOf(actor),
        action: 'plan.update',
        target: { type: 'plan', id },
        venueIds: uniqueVenueIds([...current.venueIds, ...next.venueIds]),
        changedFields: changed,
        origin,
      });
      const updated = toPlanDto({
        plan: Object.assign(stored.plan, columns, { updatedAt: now }),
        venueIds: next.venueIds,
      });
      await claim?.settle(em, updated);
      return updated;
    });
  }

  /** What uses a plan the actor may see (users on it, batches that gave it, venues whose default it is). */
  async uses(actor: Actor, id: string): Promise<rules.PlanUses> {
    return this.database.run(async (em) => {
      this.visible(actor, await this.plans.findById(em, id));
      return this.plans.findUses(em, id);
    });
  }

  /** Deletes a plan nothing uses; one in use is a 409 that says what uses it. */
  async remove(
    actor: Actor,
    id: string,
    origin: AuditOrigin,
    claim: TransactionClaim<void> | null = null,
  ): Promise<void> {
    await this.database.transaction(async (em) => {
      await claim?.take(em);
      const stored = this.visible(actor, await this.plans.findById(em, id, 'update'));
      const problem = rules.planInUseProblem(await this.plans.findUses(em, id));
      if (problem !== null) throw ApiError.conflict([{ field: 'id', message: problem }]);
      await this.plans.delete(em, id);
      await this.audit.record(em, {
        actor: actorOf(actor),
        action: 'plan.delete',
        target: { type: 'plan', id },
        venueIds: stored.venueIds,
        origin,
      });
      await claim?.settle(em, undefined);
    });
  }

  /**
   * A 422 naming `field` unless the plan `planId` exists and is offered in every one of `venueIds`,
   * read through the caller's transaction in share mode (a change or delete of the plan waits for it).
   */
  async assertOffered(em: EntityManager, planId: string, venueIds: readonly string[], field: string): Promise<void> {
    const problem = await this.offers.problem(em, planId, venueIds);
    if (problem !== null) {
      throw new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, PLAN_NOT_USABLE, [{ field, message: problem }]);
    }
  }

  /**
   * The effective plan of a login, read through the caller's transaction: the user's own plan
   * (`userPlanId`), else the default plan of the venue the login comes through, else none.
   */
  effectivePlan(em: EntityManager, userPlanId: string | null, venueId: string | null): Promise<EffectivePlan | null> {
    return this.plans.findEffective(em, userPlanId, venueId);
  }

  /** The record when the actor covers every venue of it; else, as for none, 404. */
  private visible(actor: Actor, record: PlanRecord | null): PlanRecord {
    if (record === null || !record.venueIds.every((venueId) => this.venueScope.isInScope(actor, venueId))) {
      throw new ApiError(HttpStatus.NOT_FOUND, PLAN_NOT_FOUND);
    }
    return record;
  }

  /** With VENUES_REGISTERED_ONLY, a 400 naming venueIds when it holds a venue id without a registry entry. */
  private async assertVenuesRegistered(em: EntityManager, venueIds: readonly string[]): Promise<void> {
    const refused = await this.registeredVenues.refused(em, venueIds);
    if (refused.length === 0) return;
    throw ApiError.validation([
      { field: 'venueIds', message: `venueIds holds venue ids that are not registered: ${refused.join(', ')}` },
    ]);
  }
}
