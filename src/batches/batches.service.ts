import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service.js';
import { actorOf, CLI_ACTOR, NO_ORIGIN, type AuditActor, type AuditOrigin } from '../audit/audit.rules.js';
import type { Actor } from '../auth/actor.js';
import { satisfies } from '../auth/permissions.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { Clock } from '../common/clock.js';
import { ApiError, ERROR_MESSAGES } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { pageWindow, paginationOf } from '../common/pagination.js';
import { usernameKey } from '../common/validation/normalise.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import type { PaginationDto } from '../hotspot-users/dto/hotspot-user.response.js';
import { HotspotUserVenueEntity } from '../hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../hotspot-users/entities/hotspot-user.entity.js';
import { NO_USER_TEXT } from '../hotspot-users/user-text-fields.js';
import { keysOf } from '../hotspot-users/hotspot-user.rules.js';
import { Deadline } from '../common/load/deadline.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { nameWordRowsOf, searchKeysOf } from '../hotspot-users/user-search.rules.js';
import { countDeltas } from '../hotspot-users/venue-counts.rules.js';
import { IdempotencyService, type IdempotentCall } from '../idempotency/idempotency.service.js';
import { PlansService } from '../plans/plans.service.js';
import { NasSecretUnavailableError, openSecret, resealSecret, sealSecret } from '../nas/secret-box.js';
import { RegisteredVenuesCheck } from '../venues/registered-venues-check.js';
import * as rules from './batch.rules.js';
import { toBatchAccountDto, toBatchDto } from './batch.mapper.js';
import { BatchesRepository } from './batches.repository.js';
import type { BatchCardsDto, BatchDetailDto, BatchDto } from './dto/batch.response.js';
import { BatchPasswordEntity } from './entities/batch-password.entity.js';
import { UserBatchEntity } from './entities/user-batch.entity.js';

/** Who asks: an API token or a console operator (venue scope and permissions apply), or null: the command line. */
export type BatchCaller = Actor | null;

/** Why the passwords were shown: the audit trail does not say, the caller's page does. */
export const PASSWORDS_GONE =
  "This batch's passwords are no longer shown: they can be shown until 24 hours after the batch's first print " +
  'or export. Only a password reset shows a new one.';
export const BATCH_NOT_FOUND = ERROR_MESSAGES.batchNotFound;

/** Attempts of the whole transaction when a concurrent create took one of the drawn usernames. */
const TRANSACTION_ATTEMPTS = 3;

/**
 * Batches of generated accounts (vouchers). A batch is one transaction: the batch row, every user
 * with its venue row, the sealed passwords, the venue counters' change and one `batch.create` audit
 * event. The passwords are hashed before it, off the event loop, as many at once as there are cores.
 */
