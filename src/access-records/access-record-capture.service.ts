import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import { AccessRecordsRepository } from './access-records.repository.js';
import { guestIdentityOf, identityOf } from './access-records.rules.js';
import type { AccessRecordEntity } from './entities/access-record.entity.js';

/** Sessions captured per statement. */
const CAPTURE_BATCH_SIZE = 500;

/**
 * Captures the records for the regulator from the sessions, never on RADIUS's path: in the usage
 * fold's transaction (every accounting write flags its session for the fold: Start, Interim-Update,
 * Stop), in the transaction that deletes a user (before its sessions go with it), and by the
 * records' sweep for sessions this service ended (block, expiry, stale sweep), which no packet
 * flags.
 */
@Injectable()
export class AccessRecordCapture {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly records: AccessRecordsRepository,
  ) {}

  /**
   * Writes or updates the records of the sessions named, inside the caller's transaction: a new
   * record copies the user's identity as it stands now; a known one takes the session's address
   * and end only.
   */
  async capture(em: EntityManager, sessionIds: readonly string[]): Promise<void> {
    for (let start = 0; start < sessionIds.length; start += CAPTURE_BATCH_SIZE) {
      const sessions = await this.records.findSessions(em, sessionIds.slice(start, start + CAPTURE_BATCH_SIZE));
      const guests = sessions.filter((session) => ['sms', 'social'].includes(session.user.loginMethod));
      const identities = await this.records.findGuestIdentities(
        em,
        [...new Set(guests.map((session) => session.userId))],
        [...new Set(guests.map((session) => session.venueId))],
      );
      await this.records.upsert(
        em,
        sessions.map((session): AccessRecordEntity => {
          const of = (kind: 'phone' | 'social') => guestIdentityOf(identities, session.userId, session.venueId, kind);
          const identity = identityOf(session.user, session.macAddress, of('phone')?.subject ?? null, of('social'));
          return {
            id: newId(),
            sessionId: session.id,
            venueId: session.venueId,
            nasId: session.nasId,
            userId: session.userId,
            loginMethod: session.user.loginMethod,
            identityKind: identity.kind,
            identityIssuer: identity.issuer,
            identity: identity.identity,
            macAddress: session.macAddress,
            ipAddress: session.ipAddress,
            startedAt: session.startedAt,
            endedAt: session.endedAt,
          };
        }),
      );
    }
  }

  /**
   * Inside the transaction that deletes the user (its sessions already ended): every one of its
   * RADIUS sessions recorded as it stands, since they are deleted with it.
   */
  async captureUser(em: EntityManager, userId: string): Promise<void> {
    await this.capture(em, await this.records.findSessionIdsOfUser(em, userId));
  }

  /**
   * Before days are sealed: the records of the sessions the usage fold has not folded yet (a Start
   * or Stop of the last seconds, or every packet while no instance folds), and of the sessions this
   * service ended (captureEnded), so that a sealed day misses none. Idempotent: the fold captures
   * the same sessions again.
   */
  async captureOutstanding(): Promise<void> {
    let after = '';
    for (;;) {
      const ids = await this.database.run((em) => this.records.findPendingSessionIds(em, after, CAPTURE_BATCH_SIZE));
      if (ids.length > 0) await this.database.transaction((em) => this.capture(em, ids));
      if (ids.length < CAPTURE_BATCH_SIZE) break;
      after = ids[ids.length - 1];
    }
    await this.captureEnded();
  }

  /**
   * Records still open whose session this service has ended since take its end; those whose session
   * is gone without being captured end now. A batch per transaction; how many.
   */
  async captureEnded(): Promise<number> {
    let captured = 0;
    // One plain read first, so that an idle sweep opens no transaction.
    if ((await this.database.run((em) => this.records.findOpenOfEndedSessions(em, 1))).length === 0) return 0;
    for (;;) {
      const count = await this.database.transaction(async (em) => {
        const open = await this.records.findOpenOfEndedSessions(em, CAPTURE_BATCH_SIZE);
        await this.capture(
          em,
          open.filter((record) => record.sessionExists).map((record) => record.sessionId),
        );
        await this.records.endRecordsOfSessions(
          em,
          open.filter((record) => !record.sessionExists).map((record) => record.sessionId),
          this.clock.now(),
        );
        return open.length;
      });
      captured += count;
      if (count < CAPTURE_BATCH_SIZE) return captured;
    }
  }
}
