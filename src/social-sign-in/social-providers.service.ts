import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { CLI_ACTOR, type AuditActor } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { VENUE_ID_PATTERN } from '../common/validation/validators.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { openSecret, resealSecret, sealSecret } from '../nas/secret-box.js';
import { VenuesService } from '../venues/venues.service.js';
import { SocialProviderEntity } from './entities/social-provider.entity.js';
import { SocialSignInRepository, type ProviderFieldChanges } from './social-sign-in.repository.js';
import {
  clientIdProblem,
  clientSecretProblem,
  DEFAULT_SCOPES,
  displayNameProblem,
  parseIssuer,
  parseScopes,
  providerNameProblem,
} from './social-sign-in.rules.js';

/** A registered OpenID provider as shown and passed around: never its client secret. */
export interface SocialProvider {
  id: string;
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  /** The venues whose portal offers it, in the operator's order. */
  venueIds: string[];
  createdAt: Date;
}

/** A provider with its client secret in clear, for the sign-in itself. */
export interface SocialProviderWithSecret extends SocialProvider {
  clientSecret: string;
}

export interface AddSocialProviderInput {
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space- or comma-separated; default `openid email`. */
  scopes?: string;
  venueIds?: readonly string[];
}

/** What `social-provider set` changes; absent fields stay. The issuer and name stay: a new issuer is a new provider. */
export type SocialProviderChanges = Partial<
  Pick<AddSocialProviderInput, 'displayName' | 'clientId' | 'clientSecret' | 'scopes' | 'venueIds'>
>;