@Injectable()
export class BatchesService {
  private readonly key: Buffer | null;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly venueScope: VenueScopeService,
    private readonly batches: BatchesRepository,
    private readonly passwords: PasswordHasher,
    private readonly idempotency: IdempotencyService,
    private readonly audit: AuditService,
    private readonly registeredVenues: RegisteredVenuesCheck,
    private readonly plans: PlansService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.key = config.get('secretsKey', { infer: true }) ?? null;
  }

  /**
   * Creates the batch. Its answer (and an Idempotency-Key's stored replay) holds the usernames, never
   * the passwords: those are revealed by reveal(), which the audit trail records.
   */
  async create(
    caller: BatchCaller,
    request: rules.BatchRequest,
    origin: AuditOrigin = NO_ORIGIN,
    idempotency: IdempotentCall<BatchDetailDto> | null = null,
    deadline: Deadline = Deadline.none,
    claim: TransactionClaim<BatchDetailDto> | null = null,
  ): Promise<BatchDetailDto> {
    const now = this.clock.now();
    const errors = rules.batchErrors(request, now);
    if (errors.length > 0) throw ApiError.validation(errors);
    if (caller !== null) this.venueScope.assertVenuesInScope(caller, [request.venueId], 'venueId');
    const random = (max: number) => randomInt(max);
    const passwords = Array.from({ length: request.count }, () => rules.newPassword(request.passwordLength, random));
    // Hashing is slow by design: all of it before the transaction, through a share of the hashing
    // work class (other creates and logins run meanwhile); stopped when the caller stops waiting.
    const hashes = await this.passwords.hashAll(passwords, deadline);
    const actor = auditActorOf(caller);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.database.transaction((em) =>
          this.insertBatch(em, request, actor, origin, idempotency, claim, passwords, hashes, now),
        );
      } catch (error) {
        // A username drawn here was taken by a concurrent create between the check and the insert.
        if (!isUniqueViolation(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      }
    }
  }

  private async insertBatch(
    em: EntityManager,
    request: rules.BatchRequest,
    actor: AuditActor,
    origin: AuditOrigin,
    idempotency: IdempotentCall<BatchDetailDto> | null,
    claim: TransactionClaim<BatchDetailDto> | null,
    passwords: readonly string[],
    hashes: readonly string[],
    now: Date,
  ): Promise<BatchDetailDto> {
    await claim?.take(em);
    await this.idempotency.reserve(em, idempotency);
    await this.assertVenueRegistered(em, request.venueId);
    if (request.planId !== null) await this.plans.assertOffered(em, request.planId, [request.venueId], 'planId');
    const usernames = await this.freeUsernames(em, request.prefix, request.count);
    const batch = Object.assign(new UserBatchEntity(), {
      id: newId(),
      venueId: request.venueId,
      label: request.label,
      prefix: request.prefix,
      count: request.count,
      passwordLength: request.passwordLength,
      expiresAt: request.expiresAt,
      validFor: request.validFor,
      planId: request.planId,
      createdByType: actor.type,
      createdById: actor.id,
      createdByName: actor.name,
      createdAt: now,
      firstRevealedAt: null,
      passwordsErasedAt: null,
    } satisfies UserBatchEntity);
    const users = usernames.map((username, index) =>
      Object.assign(new HotspotUserEntity(), {
        id: newId(),
        name: username,
        username,
        ...NO_USER_TEXT,
        macAddress: null,
        loginMethod: 'username_password',
        status: 'active',
        passwordHash: hashes[index],
        expiresAt: request.expiresAt,
        validFor: request.validFor,
        firstLoginAt: null,
        metadata: {},
        createdAt: now,
        updatedAt: now,
        batchId: batch.id,
        planId: request.planId,
        version: 1,
      } satisfies HotspotUserEntity),
    );
    const venueRows = users.map((user) =>
      Object.assign(new HotspotUserVenueEntity(), {
        userId: user.id,
        venueId: request.venueId,
        position: 0,
        userStatus: user.status,
        userCreatedAt: now,
        inBatch: true,
        ...keysOf(user),
        ...searchKeysOf(user),
      } satisfies HotspotUserVenueEntity),
    );
    const sealed = users.map((user, index) =>
      Object.assign(new BatchPasswordEntity(), {
        userId: user.id,
        batchId: batch.id,
        sealedPassword: sealSecret(passwords[index], batch.id, this.key),
      } satisfies BatchPasswordEntity),
    );
    await this.batches.insertBatch(em, batch);
    const nameWords = users.flatMap((user) => nameWordRowsOf(user, [request.venueId]));
    await this.batches.insertAccounts(em, users, venueRows, nameWords, sealed);
    const [delta] = countDeltas(null, { status: 'active', createdAt: now, venueIds: [request.venueId] });
    await this.batches.recordCountChanges(em, [{ ...delta, delta: users.length }]);
    await this.audit.record(em, {
      actor,
      action: 'batch.create',
      target: { type: 'batch', id: batch.id },
      venueIds: [request.venueId],
      origin,
    });
    const created: BatchDetailDto = {
      ...toBatchDto(batch, now),
      accounts: users
        .map((user) => toBatchAccountDto(user))
        .sort((a, b) => ((a.username ?? '') < (b.username ?? '') ? -1 : 1)),
    };
    await this.idempotency.complete(em, idempotency, created);
    await claim?.settle(em, created);
    return created;
  }

  /** `count` usernames of the prefix that no user holds in any venue: the clashing ones are drawn again. */
  private async freeUsernames(em: EntityManager, prefix: string, count: number): Promise<string[]> {
    const random = (max: number) => randomInt(max);
    const taken = new Set<string>();
    let usernames = rules.drawUsernames(prefix, count, taken, random);
    for (let draw = 1; draw <= rules.USERNAME_DRAWS; draw += 1) {
      const clashes = await this.batches.takenUsernameKeys(em, usernames.map(usernameKey));
      if (clashes.size === 0) return usernames;
      for (const key of clashes) taken.add(key);
      const kept = usernames.filter((username) => !clashes.has(usernameKey(username)));
      for (const username of kept) taken.add(usernameKey(username));
      usernames = [...kept, ...rules.drawUsernames(prefix, count - kept.length, taken, random)];
    }
    throw ApiError.conflict([
      { field: 'prefix', message: 'no free usernames could be drawn for this prefix: choose another prefix' },
    ]);
  }

  private async assertVenueRegistered(em: EntityManager, venueId: string): Promise<void> {
    const refused = await this.registeredVenues.refused(em, [venueId]);
    if (refused.length > 0)
      throw ApiError.validation([{ field: 'venueId', message: `venue ${venueId} is not registered` }]);
  }

  async list(
    caller: BatchCaller,
    venueId: string | undefined,
    page: { page: number; limit: number },
  ): Promise<{ data: BatchDto[]; pagination: PaginationDto }> {
    if (caller === null && venueId === undefined)
      throw ApiError.validation([{ field: 'venueId', message: 'venueId is required' }]);
    const venue = caller === null ? (venueId as string) : this.venueScope.resolveListVenue(caller, venueId);
    const now = this.clock.now();
    return this.database.run(async (em) => {
      const { total, batches } = await this.batches.findVenuePage(em, venue, pageWindow(page));
      return { data: batches.map((batch) => toBatchDto(batch, now)), pagination: paginationOf(page, total) };
    });
  }

  /** The batch and its accounts (no password); a batch outside the caller's venues is a 404. */
  async get(caller: BatchCaller, id: string): Promise<BatchDetailDto> {
    const now = this.clock.now();
    return this.database.run(async (em) => {
      const batch = await this.findVisible(em, caller, id, false);
      const accounts = await this.batches.findAccounts(em, batch.id);
      return { ...toBatchDto(batch, now), accounts: accounts.map(toBatchAccountDto) };
    });
  }

  /**
   * Seals every kept batch password anew under `to` (null: in clear), inside the caller's
   * transaction; returns how many. NasSecretUnavailableError when `from` cannot open one.
   */
  async resealPasswords(em: EntityManager, from: Buffer | null, to: Buffer | null): Promise<number> {
    const rows = await this.batches.listSealedPasswordsForUpdate(em, this.database.supportsRowLocks);
    for (const row of rows) {
      const sealed = resealSecret(row.sealedPassword, row.batchId, `batch ${row.batchId}`, from, to);
      await this.batches.replaceSealedPassword(em, row.userId, sealed);
    }
    return rows.length;
  }

  /**
   * The passwords, on cards: write permission, within the reveal window (which the first reveal
   * opens: 24 hours from it), audited as `batch.reveal`. Past the window the passwords are erased and
   * the answer is a 410. A caller's `claim` (the console's form token) is taken first and settled
   * last, in the same transaction.
   */
  async reveal(
    caller: BatchCaller,
    id: string,
    origin: AuditOrigin = NO_ORIGIN,
    claim: TransactionClaim<BatchDto> | null = null,
  ): Promise<BatchCardsDto> {
    if (caller !== null && !satisfies(caller.permissions, 'write')) throw ApiError.forbidden();
    const now = this.clock.now();
    const outcome = await this.database.transaction(async (em) => {
      await claim?.take(em);
      const batch = await this.findVisible(em, caller, id, true);
      const state = rules.revealState(batch, now);
      if (state.kind === 'closed') {
        if (!state.erased) await this.batches.erasePasswords(em, batch.id, now);
        return null;
      }
      if (batch.firstRevealedAt === null) {
        await this.batches.setFirstRevealed(em, batch.id, now);
        batch.firstRevealedAt = now;
      }
      await this.audit.record(em, {
        actor: auditActorOf(caller),
        action: 'batch.reveal',
        target: { type: 'batch', id: batch.id },
        venueIds: [batch.venueId],
        origin,
      });
      await claim?.settle(em, toBatchDto(batch, now));
      return this.sealedCards(em, batch);
    });
    if (outcome === null) throw new ApiError(410, PASSWORDS_GONE);
    return this.openCards(outcome, now);
  }

  /**
   * The cards of a batch the caller revealed a moment ago, read again (the console's cards page after
   * a reload, within its few minutes): no audit row and no window of its own, since the reveal that
   * the caller's page stands for has both; write permission and the venue scope as reveal; 410 past
   * the batch's window, or before any reveal.
   */
  async revealedCards(caller: BatchCaller, id: string): Promise<BatchCardsDto> {
    if (caller !== null && !satisfies(caller.permissions, 'write')) throw ApiError.forbidden();
    const now = this.clock.now();
    const outcome = await this.database.run(async (em) => {
      const batch = await this.findVisible(em, caller, id, false);
      if (batch.firstRevealedAt === null || rules.revealState(batch, now).kind === 'closed') return null;
      return this.sealedCards(em, batch);
    });
    if (outcome === null) throw new ApiError(410, PASSWORDS_GONE);
    return this.openCards(outcome, now);
  }

  private async sealedCards(em: EntityManager, batch: UserBatchEntity) {
    const accounts = await this.batches.findAccounts(em, batch.id);
    const sealed = new Map((await this.batches.findPasswords(em, batch.id)).map((row) => [row.userId, row]));
    return { batch, accounts, sealed };
  }

  private openCards(
    { batch, accounts, sealed }: Awaited<ReturnType<BatchesService['sealedCards']>>,
    now: Date,
  ): BatchCardsDto {
    const cards = accounts.flatMap((account) => {
      const row = sealed.get(account.id);
      if (row === undefined) return [];
      return [{ ...toBatchAccountDto(account), password: this.open(row.sealedPassword, batch.id) }];
    });
    return { batch: toBatchDto(batch, now), cards };
  }

  /** Erases the passwords of batches whose window has closed: the sweep's work; how many batches. */
  async eraseClosed(limit = 100): Promise<number> {
    const now = this.clock.now();
    const due = await this.database.run((em) => this.batches.findDueForErasure(em, rules.revealCutoff(now), limit));
    for (const id of due) await this.database.transaction((em) => this.batches.erasePasswords(em, id, now));
    return due.length;
  }

  private open(sealed: string, batchId: string): string {
    try {
      return openSecret(sealed, batchId, 'batch', this.key);
    } catch (error) {
      if (!(error instanceof NasSecretUnavailableError)) throw error;
      throw new ApiError(
        503,
        'The passwords of this batch were sealed with another SECRETS_KEY (or none is set): set the key they were stored with.',
      );
    }
  }

  private async findVisible(em: EntityManager, caller: BatchCaller, id: string, lock: boolean) {
    const batch = await this.batches.findBatch(em, id, lock);
    if (batch === null || (caller !== null && !this.venueScope.isInScope(caller, batch.venueId)))
      throw new ApiError(404, BATCH_NOT_FOUND);
    return batch;
  }
}

function auditActorOf(caller: BatchCaller): AuditActor {
  return caller === null ? CLI_ACTOR : actorOf(caller);
}
