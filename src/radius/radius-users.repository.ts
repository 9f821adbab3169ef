import { Injectable } from '@nestjs/common';
import { Brackets, type EntityManager } from 'typeorm';
import { usernameKey } from '../common/validation/normalise.js';
import { HotspotUserVenueEntity } from '../hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../hotspot-users/entities/hotspot-user.entity.js';
import { DeviceEntity } from '../sessions/entities/device.entity.js';

/** The user lookups of the FreeRADIUS back end; every method runs on the caller's EntityManager. */
@Injectable()
export class RadiusUsersRepository {
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
    const device = em
      .createQueryBuilder()
      .subQuery()
      .select('1')
      .from(DeviceEntity, 'd')
      .where('d.userId = u.id')
      .andWhere('d.macAddress = :mac')
      .getQuery();
    const row = await em
      .createQueryBuilder(HotspotUserEntity, 'u')
      .innerJoin(HotspotUserVenueEntity, 'uv', 'uv.userId = u.id AND uv.venueId = :venueId', { venueId })
      .where('u.loginMethod = :guest', { guest: 'guest' })
      .andWhere(new Brackets((either) => either.where('u.macAddress = :mac').orWhere(`EXISTS ${device}`)), { mac })
      .select('u.id', 'id')
      .addSelect("CASE WHEN u.status = 'active' THEN 0 ELSE 1 END", 'rank')
      .orderBy('rank', 'ASC')
      .addOrderBy('u.createdAt', 'DESC')
      .limit(1)
      .getRawOne<{ id: string }>();
    return row?.id ?? null;
  }
}
