import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLI_ACTOR, type AuditActor } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import { DevicesRepository } from './devices.repository.js';
import type { DeviceEntity } from './entities/device.entity.js';
import type { SessionEntity } from './entities/session.entity.js';
import {
  ENDED_BY_SERVICE,
  endedByService,
  newDevice,
  newSession,
  stoppedSession,
  type SessionOpening,
} from './session.rules.js';
import { SessionsRepository } from './sessions.repository.js';

/** A session start as the network side (or the session CLI) asks for it; the MAC address in any accepted form. */
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
 * Sessions and devices, as the network side (captive portal or NAS) reports them. Whether a user may
 * start a session is decided above, by the hotspot users (UserSessionsService), which then calls open.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly sessions: SessionsRepository,
    private readonly devices: DevicesRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Records a session the caller has allowed, inside its transaction (which holds the user's row),
   * and the device it came in on: a known device becomes active again and is seen now.
   */
  async open(em: EntityManager, opening: SessionOpening, now: Date): Promise<SessionEntity> {
    const device = await this.devices.findOne(em, opening.userId, opening.macAddress);
    if (device === null) await this.devices.insert(em, newDevice(opening.userId, opening.macAddress, newId(), now));
    else await this.devices.markActive(em, device.id, now);
    const session = newSession(opening, newId(), now);
    await this.sessions.insert(em, session);
    return session;
  }

  /**
   * Ends a session as the network side reports it; the device was seen until now. Safe to repeat:
   * only the call that ends it records session.disconnect for `actor` (the command line unless said otherwise).
   */
  stop(sessionId: string, actor: AuditActor = CLI_ACTOR): Promise<SessionEntity> {
    return this.database.transaction(async (em) => {
      const session = await this.sessions.lockById(em, sessionId);
      if (session === null) throw new SessionRequestError(`no session ${sessionId}`);
      const now = this.clock.now();
      const stopped = stoppedSession(session, now);
      if (stopped === null) return session;
      await this.sessions.end(em, [stopped.id], stopped.status, now);
      await this.devices.markSeen(em, stopped.userId, stopped.macAddress, now);
      await this.audit.record(em, {
        actor,
        action: 'session.disconnect',
        target: { type: 'session', id: stopped.id },
        venueIds: [stopped.venueId],
      });
      return stopped;
    });
  }

  /**
   * Ends every active session of a user and expires its devices, inside the caller's transaction.
   * Returns the sessions it ended, for the unauth job. The caller has locked the user's row first,
   * before any other read (as a session start does), so every session started before that lock is
   * seen here and none can start until the caller commits.
   */
  async endAllForUser(em: EntityManager, userId: string, now: Date): Promise<SessionEntity[]> {
    const ended = await this.endByService(em, await this.sessions.lockActiveOfUser(em, userId), now);
    await this.devices.expireActiveOfUser(em, userId);
    return ended;
  }

  /** Ends the user's active sessions in `venueIds` (its devices stay: the user is still active elsewhere). */
  async endForUserInVenues(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[],
    now: Date,
  ): Promise<SessionEntity[]> {
    const active = await this.sessions.lockActiveOfUser(em, userId);
    return this.endByService(
      em,
      active.filter((session) => venueIds.includes(session.venueId)),
      now,
    );
  }

  /** The session, read in the caller's unit of work without a lock; null when there is none. */
  find(em: EntityManager, sessionId: string): Promise<SessionEntity | null> {
    return this.sessions.findById(em, sessionId);
  }

  /**
   * Ends one session as the service does (an operator's disconnect), inside the caller's transaction,
   * which holds the user's row: the session's row is locked, and null returned when it is not active
   * (any more). Its device stays the user's, seen until now.
   */
  async endOneByService(em: EntityManager, sessionId: string, now: Date): Promise<SessionEntity | null> {
    const session = await this.sessions.lockById(em, sessionId);
    if (session === null || session.status !== 'active') return null;
    const [ended] = await this.endByService(em, [session], now);
    await this.devices.markSeen(em, ended.userId, ended.macAddress, now);
    return ended;
  }

  /** Ends `active` sessions as the service does (not the network side), returning them as ended. */
  private async endByService(em: EntityManager, active: SessionEntity[], now: Date): Promise<SessionEntity[]> {
    const ended = endedByService(active, now);
    await this.sessions.end(
      em,
      ended.map((session) => session.id),
      ENDED_BY_SERVICE,
      now,
    );
    return ended;
  }

  /** The user's active sessions that a NAS reported (RADIUS accounting), which RFC 5176 requests can reach. */
  async activeRadiusOfUser(em: EntityManager, userId: string): Promise<SessionEntity[]> {
    return (await this.sessions.findActiveOfUser(em, userId)).filter((session) => session.nasClientId !== null);
  }

  /** Devices of several users at once (one query, whatever the number of users). */
  devicesOf(em: EntityManager, userIds: readonly string[]): Promise<DeviceEntity[]> {
    return this.devices.findOfUsers(em, userIds);
  }

  /** One page of a user's sessions in `venueIds` (null: any venue), newest first; `ended` null: all of them. */
  pageOfUser(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[] | null,
    ended: boolean | null,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; sessions: SessionEntity[] }> {
    return this.sessions.findPageOfUser(em, userId, venueIds, ended, page);
  }

  /** One page of a venue's sessions, newest first; `ended` null: all of them. */
  pageOfVenue(
    em: EntityManager,
    venueId: string,
    ended: boolean | null,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; sessions: SessionEntity[] }> {
    return this.sessions.findPageOfVenue(em, venueId, ended, page);
  }

  /**
   * One page of what the console's Online now lists in a venue: its active sessions and those ended
   * here whose Disconnect the NAS has not confirmed (SessionEntity.disconnectJobId), newest first.
   */
  onlinePageOfVenue(
    em: EntityManager,
    venueId: string,
    page: { offset: number; limit: number },
    userIds: readonly string[] | null = null,
  ): Promise<{ active: number; disconnecting: number; sessions: SessionEntity[] }> {
    return this.sessions.findOnlinePageOfVenue(em, venueId, page, userIds);
  }

  /** Which of these users are online now in the venue (an active session there): the console's users list. */
  onlineUserIds(venueId: string, userIds: readonly string[]): Promise<Set<string>> {
    return this.database.run((em) => this.sessions.findOnlineUserIds(em, venueId, userIds));
  }

  /** How many sessions of these venues (null: every venue) are active now (the console's dashboard). */
  countActive(venueIds: readonly string[] | null): Promise<number> {
    return this.database.run((em) => this.sessions.countActive(em, venueIds));
  }

  /** The time of each NAS's latest accounting packet, for those that sent any. */
  lastAccountingByNas(nasClientIds: readonly string[]): Promise<Map<string, Date>> {
    return this.database.run((em) => this.sessions.lastAccountingByNas(em, nasClientIds));
  }
}
