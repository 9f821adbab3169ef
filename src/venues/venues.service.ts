import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLI_ACTOR, type AuditActor } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { VenueEntity } from './entities/venue.entity.js';
import {
  appliedVenueChanges,
  changedVenueFields,
  missingVenueIds,
  venueChangesProblem,
  venueIdProblem,
  type VenueChanges,
  type VenueField,
  type VenueFields,
} from './venue-rules.js';
import { VENUE_PLAN_OFFERS, type VenuePlanOffers } from './venue-plan-offers.js';
import { VenuesRepository } from './venues.repository.js';

/** A registered venue as shown. */
export interface Venue extends VenueFields {
  id: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What `set` did: the venue as it is now, whether it was new, and the fields it changed. */
export interface VenueSetResult {
  venue: Venue;
  created: boolean;
  changed: VenueField[];
}

/** An input the registry refuses; `field` names it. */
export class VenueValidationError extends Error {
  override name = 'VenueValidationError';
  constructor(
    readonly field: 'id' | VenueField,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

/** The venue registry: display name, time zone, SSID and portal URL of a venue id. */
@Injectable()
export class VenuesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly venues: VenuesRepository,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    @Optional() @Inject(VENUE_PLAN_OFFERS) private readonly planOffers: VenuePlanOffers | null = null,
  ) {}

  /**
   * Registers the venue `id` or changes the given fields of it; `created` says which. Recorded for
   * `actor` (the command line unless said otherwise) as venue.create or venue.update. A caller's
   * `claim` (the console's form token) is taken first and settled last, in its transaction.
   */
  async set(
    id: string,
    changes: VenueChanges,
    actor: AuditActor = CLI_ACTOR,
    claim: TransactionClaim<VenueSetResult> | null = null,
  ): Promise<VenueSetResult> {
    const idProblem = venueIdProblem(id);
    if (idProblem !== null) throw new VenueValidationError('id', idProblem);
    const problem = venueChangesProblem(changes);
    if (problem !== null) throw new VenueValidationError(problem[0], problem[1]);
    try {
      return await this.upsert(id, changes, actor, claim);
    } catch (error) {
      // Another set registered the same id between the read and the insert: it is there now.
      if (isUniqueViolation(error)) return this.upsert(id, changes, actor, claim);
      throw error;
    }
  }

  private upsert(
    id: string,
    changes: VenueChanges,
    actor: AuditActor,
    claim: TransactionClaim<VenueSetResult> | null,
  ): Promise<VenueSetResult> {
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const result = await this.upsertIn(em, id, changes, actor);
      await claim?.settle(em, result);
      return result;
    });
  }

  private async upsertIn(
    em: EntityManager,
    id: string,
    changes: VenueChanges,
    actor: AuditActor,
  ): Promise<VenueSetResult> {
    const now = this.clock.now();
    const stored = await this.venues.findById(em, id);
    await this.assertDefaultPlanOffered(em, id, stored, changes);
    if (stored === null) {
      const record = Object.assign(new VenueEntity(), appliedVenueChanges(null, changes), {
        id,
        createdAt: now,
        updatedAt: now,
      });
      await this.venues.insert(em, record);
      await this.audit.record(em, { actor, action: 'venue.create', target: { type: 'venue', id }, venueIds: [id] });
      return {
        venue: view(record),
        created: true,
        changed: changedVenueFields(appliedVenueChanges(null, {}), record),
      };
    }
    const fields = appliedVenueChanges(stored, changes);
    const changed = changedVenueFields(stored, fields);
    if (changed.length === 0) return { venue: view(stored), created: false, changed };
    await this.venues.update(em, id, fields, now);
    await this.audit.record(em, {
      actor,
      action: 'venue.update',
      target: { type: 'venue', id },
      venueIds: [id],
      changedFields: changed,
    });
    return { venue: view(Object.assign(stored, fields, { updatedAt: now })), created: false, changed };
  }

  /** A default plan being set must exist and be offered in the venue. */
  private async assertDefaultPlanOffered(
    em: EntityManager,
    id: string,
    stored: VenueEntity | null,
    changes: VenueChanges,
  ): Promise<void> {
    const planId = changes.defaultPlanId;
    if (planId === undefined || planId === null || planId === '' || planId === stored?.defaultPlanId) return;
    if (this.planOffers === null) throw new Error('a default plan cannot be checked without the plans module');
    const problem = await this.planOffers.defaultPlanProblem(em, id, planId);
    if (problem !== null) throw new VenueValidationError('defaultPlanId', problem);
  }

  /** Every registered venue, by id. */
  async list(): Promise<Venue[]> {
    return (await this.database.run((em) => this.venues.listById(em))).map(view);
  }

  /** Of `venueIds`, those without a registry entry (each once), read through the caller's transaction. */
  async unregistered(em: EntityManager, venueIds: readonly string[]): Promise<string[]> {
    if (venueIds.length === 0) return [];
    return missingVenueIds(venueIds, await this.venues.findRegisteredIds(em, venueIds));
  }

  /** unregistered() in a transaction of its own. */
  async unregisteredNow(venueIds: readonly string[]): Promise<string[]> {
    return this.database.run((em) => this.unregistered(em, venueIds));
  }
}

function view(record: VenueEntity): Venue {
  return {
    id: record.id,
    displayName: record.displayName,
    timeZone: record.timeZone,
    ssid: record.ssid,
    portalUrl: record.portalUrl,
    checkOutTime: record.checkOutTime,
    defaultPlanId: record.defaultPlanId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
