import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { Clock } from '../common/clock.js';
import { ApiError, type FieldError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { parseIsoDateTimeWithZone } from '../common/validation/iso-date-time.js';
import { normaliseMac, uniqueVenueIds } from '../common/validation/normalise.js';
import { ID_LENGTH } from '../database/columns.js';
import { DatabaseService } from '../database/database.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import type { CreateHotspotUserDto } from './dto/create-hotspot-user.dto.js';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  type ListHotspotUsersQueryDto,
  type VenueContextDto,
} from './dto/hotspot-user-queries.dto.js';
import type { HotspotUserDto, PaginationDto } from './dto/hotspot-user.response.js';
import type { UpdateHotspotUserDto } from './dto/update-hotspot-user.dto.js';
import { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { clashError, fieldOfDuplicateKeyError, KEY_FIELDS, keysOf, type UniquenessKeys } from './hotspot-user-keys.js';
import { toHotspotUserDto } from './hotspot-user.mapper.js';
import { PasswordHasher } from './password-hasher.js';

/** A user with its venues in their stored order. */
interface UserRecord {
  user: HotspotUserEntity;
  venueIds: string[];
}

export interface UserPage {
  data: HotspotUserDto[];
  pagination: PaginationDto;
}

export interface ExpireResult {
  expiredSessions: number;
  user: HotspotUserDto;
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
    private readonly sessions: SessionsService,
    private readonly unauthJobs: UnauthJobsService,
    private readonly passwords: PasswordHasher,
  ) {}

  async list(token: AuthenticatedToken, query: ListHotspotUsersQueryDto): Promise<UserPage> {
    const venueId = this.venueScope.resolveListVenue(token, query.venueId);
    const page = query.page === undefined ? DEFAULT_PAGE : Number(query.page);
    const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
    const macAddress = query.macAddress === undefined ? null : normaliseMac(query.macAddress);

    return this.database.run(async (em) => {
      const matching = em
        .createQueryBuilder(HotspotUserVenueEntity, 'uv')
        .where('uv.venueId = :venueId', { venueId });
      if (query.status !== undefined) matching.andWhere('uv.userStatus = :status', { status: query.status });
      if (macAddress !== null) {
        matching.andWhere(
          new Brackets((either) =>
            either
              .where('EXISTS (SELECT 1 FROM hotspot_users u WHERE u.id = uv.user_id AND u.mac_address = :mac)')
              .orWhere('EXISTS (SELECT 1 FROM devices d WHERE d.user_id = uv.user_id AND d.mac_address = :mac)'),
          ),
          { mac: macAddress },
        );
      }
      const total = await matching.getCount();
      const rows = await matching
        .select('uv.user_id', 'userId')
        .orderBy('uv.user_created_at', 'DESC')
        .addOrderBy('uv.user_id', 'DESC')
        .limit(limit)
        .offset((page - 1) * limit)
        .getRawMany<{ userId: string }>();
      const data = await this.loadDtos(em, rows.map((row) => row.userId));
      return { data, pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
    });
  }

  async get(token: AuthenticatedToken, id: string, context: VenueContextDto): Promise<HotspotUserDto> {
    this.assertContextInScope(token, context);
    return this.database.run(async (em) => {
      const record = await this.findRecord(em, id, { lock: false });
      if (record === null || !this.venueScope.canRead(token, record.venueIds)) throw ApiError.userNotFound();
      if (context.venueId !== undefined && !record.venueIds.includes(context.venueId)) throw ApiError.userNotFound();
      return this.toDto(em, record);
    });
  }

  async create(token: AuthenticatedToken, dto: CreateHotspotUserDto): Promise<HotspotUserDto> {
    const now = this.clock.now();
    const errors = this.expiryErrors(dto.loginMethod, dto.expiresAt, now);
    if (errors.length > 0) throw ApiError.validation(errors);
    const venueIds = uniqueVenueIds(dto.venueIds);
    this.venueScope.assertVenuesInScope(token, venueIds, 'venueIds');

    // Hashing is slow by design: it runs before the transaction, never inside it.
    const passwordHash = dto.password === undefined ? null : await this.passwords.hash(dto.password);
    const user = new HotspotUserEntity();
    user.id = newId();
    user.name = dto.name;
    user.username = dto.username ?? null;
    user.email = dto.email ?? null;
    user.phone = dto.phone ?? null;
    user.macAddress = dto.macAddress == null ? null : normaliseMac(dto.macAddress);
    user.loginMethod = dto.loginMethod;
    user.status = 'active';
    user.passwordHash = passwordHash;
    user.expiresAt = dto.expiresAt == null ? null : toInstant(dto.expiresAt);
    user.metadata = dto.metadata ?? {};
    user.createdAt = now;
    user.updatedAt = now;

    await this.answeringConflicts(user.id, () => venueIds, () => keysOf(user), () =>
      this.database.transaction(async (em) => {
        await this.assertNoClash(em, user.id, venueIds, keysOf(user));
        await em.insert(HotspotUserEntity, user);
        await this.writeVenues(em, user, [], venueIds);
      }),
    );
    return toHotspotUserDto(user, venueIds, []);
  }

  async update(
    token: AuthenticatedToken,
    id: string,
    context: VenueContextDto,
    dto: UpdateHotspotUserDto,
  ): Promise<HotspotUserDto> {
    this.assertContextInScope(token, context);
    const newVenueIds = dto.venueIds === undefined ? undefined : uniqueVenueIds(dto.venueIds);
    if (newVenueIds !== undefined) this.venueScope.assertVenuesInScope(token, newVenueIds, 'venueIds');
    const now = this.clock.now();

    let venueIds: string[] = [];
    let keys: UniquenessKeys | undefined;
    return this.answeringConflicts(id, () => venueIds, () => keys, () =>
      this.database.transaction(async (em) => {
        const record = await this.findChangeable(em, token, id, context);
        const { user } = record;
        // Expired is final: whatever the body, the edit is refused.
        if (user.status === 'expired') throw ApiError.expiredUserNotEditable();
        const errors = this.updateErrors(user, dto, now);
        if (errors.length > 0) throw ApiError.validation(errors);

        const previousStatus = user.status;
        applyChanges(user, dto);
        user.updatedAt = now;
        venueIds = newVenueIds ?? record.venueIds;
        keys = keysOf(user);
        await this.assertNoClash(em, user.id, venueIds, keys);
        await em.update(HotspotUserEntity, { id: user.id }, persistedFields(user));
        await this.writeVenues(em, user, record.venueIds, venueIds);

        const movedTo = dto.status !== previousStatus ? dto.status : undefined;
        if (movedTo === 'blocked' || movedTo === 'expired') {
          const ended = await this.sessions.endAllForUser(em, user.id, now);
          // A move into blocked or expired always tells the network side, sessions or not.
          await this.unauthJobs.enqueue(
            em,
            { userId: user.id, username: user.username, reason: movedTo, sessions: ended },
            now,
          );
        }
        return this.toDto(em, { user, venueIds });
      }),
    );
  }

  async remove(token: AuthenticatedToken, id: string, context: VenueContextDto): Promise<void> {
    this.assertContextInScope(token, context);
    await this.database.transaction(async (em) => {
      const { user } = await this.findChangeable(em, token, id, context);
      const now = this.clock.now();
      const ended = await this.sessions.endAllForUser(em, user.id, now);
      if (ended.length > 0) {
        await this.unauthJobs.enqueue(
          em,
          { userId: user.id, username: user.username, reason: 'deleted', sessions: ended },
          now,
        );
      }
      // Venue rows, devices and sessions go with it (ON DELETE CASCADE); the job stays.
      await em.delete(HotspotUserEntity, { id: user.id });
    });
  }

  /** Ends the user's active sessions in every venue and makes it expired; safe to repeat. */
  async expire(token: AuthenticatedToken, id: string, context: VenueContextDto): Promise<ExpireResult> {
    this.assertContextInScope(token, context);
    return this.database.transaction(async (em) => {
      const record = await this.findChangeable(em, token, id, context);
      const ended = await this.makeExpired(em, record, this.clock.now(), 'expired');
      return { expiredSessions: ended, user: await this.toDto(em, record) };
    });
  }

  /**
   * Expires users whose expiresAt has passed, each in its own transaction. The row is re-read
   * locked (SKIP LOCKED on MySQL) and re-checked, so instances sweeping at once never expire a user
   * twice nor write two jobs. Returns how many users this call expired.
   */
  async expireDue(limit: number): Promise<number> {
    const now = this.clock.now();
    const dueAt = (query: SelectQueryBuilder<HotspotUserEntity>) =>
      query
        .where('user.status IN (:...statuses)', { statuses: ['active', 'blocked'] })
        .andWhere('user.expiresAt <= :now', { now });
    const due = await this.database.run((em) =>
      dueAt(em.createQueryBuilder(HotspotUserEntity, 'user').select('user.id'))
        .orderBy('user.expiresAt', 'ASC')
        .limit(limit)
        .getMany(),
    );
    let expired = 0;
    for (const { id } of due) {
      const done = await this.database.transaction(async (em) => {
        const query = dueAt(em.createQueryBuilder(HotspotUserEntity, 'user')).andWhere('user.id = :id', { id });
        if (this.database.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
        const user = await query.getOne();
        if (user === null) return false;
        const venues = await em.find(HotspotUserVenueEntity, { where: { userId: id }, order: { position: 'ASC' } });
        await this.makeExpired(em, { user, venueIds: venues.map((venue) => venue.venueId) }, now, 'expiry');
        return true;
      });
      if (done) expired += 1;
    }
    return expired;
  }

  /**
   * The move into expired, inside the caller's transaction: sessions end, devices expire, the
   * uniqueness keys are released, and a job is written when sessions were active. Returns how many
   * sessions it ended.
   */
  private async makeExpired(
    em: EntityManager,
    record: UserRecord,
    now: Date,
    reason: 'expired' | 'expiry',
  ): Promise<number> {
    const { user } = record;
    const ended = await this.sessions.endAllForUser(em, user.id, now);
    user.status = 'expired';
    user.updatedAt = now;
    await em.update(HotspotUserEntity, { id: user.id }, { status: user.status, updatedAt: now });
    await this.writeVenues(em, user, record.venueIds, record.venueIds);
    if (ended.length > 0) {
      await this.unauthJobs.enqueue(em, { userId: user.id, username: user.username, reason, sessions: ended }, now);
    }
    return ended.length;
  }

  private assertContextInScope(token: AuthenticatedToken, context: VenueContextDto): void {
    if (context.venueId !== undefined) this.venueScope.assertVenuesInScope(token, [context.venueId], 'venueId');
  }

  /**
   * The user a change is about, locked for the transaction: 404 when it does not exist for this
   * token or is not in the given venue, 403 when the token does not cover all its venues. Taken
   * first, before any session or device: a session start takes the same lock first too
   * (SessionsService.lockUserForSessionStart), so the two run one after the other.
   */
  private async findChangeable(
    em: EntityManager,
    token: AuthenticatedToken,
    id: string,
    context: VenueContextDto,
  ): Promise<UserRecord> {
    const record = await this.findRecord(em, id, { lock: true });
    if (record === null) throw ApiError.userNotFound();
    this.venueScope.assertCanChange(token, record.venueIds);
    if (context.venueId !== undefined && !record.venueIds.includes(context.venueId)) throw ApiError.userNotFound();
    return record;
  }

  private async findRecord(em: EntityManager, id: string, options: { lock: boolean }): Promise<UserRecord | null> {
    // Ids are opaque: anything that cannot be one is simply not found.
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const query = em.createQueryBuilder(HotspotUserEntity, 'user').where('user.id = :id', { id });
    if (options.lock && this.database.supportsRowLocks) query.setLock('pessimistic_write');
    const user = await query.getOne();
    if (user === null) return null;
    const venues = await em.find(HotspotUserVenueEntity, { where: { userId: id }, order: { position: 'ASC' } });
    return { user, venueIds: venues.map((venue) => venue.venueId) };
  }

  private async toDto(em: EntityManager, record: UserRecord): Promise<HotspotUserDto> {
    const devices = await this.sessions.devicesOf(em, [record.user.id]);
    return toHotspotUserDto(record.user, record.venueIds, devices);
  }

  /** Users in the given order with venues and devices: three queries whatever the page size. */
  private async loadDtos(em: EntityManager, ids: string[]): Promise<HotspotUserDto[]> {
    if (ids.length === 0) return [];
    const [users, venues, devices] = await Promise.all([
      em.findBy(HotspotUserEntity, { id: In(ids) }),
      em.find(HotspotUserVenueEntity, { where: { userId: In(ids) }, order: { position: 'ASC' } }),
      this.sessions.devicesOf(em, ids),
    ]);
    const usersById = new Map(users.map((user) => [user.id, user]));
    return ids.flatMap((id) => {
      const user = usersById.get(id);
      if (user === undefined) return [];
      const venueIds = venues.filter((venue) => venue.userId === id).map((venue) => venue.venueId);
      return [toHotspotUserDto(user, venueIds, devices.filter((device) => device.userId === id))];
    });
  }

  /**
   * Writes the user's venue rows, which carry its status, creation time and uniqueness keys, going
   * from `storedVenueIds` (the rows that exist) to `venueIds`: rows that stay are updated in place,
   * only removed venues are deleted and only added ones inserted. Nothing is deleted that cannot
   * exist: on InnoDB a delete that matches no row still locks the index gap, and concurrent creates
   * (time-ordered ids land in the same gap) would deadlock each other.
   */
  private async writeVenues(
    em: EntityManager,
    user: HotspotUserEntity,
    storedVenueIds: readonly string[],
    venueIds: readonly string[],
  ): Promise<void> {
    const changing = (position: number) => ({ position, userStatus: user.status, ...keysOf(user) });
    const removed = storedVenueIds.filter((venueId) => !venueIds.includes(venueId));
    // Removed rows first, so the keys they held are free before anything else is written.
    if (removed.length > 0) await em.delete(HotspotUserVenueEntity, { userId: user.id, venueId: In(removed) });
    for (const [position, venueId] of venueIds.entries()) {
      if (storedVenueIds.includes(venueId)) {
        await em.update(HotspotUserVenueEntity, { userId: user.id, venueId }, changing(position));
      }
    }
    const added = venueIds.flatMap((venueId, position) =>
      storedVenueIds.includes(venueId)
        ? []
        : [{ userId: user.id, venueId, userCreatedAt: user.createdAt, ...changing(position) }],
    );
    if (added.length > 0) await em.insert(HotspotUserVenueEntity, added);
  }

  /** 409 with one entry per clash when another user holds one of these keys in one of these venues. */
  private async assertNoClash(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[],
    keys: UniquenessKeys,
  ): Promise<void> {
    const clashes = await this.findClashes(em, userId, venueIds, keys);
    if (clashes.length > 0) throw ApiError.conflict(clashes);
  }

  private async findClashes(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[],
    keys: UniquenessKeys,
  ): Promise<FieldError[]> {
    const present = KEY_FIELDS.filter(({ key }) => keys[key] !== null);
    if (present.length === 0 || venueIds.length === 0) return [];
    const rows = await em
      .createQueryBuilder(HotspotUserVenueEntity, 'uv')
      .where('uv.venueId IN (:...venueIds)', { venueIds })
      .andWhere('uv.userId <> :userId', { userId })
      .andWhere(
        new Brackets((any) => {
          for (const { key } of present) any.orWhere(`uv.${key} = :${key}`, { [key]: keys[key] });
        }),
      )
      .getMany();
    const errors: FieldError[] = [];
    for (const venueId of venueIds) {
      for (const { field, key } of present) {
        if (rows.some((row) => row.venueId === venueId && row[key] === keys[key])) errors.push(clashError(field, venueId));
      }
    }
    return errors;
  }

  /**
   * The unique indexes are the real guard: when a concurrent request wins the race between the
   * check and the insert, the duplicate-key error still becomes a 409 naming the clash.
   */
  private async answeringConflicts<T>(
    userId: string,
    venueIds: () => readonly string[],
    keys: () => UniquenessKeys | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const currentKeys = keys();
      const clashes =
        currentKeys === undefined
          ? []
          : await this.database.run((em) => this.findClashes(em, userId, venueIds(), currentKeys));
      if (clashes.length > 0) throw ApiError.conflict(clashes);
      const field = fieldOfDuplicateKeyError(error) ?? 'username';
      throw ApiError.conflict([{ field, message: `${field} already used in one of the user's venues` }]);
    }
  }

  private expiryErrors(loginMethod: string, expiresAt: string | null | undefined, now: Date): FieldError[] {
    if (expiresAt == null) return [];
    if (loginMethod !== 'username_password') {
      return [{ field: 'expiresAt', message: 'expiresAt applies to username_password users only' }];
    }
    if (toInstant(expiresAt).getTime() <= now.getTime()) {
      return [{ field: 'expiresAt', message: 'expiresAt must lie in the future' }];
    }
    return [];
  }

  /** Rules that depend on the stored user, checked before anything changes. */
  private updateErrors(user: HotspotUserEntity, dto: UpdateHotspotUserDto, now: Date): FieldError[] {
    const errors = this.expiryErrors(user.loginMethod, dto.expiresAt, now);
    if (user.loginMethod === 'username_password' && (dto.username === null || dto.username === '')) {
      errors.push({ field: 'username', message: 'username cannot be removed from a username_password user' });
    }
    return errors;
  }
}

/** Copies the fields a PUT may change; each is named, so nothing else in the body can reach the row. */
function applyChanges(user: HotspotUserEntity, dto: UpdateHotspotUserDto): void {
  if (dto.name !== undefined) user.name = dto.name;
  if (dto.username !== undefined) user.username = dto.username === '' ? null : dto.username;
  if (dto.email !== undefined) user.email = dto.email;
  if (dto.phone !== undefined) user.phone = dto.phone;
  if (dto.expiresAt !== undefined) user.expiresAt = dto.expiresAt === null ? null : toInstant(dto.expiresAt);
  if (dto.metadata !== undefined) user.metadata = dto.metadata;
  if (dto.status !== undefined) user.status = dto.status;
}

/** For a value the DTO has already validated as an ISO date-time with a zone. */
function toInstant(isoDateTime: string): Date {
  const instant = parseIsoDateTimeWithZone(isoDateTime);
  if (instant === null) throw new Error(`unvalidated date-time: ${isoDateTime}`);
  return instant;
}

function persistedFields(user: HotspotUserEntity): Partial<HotspotUserEntity> {
  return {
    name: user.name,
    username: user.username,
    email: user.email,
    phone: user.phone,
    expiresAt: user.expiresAt,
    metadata: user.metadata,
    status: user.status,
    updatedAt: user.updatedAt,
  };
}
