import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { normaliseMac } from '../common/validation/normalise.js';
import { DatabaseService } from '../database/database.service.js';
import { HotspotUserVenueEntity } from '../hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../hotspot-users/entities/hotspot-user.entity.js';
import { DeviceEntity } from './entities/device.entity.js';
import { SessionEntity } from './entities/session.entity.js';

export interface StartSessionInput {
  userId: string;
  venueId: string;
  macAddress: string;
  ipAddress?: string | null;
  nasId?: string | null;
}

/** A session request the service cannot honour (unknown user, inactive user, bad MAC…). */
export class SessionRequestError extends Error {
  override name = 'SessionRequestError';
}

/**
 * Sessions are reported by the network side (captive portal or NAS). Starting one records the
 * device the user came in on.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
  ) {}

  async start(input: StartSessionInput): Promise<SessionEntity> {
    const macAddress = normaliseMac(input.macAddress);
    if (macAddress === null) throw new SessionRequestError(`not a MAC address: ${input.macAddress}`);
    return this.database.transaction(async (em) => {
      const user = await em.findOneBy(HotspotUserEntity, { id: input.userId });
      if (user === null) throw new SessionRequestError(`no user ${input.userId}`);
      if (user.status !== 'active') throw new SessionRequestError(`user ${user.id} is ${user.status}`);
      const inVenue = await em.existsBy(HotspotUserVenueEntity, { userId: user.id, venueId: input.venueId });
      if (!inVenue) throw new SessionRequestError(`user ${user.id} does not belong to venue ${input.venueId}`);

      const now = this.clock.now();
      await this.recordDevice(em, user.id, macAddress, now);
      const session = new SessionEntity();
      session.id = newId();
      session.userId = user.id;
      session.venueId = input.venueId;
      session.macAddress = macAddress;
      session.ipAddress = input.ipAddress ?? null;
      session.nasId = input.nasId ?? null;
      session.status = 'active';
      session.startedAt = now;
      session.endedAt = null;
      await em.insert(SessionEntity, session);
      return session;
    });
  }

  /** Ends a session as the network side reports it; the device was seen until now. */
  async stop(sessionId: string): Promise<SessionEntity> {
    return this.database.transaction(async (em) => {
      const session = await em.findOneBy(SessionEntity, { id: sessionId });
      if (session === null) throw new SessionRequestError(`no session ${sessionId}`);
      if (session.status !== 'active') return session;
      const now = this.clock.now();
      session.status = 'stopped';
      session.endedAt = now;
      await em.update(SessionEntity, { id: session.id }, { status: session.status, endedAt: now });
      await em.update(
        DeviceEntity,
        { userId: session.userId, macAddress: session.macAddress },
        { lastSeenAt: now },
      );
      return session;
    });
  }

  /**
   * Ends every active session of a user and expires its devices, inside the caller's transaction.
   * Returns the sessions it ended, for the unauth job.
   */
  async endAllForUser(em: EntityManager, userId: string, now: Date): Promise<SessionEntity[]> {
    const active = await em.findBy(SessionEntity, { userId, status: 'active' });
    if (active.length > 0) {
      await em.update(SessionEntity, { id: In(active.map((s) => s.id)) }, { status: 'expired', endedAt: now });
      for (const session of active) {
        session.status = 'expired';
        session.endedAt = now;
      }
    }
    await em.update(DeviceEntity, { userId, status: 'active' }, { status: 'expired' });
    return active;
  }

  /** Devices of several users at once (one query, whatever the number of users). */
  devicesOf(em: EntityManager, userIds: readonly string[]): Promise<DeviceEntity[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return em.findBy(DeviceEntity, { userId: In([...userIds]) });
  }

  private async recordDevice(em: EntityManager, userId: string, macAddress: string, now: Date): Promise<void> {
    const device = await em.findOneBy(DeviceEntity, { userId, macAddress });
    if (device !== null) {
      await em.update(DeviceEntity, { id: device.id }, { status: 'active', lastSeenAt: now });
      return;
    }
    await em.insert(DeviceEntity, {
      id: newId(),
      userId,
      macAddress,
      name: null,
      status: 'active',
      firstSeenAt: now,
      lastSeenAt: now,
    });
  }
}
