import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { CLI_ACTOR, type AuditActor } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService, type Lane } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { ApiTokenRepository } from './api-token.repository.js';
import { assertGrantable, type Rights } from './grant.rules.js';
import type { AuthenticatedToken } from './authenticated-token.js';
import { ApiTokenEntity } from './entities/api-token.entity.js';
import { permissionConflict, PERMISSIONS, type Permission } from './permissions.js';
import { TokenCache } from './token-cache.js';
import {
  isExpired,
  lastUseIsDue,
  toAuthenticated,
  tokenRevision,
  tokenStatus,
  wasRevokedBefore,
  type TokenStatus,
} from './token-rules.js';
import { generateTokenValue, hashTokenValue, visiblePrefix } from './token-value.js';

/**
 * Before answering from the cache, each instance asks the database at most this often whether any
 * token was created or revoked since it last asked (by anyone: another instance, the CLI), so a
 * revocation is honoured everywhere within this long and the check's query: under 1 s, the promise.
 */
export const TOKEN_REVISION_INTERVAL_MS = 900;

export interface CreateTokenInput {
  name: string;
  permissions: Permission[];
  venueIds: string[] | null;
  expiresAt: Date | null;
}

export interface TokenRevocation {
  token: ApiTokenEntity;
  /** True when the token had been revoked before this call (revoking again is no error). */
  alreadyRevoked: boolean;
}

export interface CreatedToken {
  record: ApiTokenEntity;
  /** The plain token value: shown once, never stored. */
  value: string;
}

