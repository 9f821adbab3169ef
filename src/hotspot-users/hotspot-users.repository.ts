import { Injectable } from '@nestjs/common';
import { Brackets, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { ID_LENGTH } from '../database/columns.js';
import { DatabaseService } from '../database/database.service.js';
import { DeviceEntity } from '../sessions/entities/device.entity.js';
import { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity, type UserStatus } from './entities/hotspot-user.entity.js';
import { KEY_FIELDS, type KeyHolder, type UniquenessKeys } from './hotspot-user.rules.js';

/** A user with its venues in their stored order. */
export interface UserRecord {
  user: HotspotUserEntity;
  venueIds: string[];
}

export interface VenueListFilter {
  venueId: string;
  status?: UserStatus;
  /** Matches the user's own MAC address or one of its devices'. */
  macAddress: string | null;
}

/** The columns a venue row copies from its user, and its uniqueness keys. */
export type VenueRowFields = Pick<HotspotUserVenueEntity, 'position' | 'userStatus'> & UniquenessKeys;

/**
 * The SQL of hotspot users and their venue rows; every method runs on the caller's EntityManager
 * (its transaction, if any). The methods that lock do so on MySQL/MariaDB; on SQLite the
 * transaction already holds the database's write lock.
 */
@Injectable()
export class HotspotUsersRepository {
  constructor(private readonly database: DatabaseService) {}

  /** One page of a venue's users, newest first: their ids, and how many users match in all. */
  async findVenuePage(
    em: EntityManager,
    filter: VenueListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; userIds: string[] }> {
    const matching = em
      .createQueryBuilder(HotspotUserVenueEntity, 'uv')
      .where('uv.venueId = :venueId', { venueId: filter.venueId });
    if (filter.status !== undefined) matching.andWhere('uv.userStatus = :status', { status: filter.status });
    if (filter.macAddress !== null) {
      const withMac = (entity: typeof HotspotUserEntity | typeof DeviceEntity, alias: string, userColumn: string) =>
        `EXISTS ${matching
          .subQuery()
          .select('1')
          .from(entity, alias)
          .where(`${alias}.${userColumn} = uv.userId`)
          .andWhere(`${alias}.macAddress = :mac`)
          .getQuery()}`;
      matching.andWhere(
        new Brackets((either) =>
          either.where(withMac(HotspotUserEntity, 'u', 'id')).orWhere(withMac(DeviceEntity, 'd', 'userId')),
        ),
        { mac: filter.macAddress },
      );
    }
    const total = await matching.getCount();
    const rows = await matching
      .select('uv.userId', 'userId')
      .orderBy('uv.userCreatedAt', 'DESC')
      .addOrderBy('uv.userId', 'DESC')
      .limit(page.limit)
      .offset(page.offset)
      .getRawMany<{ userId: string }>();
    return { total, userIds: rows.map((row) => row.userId) };
  }

  findRecord(em: EntityManager, id: string): Promise<UserRecord | null> {
    return this.readRecord(em, id, false);
  }

  /**
   * The user locked for the caller's transaction (`SELECT … FOR UPDATE` on MySQL), with its venues;
   * null when there is none. Every change of a user's status and every session start locks this row
   * first, before any other read: on MySQL the venue rows are read from the snapshot the
   * transaction's first plain read takes, which must not predate the lock.
   */
  lockRecord(em: EntityManager, id: string): Promise<UserRecord | null> {
    return this.readRecord(em, id, true);
  }

  /** Users with their venues, in the order of `ids`; ids without a user are left out. Two queries. */
  async findRecords(em: EntityManager, ids: readonly string[]): Promise<UserRecord[]> {
    if (ids.length === 0) return [];
    const [users, venues] = await Promise.all([
      em.findBy(HotspotUserEntity, { id: In([...ids]) }),
      em.find(HotspotUserVenueEntity, { where: { userId: In([...ids]) }, order: { position: 'ASC' } }),
    ]);
    const usersById = new Map(users.map((user) => [user.id, user]));
    return ids.flatMap((id) => {
      const user = usersById.get(id);
      if (user === undefined) return [];
      return [{ user, venueIds: venues.filter((venue) => venue.userId === id).map((venue) => venue.venueId) }];
    });
  }

  /** Ids of users in one of `statuses` whose expiresAt is at or before `now`, soonest first (an indexed query). */
  async findIdsExpiringBy(
    em: EntityManager,
    statuses: readonly UserStatus[],
    now: Date,
    limit: number,
  ): Promise<string[]> {
    const users = await expiringBy(em.createQueryBuilder(HotspotUserEntity, 'user').select('user.id'), statuses, now)
      .orderBy('user.expiresAt', 'ASC')
      .limit(limit)
      .getMany();
    return users.map((user) => user.id);
  }

  /**
   * The user `id` with its venues, locked, if it is still in one of `statuses` with expiresAt at or
   * before `now`; null otherwise, and on MySQL also when another transaction holds its row (SKIP LOCKED).
   */
  async lockIfExpiringBy(
    em: EntityManager,
    id: string,
    statuses: readonly UserStatus[],
    now: Date,
  ): Promise<UserRecord | null> {
    const query = expiringBy(em.createQueryBuilder(HotspotUserEntity, 'user'), statuses, now).andWhere(
      'user.id = :id',
      { id },
    );
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    const user = await query.getOne();
    return user === null ? null : { user, venueIds: await this.venueIdsOf(em, id) };
  }

  /** Other users' venue rows, among `venueIds`, that hold one of `keys`. */
  findKeyHolders(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[],
    keys: UniquenessKeys,
  ): Promise<KeyHolder[]> {
    const present = KEY_FIELDS.filter(({ key }) => keys[key] !== null);
    if (present.length === 0 || venueIds.length === 0) return Promise.resolve([]);
    return em
      .createQueryBuilder(HotspotUserVenueEntity, 'uv')
      .where('uv.venueId IN (:...venueIds)', { venueIds })
      .andWhere('uv.userId <> :userId', { userId })
      .andWhere(
        new Brackets((any) => {
          for (const { key } of present) any.orWhere(`uv.${key} = :${key}`, { [key]: keys[key] });
        }),
      )
      .getMany();
  }

  async insert(em: EntityManager, user: HotspotUserEntity): Promise<void> {
    await em.insert(HotspotUserEntity, user);
  }

  async update(em: EntityManager, id: string, changes: Partial<HotspotUserEntity>): Promise<void> {
    await em.update(HotspotUserEntity, { id }, changes);
  }

  /** Venue rows, devices and sessions go with the user (ON DELETE CASCADE). */
  async delete(em: EntityManager, id: string): Promise<void> {
    await em.delete(HotspotUserEntity, { id });
  }

  async deleteVenueRows(em: EntityManager, userId: string, venueIds: readonly string[]): Promise<void> {
    if (venueIds.length === 0) return;
    await em.delete(HotspotUserVenueEntity, { userId, venueId: In([...venueIds]) });
  }

  async updateVenueRow(em: EntityManager, userId: string, venueId: string, fields: VenueRowFields): Promise<void> {
    await em.update(HotspotUserVenueEntity, { userId, venueId }, fields);
  }

  async insertVenueRows(em: EntityManager, rows: readonly HotspotUserVenueEntity[]): Promise<void> {
    if (rows.length === 0) return;
    await em.insert(HotspotUserVenueEntity, [...rows]);
  }

  private async readRecord(em: EntityManager, id: string, lock: boolean): Promise<UserRecord | null> {
    // Ids are opaque: anything that cannot be one is simply not found.
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const query = em.createQueryBuilder(HotspotUserEntity, 'user').where('user.id = :id', { id });
    if (lock && this.database.supportsRowLocks) query.setLock('pessimistic_write');
    const user = await query.getOne();
    return user === null ? null : { user, venueIds: await this.venueIdsOf(em, id) };
  }

  private async venueIdsOf(em: EntityManager, userId: string): Promise<string[]> {
    const venues = await em.find(HotspotUserVenueEntity, { where: { userId }, order: { position: 'ASC' } });
    return venues.map((venue) => venue.venueId);
  }
}

function expiringBy<T extends SelectQueryBuilder<HotspotUserEntity>>(
  query: T,
  statuses: readonly UserStatus[],
  now: Date,
): T {
  return query.where('user.status IN (:...statuses)', { statuses }).andWhere('user.expiresAt <= :now', { now });
}
