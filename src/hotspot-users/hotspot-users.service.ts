import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service.js';
import { actorOf, changedFieldNames, SYSTEM_ACTOR, userUpdateAction, type AuditOrigin } from '../audit/audit.rules.js';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { Clock } from '../common/clock.js';
import { ApiError } from '../common/errors/api-error.js';
import { newId } from '../common/ids.js';
import { pageWindow, paginationOf } from '../common/pagination.js';
import { DatabaseService } from '../database/database.service.js';
import { PlansService } from '../plans/plans.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import { IdempotencyService, type IdempotentCall } from '../idempotency/idempotency.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { RegisteredVenuesCheck } from '../venues/registered-venues-check.js';
import type { VenueContextDto } from './dto/hotspot-user-queries.dto.js';
import type { HotspotUserDto, PaginationDto } from './dto/hotspot-user.response.js';
import type { UserSessionDto } from './dto/hotspot-user-sessions.dto.js';
import type { CreateUserInput, ListUsersQuery, SessionsQuery, UpdateUserInput } from './hotspot-user.inputs.js';
import { toHotspotUserDto, toUserSessionDto } from './hotspot-user.mapper.js';
import * as rules from './hotspot-user.rules.js';
import { HotspotUserWriter } from './hotspot-user.writer.js';
import { HotspotUsersRepository, type ShownRecord, type UserRecord } from './hotspot-users.repository.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import { UserAccess, type Precondition } from './user-access.js';
import { UserSessionEndings } from './user-session-endings.js';

export interface UserPage {
  data: HotspotUserDto[];
  pagination: PaginationDto;
}

export interface ExpireResult {
  expiredSessions: number;
  user: HotspotUserDto;
}

/** A result with the version of the user it is about (its ETag). */
export interface Versioned<T> {
  data: T;
  version: number;
}

/** The ids of the unauth jobs a change wrote (none when it ended no session and sent no CoA). */
export interface WroteJobs {
  unauthJobIds: string[];
}

/**
 * The hotspot users use cases. Each change is one transaction holding the user's row, its venue
 * rows (with the uniqueness keys the database enforces), the sessions it ends and the unauth job
 * that tells the network side.
 */
