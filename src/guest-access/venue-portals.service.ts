import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { CLI_ACTOR, type AuditActor } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { openSecret, resealSecret, sealSecret } from '../nas/secret-box.js';
import { PlansService } from '../plans/plans.service.js';
import { venueIdProblem } from '../venues/venue-rules.js';
import { VenuePortalEntity } from './entities/venue-portal.entity.js';
import { GuestAccessRepository } from './guest-access.repository.js';
import {
  DEFAULT_VALIDITY_SECONDS,
  parsePortalWays,
  portalChangeProblems,
  termsVersionOf,
  waysProblem,
  type PortalChanges,
  type PortalWay,
} from './guest-access.rules.js';

/** A venue's portal as the portal pages and the settings screens read it (never the faskey itself). */
export interface VenuePortal {
  venueId: string;
  ways: PortalWay[];
  displayName: string | null;
  logoUrl: string | null;
  colours: { accent: string | null; background: string | null; text: string | null };
  termsText: string | null;
  termsVersion: string | null;
  privacyText: string | null;
  planId: string | null;
  validitySeconds: number;
  keepSocialEmail: boolean;
  hasFaskey: boolean;
}

/** A setting refused: the field (as PortalChanges names it) and why, for the CLI and the console. */
export class PortalValidationError extends Error {
  override name = 'PortalValidationError';
  constructor(
    readonly field: keyof PortalChanges,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

/** Each venue's portal settings: read, changed (audited as the venue's change), and its faskey sealed. */
@Injectable()
export class VenuePortalsService {
  private readonly key: Buffer | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly repository: GuestAccessRepository,
    private readonly plans: PlansService,
    private readonly audit: AuditService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.key = config.get('secretsKey', { infer: true });
  }

  /** The venue's portal; null when it has none (the portal then answers 404). */
  async portal(venueId: string): Promise<VenuePortal | null> {
    const stored = await this.database.run((em) => this.repository.findPortal(em, venueId));
    return stored === null ? null : viewOf(stored);
  }

  async list(): Promise<VenuePortal[]> {
    return (await this.database.run((em) => this.repository.findPortals(em))).map(viewOf);
  }

  /** The venue's portal read through the caller's transaction. */
  async portalIn(em: EntityManager, venueId: string): Promise<VenuePortal | null> {
    const stored = await this.repository.findPortal(em, venueId);
    return stored === null ? null : viewOf(stored);
  }

  /** The venue's openNDS faskey in clear; null when none is set. NasSecretUnavailableError when the key cannot open it. */
  async faskey(venueId: string): Promise<string | null> {
    const stored = await this.database.run((em) => this.repository.findPortal(em, venueId));
    if (stored?.faskeySealed == null) return null;
    return openSecret(stored.faskeySealed, venueId, `faskey of venue ${venueId}`, this.key);
  }

  /**
   * Creates or changes the venue's portal: only the fields `changes` names (null clears). The terms
   * version follows the terms text. PortalValidationError names a refused field; nothing is written then.
   */
  async set(
    venueId: string,
    changes: PortalChanges,
    actor: AuditActor = CLI_ACTOR,
    claim: TransactionClaim<VenuePortal> | null = null,
  ): Promise<VenuePortal> {
    const idProblem = venueIdProblem(venueId);
    if (idProblem !== null) throw new PortalValidationError('ways', `venue id ${idProblem}`);
    const [problem] = portalChangeProblems(changes);
    if (problem !== undefined) throw new PortalValidationError(problem.field, problem.message);
    const now = this.clock.now();
    try {
      return await this.database.transaction(async (em) => {
        await claim?.take(em);
        const stored = await this.repository.lockPortal(em, venueId, this.database.supportsRowLocks);
        const next = applied(stored, venueId, changes, now, this.key);
        const waysRefused = waysProblem(parsePortalWays(next.ways) ?? [], next.termsText);
        if (waysRefused !== null) throw new PortalValidationError(waysRefused.field, waysRefused.message);
        if (changes.planId != null) await this.plans.assertOffered(em, changes.planId, [venueId], 'planId');
        if (stored === null) await this.repository.insertPortal(em, next);
        else await this.repository.updatePortal(em, venueId, next);
        await this.audit.record(em, {
          actor,
          action: 'venue.update',
          target: { type: 'venue', id: venueId },
          venueIds: [venueId],
          changedFields: Object.keys(changes).map((field) => `portal.${field}`),
        });
        const view = viewOf(next);
        await claim?.settle(em, view);
        return view;
      });
    } catch (error) {
      if (error instanceof ApiError && error.body.errors?.[0]?.field === 'planId')
        throw new PortalValidationError('planId', 'must be a plan offered in the venue');
      throw error;
    }
  }

  /** Every sealed faskey anew under `to` (null: in clear), in the caller's transaction (`hotspot secrets rotate`). */
  async resealFaskeys(em: EntityManager, from: Buffer | null, to: Buffer | null): Promise<number> {
    const rows = await this.repository.listFaskeysForUpdate(em, this.database.supportsRowLocks);
    for (const row of rows) {
      const sealed = resealSecret(row.faskeySealed, row.venueId, `faskey of venue ${row.venueId}`, from, to);
      await this.repository.replaceFaskey(em, row.venueId, sealed);
    }
    return rows.length;
  }
}

function applied(
  stored: VenuePortalEntity | null,
  venueId: string,
  changes: PortalChanges,
  now: Date,
  key: Buffer | null,
): VenuePortalEntity {
  const base: VenuePortalEntity =
    stored ??
    Object.assign(new VenuePortalEntity(), {
      venueId,
      ways: '',
      displayName: null,
      logoUrl: null,
      colourAccent: null,
      colourBackground: null,
      colourText: null,
      termsText: null,
      termsVersion: null,
      privacyText: null,
      planId: null,
      validitySeconds: DEFAULT_VALIDITY_SECONDS,
      keepSocialEmail: false,
      faskeySealed: null,
      createdAt: now,
      updatedAt: now,
    } satisfies VenuePortalEntity);
  const pick = <K extends keyof PortalChanges & keyof VenuePortalEntity>(field: K) =>
    (changes[field] === undefined ? base[field] : changes[field]) as VenuePortalEntity[K];
  const termsText = changes.termsText === undefined ? base.termsText : emptyAsNull(changes.termsText);
  return Object.assign(new VenuePortalEntity(), {
    venueId,
    ways: changes.ways === undefined ? base.ways : changes.ways.join(','),
    displayName: pick('displayName'),
    logoUrl: pick('logoUrl'),
    colourAccent: lower(pick('colourAccent')),
    colourBackground: lower(pick('colourBackground')),
    colourText: lower(pick('colourText')),
    termsText,
    termsVersion: termsVersionOf(termsText),
    privacyText: changes.privacyText === undefined ? base.privacyText : emptyAsNull(changes.privacyText),
    planId: pick('planId'),
    validitySeconds: changes.validitySeconds ?? base.validitySeconds,
    keepSocialEmail: changes.keepSocialEmail ?? base.keepSocialEmail,
    faskeySealed:
      changes.faskey === undefined
        ? base.faskeySealed
        : changes.faskey === null
          ? null
          : sealSecret(changes.faskey, venueId, key),
    createdAt: base.createdAt,
    updatedAt: now,
  } satisfies VenuePortalEntity);
}

function emptyAsNull(text: string | null): string | null {
  return text === null || text.trim() === '' ? null : text;
}

function lower(value: string | null): string | null {
  return value === null ? null : value.toLowerCase();
}

function viewOf(stored: VenuePortalEntity): VenuePortal {
  return {
    venueId: stored.venueId,
    ways: parsePortalWays(stored.ways) ?? [],
    displayName: stored.displayName,
    logoUrl: stored.logoUrl,
    colours: { accent: stored.colourAccent, background: stored.colourBackground, text: stored.colourText },
    termsText: stored.termsText,
    termsVersion: stored.termsVersion,
    privacyText: stored.privacyText,
    planId: stored.planId,
    validitySeconds: stored.validitySeconds,
    keepSocialEmail: Boolean(stored.keepSocialEmail),
    hasFaskey: stored.faskeySealed !== null,
  };
}
