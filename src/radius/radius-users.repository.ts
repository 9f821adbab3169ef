import { Injectable } from '@nestjs/common';
import { Brackets, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { usernameKey } from '../common/validation/normalise.js';
import { HotspotUserVenueEntity } from '../hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity, type LoginMethod, type UserStatus } from '../hotspot-users/entities/hotspot-user.entity.js';
import { DeviceEntity } from '../sessions/entities/device.entity.js';
import { SessionEntity } from '../sessions/entities/session.entity.js';

/** What a login needs to know of a user, read in one query. */
export interface LoginUser {
  id: string;
  loginMethod: LoginMethod;
  passwordHash: string | null;
  status: UserStatus;
  expiresAt: Date | null;
  /** Whether the user belongs to the venue asked about. */
  inVenue: boolean;
  /** Its active sessions with an accounting update at or after `recentSince`; 0 when none was given. */
  recentSessions: number;
}

/** The user lookups of the FreeRADIUS back end; every method runs on the caller's EntityManager. */
@Injectable()
export class RadiusUsersRepository {
  /**
   * The user holding `username` (case-insensitive, like the uniqueness key) in `venueId`, with its
   * recent sessions counted when `recentSince` is given; else the one holding it in another venue
   * (for the message; its sessions are not counted). One query, two when the name is not in the
   * venue; null when no venue has it. Expired users have released their names and are not found.
   */
  async findLoginByUsername(
    em: EntityManager,
    username: string,
    venueId: string,
    recentSince: Date | null,
  ): Promise<LoginUser | null> {
    const key = usernameKey(username);
    if (key.length > 64) return null;
    const here = await loginQuery(em, recentSince)
      .innerJoin(HotspotUserVenueEntity, 'uv', 'uv.userId = u.id AND uv.venueId = :venueId AND uv.usernameKey = :key', {
        venueId,
        key,
      })
      .getRawAndEntities();
    if (here.entities.length > 0) return loginUser(here, true);
    const elsewhere = await loginQuery(em, null)
      .innerJoin(HotspotUserVenueEntity, 'uv', 'uv.userId = u.id AND uv.usernameKey = :key', { key })
      .orderBy('uv.userId', 'ASC')
      .limit(1)
      .getRawAndEntities();
    return elsewhere.entities.length > 0 ? loginUser(elsewhere, false) : null;
  }

  /**
   * The guest of `venueId` registered with this MAC (its own, or one of its devices'): an active one
   * first, then the newest; with its recent sessions counted when `recentSince` is given. One query;
   * null when there is none.
   */
  async findGuestLoginByMac(
    em: EntityManager,
    venueId: string,
    mac: string,
    recentSince: Date | null,
  ): Promise<LoginUser | null> {
    const found = await guestsWithMac(loginQuery(em, recentSince), venueId, mac).getRawAndEntities();
    return found.entities.length > 0 ? loginUser(found, true) : null;
  }

  /**
   * The id of the user holding `username` (case-insensitive, like the uniqueness key) in `venueId`, or
   * else in any venue; null when none does. Expired users have released their names and are not found.
   */
  async findIdByUsername(
    em: EntityManager,
    username: string,
    venueId: string,
  ): Promise<{ userId: string; inVenue: boolean } | null> {
    const key = usernameKey(username);
    if (key.length > 64) return null;
    const here = await em.findOneBy(HotspotUserVenueEntity, { venueId, usernameKey: key });
    if (here !== null) return { userId: here.userId, inVenue: true };
    const elsewhere = await em.findOne(HotspotUserVenueEntity, {
      where: { usernameKey: key },
      order: { userId: 'ASC' },
    });
    return elsewhere === null ? null : { userId: elsewhere.userId, inVenue: false };
  }

  /**
   * The guest of `venueId` registered with this MAC (its own, or one of its devices'): an active one
   * first, then the newest. Null when there is none.
   */
  async findGuestIdByMac(em: EntityManager, venueId: string, mac: string): Promise<string | null> {
    const query = guestsWithMac(em.createQueryBuilder(HotspotUserEntity, 'u').select('u.id', 'id'), venueId, mac);
    const row = await query.getRawOne<{ id: string }>();
    return row?.id ?? null;
  }
}

/** The columns of a user a login reads, and its recent sessions counted when `recentSince` is given. */
function loginQuery(em: EntityManager, recentSince: Date | null): SelectQueryBuilder<HotspotUserEntity> {
  const query = em
    .createQueryBuilder(HotspotUserEntity, 'u')
    .select(['u.id', 'u.loginMethod', 'u.passwordHash', 'u.status', 'u.expiresAt']);
  if (recentSince === null) return query;
  return query.addSelect(
    (count) =>
      count
        .select('COUNT(*)')
        .from(SessionEntity, 's')
        .where('s.userId = u.id')
        .andWhere('s.status = :active', { active: 'active' })
        .andWhere('s.lastAccountingAt >= :recentSince', { recentSince }),
    'recent_sessions',
  );
}

function loginUser(
  found: { entities: HotspotUserEntity[]; raw: Array<{ recent_sessions?: number | string }> },
  inVenue: boolean,
): LoginUser {
  const [user] = found.entities;
  return {
    id: user.id,
    loginMethod: user.loginMethod,
    passwordHash: user.passwordHash,
    status: user.status,
    expiresAt: user.expiresAt,
    inVenue,
    recentSessions: Number(found.raw[0]?.recent_sessions ?? 0),
  };
}

/** `query` (over users `u`) narrowed to the first guest of `venueId` with this MAC: an active one first, then the newest. */
function guestsWithMac<T extends SelectQueryBuilder<HotspotUserEntity>>(query: T, venueId: string, mac: string): T {
  const device = query
    .subQuery()
    .select('1')
    .from(DeviceEntity, 'd')
    .where('d.userId = u.id')
    .andWhere('d.macAddress = :mac')
    .getQuery();
  return query
    .innerJoin(HotspotUserVenueEntity, 'uv', 'uv.userId = u.id AND uv.venueId = :venueId', { venueId })
    .where('u.loginMethod = :guest', { guest: 'guest' })
    .andWhere(new Brackets((either) => either.where('u.macAddress = :mac').orWhere(`EXISTS ${device}`)), { mac })
    .orderBy("CASE WHEN u.status = 'active' THEN 0 ELSE 1 END", 'ASC')
    .addOrderBy('u.createdAt', 'DESC')
    .limit(1);
}