@Injectable()
export class HotspotUsersService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly venueScope: VenueScopeService,
    private readonly users: HotspotUsersRepository,
    private readonly access: UserAccess,
    private readonly writer: HotspotUserWriter,
    private readonly endings: UserSessionEndings,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordHasher,
    private readonly idempotency: IdempotencyService,
    private readonly audit: AuditService,
    private readonly registeredVenues: RegisteredVenuesCheck,
    private readonly plans: PlansService,
  ) {}

  async list(token: Actor, query: ListUsersQuery): Promise<UserPage> {
    const venueId = this.venueScope.resolveListVenue(token, query.venueId);
    return this.database.run(async (em) => {
      const { status, macAddress, search, batchId, excludeBatches } = query;
      if (search !== null && batchId != null)
        throw ApiError.validation([{ field: 'batchId', message: 'batchId cannot be combined with q' }]);
      if (excludeBatches === true && (search !== null || batchId != null))
        throw ApiError.validation([
          { field: 'batchAccounts', message: 'batchAccounts=exclude cannot be combined with q or batchId' },
        ]);
      const filter = { venueId, status, macAddress, search, batchId, excludeBatches };
      const { total, records } = await this.users.findVenuePage(em, filter, pageWindow(query));
      return { data: records.map(toDto), pagination: paginationOf(query, total) };
    });
  }

  async get(token: Actor, id: string, context: VenueContextDto): Promise<Versioned<HotspotUserDto>> {
    this.access.assertContextInScope(token, context);
    return this.database.run(async (em) => {
      const [record] = await this.users.findShownRecords(em, [id]);
      this.access.assertReadable(token, record, context);
      return { data: toDto(record), version: record.user.version };
    });
  }

  /** A page of the user's sessions in the actor's venues, under the same venue rules as get. */
  async sessionsOf(
    token: Actor,
    id: string,
    query: SessionsQuery,
  ): Promise<{ data: UserSessionDto[]; pagination: PaginationDto }> {
    this.access.assertContextInScope(token, query);
    return this.database.run(async (em) => {
      await this.access.findReadable(em, token, id, query);
      // Only the sessions in the actor's venues: a user in two venues is seen from each separately.
      const { total, sessions } = await this.sessions.pageOfUser(
        em,
        id,
        token.venueIds,
        query.ended,
        pageWindow(query),
      );
      return { data: sessions.map(toUserSessionDto), pagination: paginationOf(query, total) };
    });
  }

  /**
   * With an Idempotency-Key (`idempotency`), the key is taken first in the transaction and the answer
   * written last, so the user, the key, its answer and the audit event commit together; a caller's
   * `claim` (the console's form token) the same way.
   */
  async create(
    token: Actor,
    input: CreateUserInput,
    origin: AuditOrigin,
    idempotency: IdempotentCall<Versioned<HotspotUserDto>> | null = null,
    claim: TransactionClaim<Versioned<HotspotUserDto>> | null = null,
  ): Promise<Versioned<HotspotUserDto>> {
    const now = this.clock.now();
    const errors = rules.expiryErrors(input.loginMethod, input.expiresAt, now, input.validFor);
    if (errors.length > 0) throw ApiError.validation(errors);
    this.venueScope.assertVenuesInScope(token, input.venueIds, 'venueIds');
    // Hashing is slow by design: it runs before the transaction, never inside it.
    const passwordHash = input.password === null ? null : await this.passwords.hash(input.password);
    const user = rules.newUser(input, newId(), passwordHash, now);
    return this.writer.answeringConflicts(() =>
      this.database.transaction(async (em) => {
        await claim?.take(em);
        await this.idempotency.reserve(em, idempotency);
        await this.assertVenuesRegistered(em, input.venueIds);
        if (input.planId !== null) await this.plans.assertOffered(em, input.planId, input.venueIds, 'planId');
        await this.writer.insert(em, user, input.venueIds);
        await this.audit.record(em, {
          actor: actorOf(token),
          action: 'user.create',
          target: { type: 'user', id: user.id },
          venueIds: input.venueIds,
          origin,
        });
        const created = { data: toHotspotUserDto(user, input.venueIds, []), version: user.version };
        await this.idempotency.complete(em, idempotency, created);
        await claim?.settle(em, created);
        return created;
      }),
    );
  }

  /** With VENUES_REGISTERED_ONLY, a 400 naming venueIds when it holds a venue id without a registry entry. */
  private async assertVenuesRegistered(em: EntityManager, venueIds: readonly string[]): Promise<void> {
    const refused = await this.registeredVenues.refused(em, venueIds);
    if (refused.length === 0) return;
    throw ApiError.validation([
      { field: 'venueIds', message: `venueIds holds venue ids that are not registered: ${refused.join(', ')}` },
    ]);
  }

  async update(
    token: Actor,
    id: string,
    context: VenueContextDto,
    input: UpdateUserInput,
    origin: AuditOrigin,
    precondition: Precondition = null,
    claim: TransactionClaim<Versioned<HotspotUserDto> & WroteJobs> | null = null,
  ): Promise<Versioned<HotspotUserDto> & WroteJobs> {
    this.access.assertContextInScope(token, context);
    if (input.venueIds !== undefined) this.venueScope.assertVenuesInScope(token, input.venueIds, 'venueIds');
    const now = this.clock.now();
    return this.writer.answeringConflicts(() =>
      this.database.transaction(async (em) => {
        await claim?.take(em);
        const stored = await this.access.findChangeable(em, token, id, context, precondition);
        const move = rules.statusMove(stored.user.status, input.status);
        if (move.kind === 'refused') throw ApiError.expiredUserNotEditable();
        const errors = rules.updateErrors(stored.user, input, now);
        if (errors.length > 0) throw ApiError.validation(errors);
        if (input.venueIds !== undefined) await this.assertVenuesRegistered(em, input.venueIds);

        const { user, changes } = rules.appliedUpdate(stored.user, input, now);
        const venueIds = input.venueIds ?? stored.venueIds;
        // The plan must be offered in every venue of the user, whether the plan or the venues change.
        if (user.planId !== null && (input.planId !== undefined || input.venueIds !== undefined)) {
          await this.plans.assertOffered(em, user.planId, venueIds, input.planId !== undefined ? 'planId' : 'venueIds');
        }
        await this.writer.update(em, user, changes, stored, venueIds);
        const unauthJobIds: string[] = [];
        if (move.kind === 'moved' && move.ending !== null) {
          unauthJobIds.push(...(await this.endings.endSessions(em, user, move.ending, now)).unauthJobIds);
        } else {
          const removed = rules.removedVenues(stored.venueIds, venueIds);
          unauthJobIds.push(...(await this.endings.leaveVenues(em, user, removed, now)));
          if (input.expiresAt !== undefined)
            unauthJobIds.push(...(await this.endings.followExpiry(em, stored.user, user, now)));
        }
        await this.audit.record(em, {
          actor: actorOf(token),
          action: userUpdateAction(stored.user.status, user.status),
          target: { type: 'user', id: user.id },
          // Venues it left too: the change concerns them.
          venueIds: [...stored.venueIds, ...venueIds],
          changedFields: changedFieldNames({ ...stored.user, venueIds: stored.venueIds }, { ...input }, ['venueIds']),
          origin,
        });
        const [dto] = await this.toDtos(em, [{ user, venueIds }]);
        const updated = { data: dto, version: user.version, unauthJobIds };
        await claim?.settle(em, updated);
        return updated;
      }),
    );
  }

  async remove(
    token: Actor,
    id: string,
    context: VenueContextDto,
    origin: AuditOrigin,
    precondition: Precondition = null,
    claim: TransactionClaim<WroteJobs> | null = null,
  ): Promise<WroteJobs> {
    this.access.assertContextInScope(token, context);
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const stored = await this.access.findChangeable(em, token, id, context, precondition);
      const now = this.clock.now();
      const { unauthJobIds } = await this.endings.endSessions(em, stored.user, rules.ENDINGS.deleted, now);
      // Venue rows, devices and sessions go with it; the job stays.
      await this.writer.delete(em, stored);
      await this.audit.record(em, {
        actor: actorOf(token),
        action: 'user.delete',
        target: { type: 'user', id: stored.user.id },
        venueIds: stored.venueIds,
        origin,
      });
      await claim?.settle(em, { unauthJobIds });
      return { unauthJobIds };
    });
  }

  /** Ends the user's active sessions in every venue and makes it expired; safe to repeat. */
  async expire(
    token: Actor,
    id: string,
    context: VenueContextDto,
    origin: AuditOrigin,
    precondition: Precondition = null,
    idempotency: IdempotentCall<Versioned<ExpireResult> & WroteJobs> | null = null,
    claim: TransactionClaim<Versioned<ExpireResult> & WroteJobs> | null = null,
  ): Promise<Versioned<ExpireResult> & WroteJobs> {
    this.access.assertContextInScope(token, context);
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      await this.idempotency.reserve(em, idempotency);
      const stored = await this.access.findChangeable(em, token, id, context, precondition);
      const { ended, unauthJobIds, record } = await this.endings.makeExpired(
        em,
        stored,
        rules.ENDINGS.expiredByRequest,
        this.clock.now(),
      );
      await this.audit.record(em, {
        actor: actorOf(token),
        action: 'user.expire',
        target: { type: 'user', id: record.user.id },
        venueIds: record.venueIds,
        origin,
      });
      const [user] = await this.toDtos(em, [record]);
      const expired = { data: { expiredSessions: ended, user }, version: record.user.version, unauthJobIds };
      await this.idempotency.complete(em, idempotency, expired);
      await claim?.settle(em, expired);
      return expired;
    });
  }

  /**
   * Expires users whose expiresAt has passed, each in its own transaction. The row is re-read
   * locked (SKIP LOCKED on MySQL) and re-checked, so instances sweeping at once never expire a user
   * twice nor write two jobs. Returns how many users this call expired.
   */
  async expireDue(limit: number): Promise<number> {
    const now = this.clock.now();
    const statuses = rules.EXPIRING_STATUSES;
    const due = await this.database.run((em) => this.users.findIdsExpiringBy(em, statuses, now, limit));
    let expired = 0;
    for (const id of due) {
      const done = await this.database.transaction(async (em) => {
        const record = await this.users.lockIfExpiringBy(em, id, statuses, now);
        if (record === null) return false;
        await this.endings.makeExpired(em, record, rules.ENDINGS.expiredBySweep, now);
        await this.audit.record(em, {
          actor: SYSTEM_ACTOR,
          action: 'user.expire',
          target: { type: 'user', id: record.user.id },
          venueIds: record.venueIds,
        });
        return true;
      });
      if (done) expired += 1;
    }
    return expired;
  }

  /** The API's users with their devices: one more query, whatever the number of users. */
  private async toDtos(em: EntityManager, records: readonly UserRecord[]): Promise<HotspotUserDto[]> {
    const devices = await this.sessions.devicesOf(
      em,
      records.map(({ user }) => user.id),
    );
    const devicesOf = (userId: string) => devices.filter((device) => device.userId === userId);
    return records.map(({ user, venueIds }) => toHotspotUserDto(user, venueIds, devicesOf(user.id)));
  }
}

function toDto({ user, venueIds, devices }: ShownRecord): HotspotUserDto {
  return toHotspotUserDto(user, venueIds, devices);
}