/** An input the registry refuses; `field` names the input, the message never holds the secret. */
export class SocialProviderValidationError extends Error {
  override name = 'SocialProviderValidationError';
  constructor(
    readonly field: keyof AddSocialProviderInput,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

export class SocialProviderNameTakenError extends Error {
  override name = 'SocialProviderNameTakenError';
  constructor(readonly providerName: string) {
    super(`A social sign-in provider named "${providerName}" is registered already.`);
  }
}

/** The registry of OpenID providers guests may sign in with, and the venues that offer each. */
@Injectable()
export class SocialProvidersService {
  private readonly key: Buffer | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly repository: SocialSignInRepository,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly venues: VenuesService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.key = config.get('secretsKey', { infer: true }) ?? null;
  }

  /** Whether client secrets are sealed (SECRETS_KEY or its key file); in clear otherwise. */
  get encryptsSecrets(): boolean {
    return this.key !== null;
  }

  /**
   * Registers a provider; social-provider.add is recorded for `actor`, never its secret. A caller's
   * `claim` (the console's form token) is taken first and settled last, in its transaction.
   */
  async add(
    input: AddSocialProviderInput,
    actor: AuditActor = CLI_ACTOR,
    claim: TransactionClaim<SocialProvider> | null = null,
  ): Promise<SocialProvider> {
    const provider = new SocialProviderEntity();
    provider.id = newId();
    provider.name = check('name', input.name, providerNameProblem);
    provider.displayName = check('displayName', input.displayName, displayNameProblem).trim();
    const issuer = parseIssuer(input.issuer);
    if ('error' in issuer) throw new SocialProviderValidationError('issuer', issuer.error);
    provider.issuer = issuer.value;
    provider.clientId = check('clientId', input.clientId, clientIdProblem);
    provider.storedClientSecret = sealSecret(
      check('clientSecret', input.clientSecret, clientSecretProblem),
      provider.id,
      this.key,
    );
    provider.scopes = scopesOf(input.scopes ?? DEFAULT_SCOPES.join(' '));
    provider.createdAt = this.clock.now();
    const venueIds = checkedVenueIds(input.venueIds ?? []);
    try {
      await this.database.transaction(async (em) => {
        await claim?.take(em);
        await this.repository.insertProvider(em, provider);
        await this.repository.insertVenues(em, provider.id, venueIds);
        await this.audit.record(em, {
          actor,
          action: 'social-provider.add',
          target: { type: 'social-provider', id: provider.id },
          venueIds: venueIds.length === 0 ? null : venueIds,
        });
        await claim?.settle(em, view(provider, venueIds));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new SocialProviderNameTakenError(provider.name);
      throw error;
    }
    return view(provider, venueIds);
  }

  /** Every provider, oldest first, with its venues. */
  list(): Promise<SocialProvider[]> {
    return this.database.run(async (em) => {
      const providers = await this.repository.listProviders(em);
      const rows = await this.repository.listVenueRows(
        em,
        providers.map((provider) => provider.id),
      );
      return providers.map((provider) =>
        view(
          provider,
          rows.filter((row) => row.providerId === provider.id).map((row) => row.venueId),
        ),
      );
    });
  }

  /** Changes a provider found by id or name; returns it as changed, or null when none matches. */
  async update(
    idOrName: string,
    changes: SocialProviderChanges,
    actor: AuditActor = CLI_ACTOR,
  ): Promise<SocialProvider | null> {
    const fields: ProviderFieldChanges = {};
    const changedFields: string[] = [];
    if (changes.displayName !== undefined) {
      fields.displayName = check('displayName', changes.displayName, displayNameProblem).trim();
    }
    if (changes.clientId !== undefined) fields.clientId = check('clientId', changes.clientId, clientIdProblem);
    if (changes.scopes !== undefined) fields.scopes = scopesOf(changes.scopes);
    const secret =
      changes.clientSecret === undefined ? undefined : check('clientSecret', changes.clientSecret, clientSecretProblem);
    const venueIds = changes.venueIds === undefined ? undefined : checkedVenueIds(changes.venueIds);
    return this.database.transaction(async (em) => {
      const provider = await this.findByIdOrName(em, idOrName);
      if (provider === null) return null;
      if (secret !== undefined) fields.storedClientSecret = sealSecret(secret, provider.id, this.key);
      for (const [field, value] of Object.entries(fields)) {
        if (provider[field as keyof ProviderFieldChanges] !== value) changedFields.push(field);
      }
      if (secret !== undefined) changedFields.splice(changedFields.indexOf('storedClientSecret'), 1, 'clientSecret');
      if (Object.keys(fields).length > 0) await this.repository.updateProvider(em, provider.id, fields);
      let current = (await this.repository.listVenueRows(em, [provider.id])).map((row) => row.venueId);
      if (venueIds !== undefined && venueIds.join('\n') !== current.join('\n')) {
        await this.repository.deleteVenues(em, provider.id);
        await this.repository.insertVenues(em, provider.id, venueIds);
        changedFields.push('venueIds');
        current = [...new Set([...current, ...venueIds])];
      }
      if (changedFields.length > 0) {
        await this.audit.record(em, {
          actor,
          action: 'social-provider.update',
          target: { type: 'social-provider', id: provider.id },
          venueIds: current.length === 0 ? null : current,
          changedFields,
        });
      }
      return view(Object.assign(provider, fields), venueIds ?? current);
    });
  }

  /** Removes a provider by id or name (its sign-ins under way with it); null when none matches. `claim` as add's. */
  async remove(
    idOrName: string,
    actor: AuditActor = CLI_ACTOR,
    claim: TransactionClaim<SocialProvider> | null = null,
  ): Promise<SocialProvider | null> {
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const provider = await this.findByIdOrName(em, idOrName);
      if (provider === null) return null;
      const venueIds = (await this.repository.listVenueRows(em, [provider.id])).map((row) => row.venueId);
      await this.repository.deleteProvider(em, provider.id);
      await this.audit.record(em, {
        actor,
        action: 'social-provider.remove',
        target: { type: 'social-provider', id: provider.id },
        venueIds: venueIds.length === 0 ? null : venueIds,
      });
      await claim?.settle(em, view(provider, venueIds));
      return view(provider, venueIds);
    });
  }

  /** Of `venueIds`, those not in the venue registry (`social-provider add` warns about them). */
  unregisteredVenues(venueIds: readonly string[]): Promise<string[]> {
    return this.venues.unregisteredNow(venueIds);
  }

  /** The providers `venueId`'s portal offers, by display name. */
  async offeredAt(venueId: string): Promise<SocialProvider[]> {
    if (!VENUE_ID_PATTERN.test(venueId)) return [];
    const providers = await this.database.run((em) => this.repository.listProvidersOfVenue(em, venueId));
    return providers.map((provider) => view(provider, [venueId]));
  }

  /**
   * The provider `providerId` with its client secret in clear, when `venueId` offers it; null
   * otherwise. NasSecretUnavailableError when the current key cannot open the secret.
   */
  async forSignIn(em: EntityManager, providerId: string, venueId: string): Promise<SocialProviderWithSecret | null> {
    const provider = await this.repository.findProviderById(em, providerId);
    if (provider === null || !(await this.repository.isOffered(em, providerId, venueId))) return null;
    return {
      ...view(provider, [venueId]),
      clientSecret: openSecret(provider.storedClientSecret, provider.id, provider.name, this.key),
    };
  }

  /**
   * Seals every client secret anew under `to` (null: in clear), inside the caller's transaction (what
   * `hotspot secrets rotate` runs); returns how many. NasSecretUnavailableError when `from` cannot open one.
   */
  async resealSecrets(em: EntityManager, from: Buffer | null, to: Buffer | null): Promise<number> {
    const providers = await this.repository.listSecretsForUpdate(em, this.database.supportsRowLocks);
    for (const provider of providers) {
      await this.repository.updateProvider(em, provider.id, {
        storedClientSecret: resealSecret(provider.storedClientSecret, provider.id, provider.name, from, to),
      });
    }
    return providers.length;
  }

  private async findByIdOrName(em: EntityManager, idOrName: string): Promise<SocialProviderEntity | null> {
    return (
      (await this.repository.findProviderByName(em, idOrName)) ?? (await this.repository.findProviderById(em, idOrName))
    );
  }
}

function check<T>(field: keyof AddSocialProviderInput, value: T, problem: (value: T) => string | null): T {
  const message = problem(value);
  if (message !== null) throw new SocialProviderValidationError(field, message);
  return value;
}

function scopesOf(raw: string): string {
  const scopes = parseScopes(raw);
  if ('error' in scopes) throw new SocialProviderValidationError('scopes', scopes.error);
  return scopes.value.join(' ');
}

function checkedVenueIds(venueIds: readonly string[]): string[] {
  const bad = venueIds.find((venueId) => !VENUE_ID_PATTERN.test(venueId));
  if (bad !== undefined) {
    throw new SocialProviderValidationError('venueIds', 'must be venue ids of 1-64 characters of A-Za-z0-9_.:-');
  }
  return [...new Set(venueIds)];
}

function view(provider: SocialProviderEntity, venueIds: string[]): SocialProvider {
  return {
    id: provider.id,
    name: provider.name,
    displayName: provider.displayName,
    issuer: provider.issuer,
    clientId: provider.clientId,
    scopes: provider.scopes.split(' '),
    venueIds,
    createdAt: provider.createdAt,
  };
}
