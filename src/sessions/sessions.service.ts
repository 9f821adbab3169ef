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
import { decideSessionStart, type SessionStartCandidate } from './session-start-rule.js';

export interface StartSessionInput {
  userId: string;
  venueId: string;
  macAddress: string;
  ipAddress?: string | null;
  nasId?: string | null;
}

/** A user locked for a session start: what the rule decides on, and the row itself. */
export interface LockedUser extends SessionStartCandidate {
  user: HotspotUserEntity;
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

  /** Starts a session in a transaction of its own (the session CLI). */
  start(input: StartSessionInput): Promise<SessionEntity> {
    return this.database.transaction((em) => this.startInTransaction(em, input));
  }

  /**
   * Starts a session inside the caller's transaction: locks the user's row, decides whether the
   * session may start (see decideSessionStart), records the device and inserts the session.
   * Throws SessionRequestError when refused. Call it before any other read in that transaction
   * (see lockUserForSessionStart).
   */
  async startInTransaction(em: EntityManager, input: StartSessionInput): Promise<SessionEntity> {
    const macAddress = normaliseMac(input.macAddress);
    if (macAddress === null) throw new SessionRequestError(`not a MAC address: ${input.macAddress}`);
    const locked = await this.lockUserForSessionStart(em, input.userId);
    const decision = decideSessionStart(input.userId, locked, input.venueId);
    if (!decision.allowed) throw new SessionRequestError(decision.message);

    const userId = decision.user.id;
    const now = this.clock.now();
    await this.recordDevice(em, userId, macAddress, now);
    const session = new SessionEntity();
    session.id = newId();
    session.userId = userId;
    session.venueId = input.venueId;
    session.macAddress = macAddress;
    session.ipAddress = input.ipAddress ?? null;
    session.nasId = input.nasId ?? null;
    session.status = 'active';
    session.startedAt = now;
    session.endedAt = null;
    await em.insert(SessionEntity, session);
    return session;
  }

  /**
   * Locks the user's row for the caller's transaction and reads it with its venue ids; null when
   * there is no such user. Every change of a user's status locks this row first too, so a session
   * start and a status change on the same user run one after the other: a block, expiry or delete
   * that commits first is seen here, and one that comes later finds and ends this session. MySQL
   * takes `SELECT … FOR UPDATE`; on SQLite the transaction already holds the database's write lock.
   * Call it before any other read in the transaction: on MySQL the venue rows are read from the
   * snapshot the transaction's first plain read takes, which must not predate the lock.
   */
  async lockUserForSessionStart(em: EntityManager, userId: string): Promise<LockedUser | null> {
    const query = em.createQueryBuilder(HotspotUserEntity, 'user').where('user.id = :id', { id: userId });
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write');
    const user = await query.getOne();
    if (user === null) return null;
    const venues = await em.find(HotspotUserVenueEntity, { where: { userId: user.id }, order: { position: 'ASC' } });
    return { id: user.id, status: user.status, venueIds: venues.map((venue) => venue.venueId), user };
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
   * Returns the sessions it ended, for the unauth job. The caller has locked the user's row first,
   * before any other read (as lockUserForSessionStart does for a start), so every session started
   * before that lock was granted is seen here and none can start until the caller commits.
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