@Injectable()
export class ApiTokenService {
  private readonly logger = new Logger(ApiTokenService.name);
  private readonly cache: TokenCache;
  /** The api_tokens revision the cache agrees with; null until known (or after a failed check). */
  private revision: string | null = null;
  private revisionCheckedAt = 0;
  /** The check under way, shared by every request that needs it meanwhile. */
  private revisionCheck: Promise<void> | null = null;
  /** Bumped whenever cached answers may have gone stale, so a lookup started before does not cache its result. */
  private generation = 0;

  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: ApiTokenRepository,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.cache = new TokenCache(config.get('tokenCacheTtlMs', { infer: true }));
  }

  /**
   * Creates a token; `actor` (the command line unless said otherwise) is recorded in the audit trail
   * with it. A caller's `claim` (the console's form token) is taken first and settled last, in its transaction.
   */
  async create(
    input: CreateTokenInput,
    value: string = generateTokenValue(),
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<ApiTokenEntity> | null = null,
  ): Promise<CreatedToken> {
    // An operator gives at most its own rights (GrantRefusedError); the command line anything.
    assertGrantable(grantor, input);
    const conflict = permissionConflict(input.permissions);
    if (conflict !== null) throw new Error(`Invalid permissions: ${conflict}`);
    const record = new ApiTokenEntity();
    record.id = newId();
    record.name = input.name;
    record.prefix = visiblePrefix(value);
    record.tokenHash = hashTokenValue(value);
    // Stored in the canonical order whatever order they were given in.
    record.permissions = PERMISSIONS.filter((p) => input.permissions.includes(p));
    record.venueIds = input.venueIds;
    record.createdAt = this.clock.now();
    record.lastUsedAt = null;
    record.revokedAt = null;
    record.expiresAt = input.expiresAt;
    await this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.tokens.insert(em, record);
      await this.audit.record(em, {
        actor,
        action: 'token.create',
        target: { type: 'token', id: record.id },
        venueIds: record.venueIds,
      });
      await claim?.settle(em, record);
    });
    // Its hash may have been cached as unknown: the new token works here at once.
    this.forget(record.tokenHash);
    return { record, value };
  }

  list(): Promise<ApiTokenEntity[]> {
    return this.database.run((em) => this.tokens.list(em));
  }

  count(): Promise<number> {
    return this.database.run((em) => this.tokens.count(em));
  }

  /**
   * Revokes by id or by token value. Returns the revoked token, or null when none matched. Revoking
   * records token.revoke for `actor`; a token revoked already is left as it is, with no event.
   */
  async revoke(
    idOrValue: string,
    actor: AuditActor = CLI_ACTOR,
    grantor: Rights | null = null,
    claim: TransactionClaim<ApiTokenEntity> | null = null,
  ): Promise<ApiTokenEntity | null> {
    const hash = hashTokenValue(idOrValue);
    const revoked = await this.database.transaction(async (em) => {
      await claim?.take(em);
      const token = (await this.tokens.findById(em, idOrValue)) ?? (await this.tokens.findByHash(em, hash));
      if (token === null) return null;
      // Only a token within the operator's own rights: a restricted administrator manages its own kind.
      assertGrantable(grantor, token);
      if (token.revokedAt === null) {
        token.revokedAt = this.clock.now();
        await this.tokens.setRevokedAt(em, token.id, token.revokedAt);
        await this.audit.record(em, {
          actor,
          action: 'token.revoke',
          target: { type: 'token', id: token.id },
          venueIds: token.venueIds,
        });
      }
      await claim?.settle(em, token);
      return token;
    });
    if (revoked) this.forget(revoked.tokenHash);
    return revoked;
  }

  /** The stored token a value belongs to, whatever its state (no use is recorded), or null. */
  findByValue(value: string): Promise<ApiTokenEntity | null> {
    return this.database.run((em) => this.tokens.findByHash(em, hashTokenValue(value)));
  }

  /** The token's state at the clock's current time. */
  statusOf(token: Pick<ApiTokenEntity, 'revokedAt' | 'expiresAt'>): TokenStatus {
    return tokenStatus(token, this.clock.now());
  }

  /** revoke(), telling whether this call revoked the token or found it revoked already. */
  async revokeReporting(idOrValue: string, actor: AuditActor = CLI_ACTOR): Promise<TokenRevocation | null> {
    const before = this.clock.now();
    const token = await this.revoke(idOrValue, actor);
    if (token === null) return null;
    return { token, alreadyRevoked: wasRevokedBefore(token, before) };
  }

  /**
   * The caller behind a token value, or null when it is unknown, revoked or expired. Answers from
   * the cache when it can; otherwise awaits `beforeLookup` (which may refuse the request by
   * throwing) and then looks the token up in the database, in the caller's `lane` (FreeRADIUS's
   * requests in RADIUS's, so that no other work makes them wait for a connection).
   */
  async authenticate(
    value: string,
    beforeLookup?: () => Promise<void>,
    lane: Lane = 'general',
  ): Promise<AuthenticatedToken | null> {
    const hash = hashTokenValue(value);
    const now = this.clock.now();
    const nowMs = now.getTime();
    if (this.cache.holds(hash, nowMs)) await this.checkRevision(nowMs);
    if (this.cache.isUnknown(hash, nowMs)) return null;
    let entry = this.cache.get(hash, nowMs);
    if (entry === undefined) {
      await beforeLookup?.();
      // What gets cached must be at least as new as the revision it is compared with later.
      if (this.revision === null && this.cache.enabled) await this.checkRevision(nowMs);
      const generation = this.generation;
      const record = await this.database.run((em) => this.tokens.findByHash(em, hash), { lane });
      const cacheable = generation === this.generation;
      if (record === null || record.revokedAt !== null) {
        if (cacheable) this.cache.setUnknown(hash, nowMs);
        return null;
      }
      const lastUsedAt = record.lastUsedAt?.getTime() ?? null;
      entry = cacheable
        ? this.cache.set(hash, toAuthenticated(record), lastUsedAt, nowMs)
        : { token: toAuthenticated(record), cachedUntil: nowMs, lastUsedAt };
    }
    const token = entry.token;
    if (isExpired(token.expiresAt, nowMs)) return null;
    if (lastUseIsDue(entry.lastUsedAt, nowMs)) {
      entry.lastUsedAt = nowMs;
      this.recordUse(token.id, now);
    }
    return token;
  }

  /**
   * Drops every cached answer when a token was created or revoked since the last check. Runs at most
   * once per TOKEN_REVISION_INTERVAL_MS (concurrent callers share the check), and always while the
   * revision is unknown. A failed check fails the request: the cache cannot be vouched for.
   */
  private async checkRevision(nowMs: number): Promise<void> {
    if (this.revisionCheck === null) {
      const elapsed = nowMs - this.revisionCheckedAt;
      if (this.revision !== null && elapsed >= 0 && elapsed < TOKEN_REVISION_INTERVAL_MS) return;
      this.revisionCheckedAt = nowMs;
      this.revisionCheck = this.readRevision()
        .then(
          (revision) => {
            if (revision !== this.revision) {
              this.cache.clear();
              this.generation += 1;
            }
            this.revision = revision;
          },
          (error: unknown) => {
            this.revision = null;
            throw error;
          },
        )
        .finally(() => {
          this.revisionCheck = null;
        });
    }
    await this.revisionCheck;
  }

  /** In RADIUS's lane: every caller holding a cached token may wait for this read, FreeRADIUS too. */
  private async readRevision(): Promise<string> {
    return tokenRevision(await this.database.run((em) => this.tokens.revisionCounts(em), { lane: 'radius' }));
  }

  private forget(hash: string): void {
    this.cache.delete(hash);
    this.generation += 1;
  }

  /** Fire and forget: the request does not wait for a bookkeeping write, and a failed one only logs. */
  private recordUse(id: string, at: Date): void {
    void this.database
      .run((em) => this.tokens.setLastUsedAt(em, id, at))
      .catch((error: unknown) => this.logger.warn(`Could not record token use: ${String(error)}`));
  }
}
