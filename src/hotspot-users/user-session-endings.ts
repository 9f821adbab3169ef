import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import * as rules from './hotspot-user.rules.js';
import { HotspotUserWriter } from './hotspot-user.writer.js';
import type { UserRecord } from './hotspot-users.repository.js';

/** Sessions a change ended, and the ids of the unauth jobs it wrote for them (none or one). */
export interface SessionsEnded {
  ended: number;
  unauthJobIds: string[];
}

/**
 * What a change of a user means for its sessions on the network, inside the change's transaction
 * (the user's row already locked): sessions ended, devices expired, and the unauth or CoA job that
 * tells the network side.
 */
@Injectable()
export class UserSessionEndings {
  constructor(
    private readonly sessions: SessionsService,
    private readonly unauthJobs: UnauthJobsService,
    private readonly writer: HotspotUserWriter,
  ) {}

  /**
   * The move into expired, inside the caller's transaction: sessions end, devices expire, a job is
   * written when sessions were active, and the uniqueness keys are released.
   */
  async makeExpired(
    em: EntityManager,
    stored: UserRecord,
    ending: rules.SessionEnding,
    now: Date,
  ): Promise<SessionsEnded & { record: UserRecord }> {
    const ended = await this.endSessions(em, stored.user, ending, now);
    const user = rules.expiredUser(stored.user, now);
    await this.writer.updateExpired(em, user, stored);
    return { ...ended, record: { user, venueIds: stored.venueIds } };
  }

  /** Ends the user's active sessions and expires its devices, with an unauth job when the ending calls for one. */
  async endSessions(
    em: EntityManager,
    user: HotspotUserEntity,
    ending: rules.SessionEnding,
    now: Date,
  ): Promise<SessionsEnded> {
    const sessions = await this.sessions.endAllForUser(em, user.id, now);
    const unauthJobIds = await this.tellNetwork(em, user, ending, sessions, now);
    return { ended: sessions.length, unauthJobIds };
  }

  /**
   * A PUT took `venueIds` from the user: its sessions there end, with an unauth job when there were
   * any, as a login there would now be refused. Nothing to do when no venue was taken. Returns the
   * ids of the jobs written.
   */
  async leaveVenues(
    em: EntityManager,
    user: HotspotUserEntity,
    venueIds: readonly string[],
    now: Date,
  ): Promise<string[]> {
    if (venueIds.length === 0) return [];
    const sessions = await this.sessions.endForUserInVenues(em, user.id, venueIds, now);
    return this.tellNetwork(em, user, rules.ENDINGS.removedFromVenues, sessions, now);
  }

  /** The unauth job for `sessions`, ended by `ending`, when the ending calls for one: its id, or none. */
  private async tellNetwork(
    em: EntityManager,
    user: HotspotUserEntity,
    ending: rules.SessionEnding,
    sessions: SessionEntity[],
    now: Date,
  ): Promise<string[]> {
    if (!rules.writesUnauthJob(ending, sessions.length)) return [];
    const job = { userId: user.id, username: user.username, reason: ending.reason, sessions };
    return [(await this.unauthJobs.enqueue(em, job, now)).id];
  }

  /**
   * A changed expiresAt reaches the user's RADIUS sessions as a CoA job, written in the PUT's
   * transaction; sessions of NASes that refuse CoA get none (they end at expiresAt through the
   * sweep). Returns the ids of the jobs written.
   */
  async followExpiry(
    em: EntityManager,
    before: HotspotUserEntity,
    after: HotspotUserEntity,
    now: Date,
  ): Promise<string[]> {
    const sessions = await this.sessions.activeRadiusOfUser(em, after.id);
    if (!rules.callsForCoa(before, after, sessions.length, now)) return [];
    const job = {
      userId: after.id,
      username: after.username,
      reason: 'coa' as const,
      sessions,
      expiresAt: after.expiresAt,
    };
    const written = await this.unauthJobs.enqueueCoa(em, job, now);
    return written === null ? [] : [written.id];
  }
}
