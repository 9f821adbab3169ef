import { HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { actorOf, type AuditOrigin } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { Actor } from '../auth/actor.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { Clock } from '../common/clock.js';
import { ApiError, ERROR_MESSAGES } from '../common/errors/api-error.js';
import { DatabaseService } from '../database/database.service.js';
import type { TransactionClaim } from '../database/transaction-claim.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { HotspotUsersRepository, type GuestName } from './hotspot-users.repository.js';

/** What a disconnect did: the session it ended and the unauth job that tells its NAS. */
export interface Disconnected {
  session: SessionEntity;
  unauthJobId: string;
}

/**
 * An operator ends one session (the console's Online now): the session ends here as a block ends
 * it, and an unauth job of reason `operator` tells its NAS, through the same worker and dispatchers.
 * The session's venue decides who may see and end it.
 */
@Injectable()
export class SessionDisconnectService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly venueScope: VenueScopeService,
    private readonly users: HotspotUsersRepository,
    private readonly sessions: SessionsService,
    private readonly unauthJobs: UnauthJobsService,
    private readonly audit: AuditService,
  ) {}

  /** The session: 404 when there is none or its venue is outside the actor's venues. */
  find(actor: Actor, sessionId: string): Promise<SessionEntity> {
    return this.database.run((em) => this.findVisible(em, actor, sessionId));
  }

  /** The session as find reads it, with its user's name (null once the user is deleted): the confirmation names the guest. */
  findWithGuest(actor: Actor, sessionId: string): Promise<{ session: SessionEntity; guest: GuestName | null }> {
    return this.database.run(async (em) => {
      const session = await this.findVisible(em, actor, sessionId);
      const names = await this.users.findGuestNames(em, [session.userId]);
      return { session, guest: names.get(session.userId) ?? null };
    });
  }

  /**
   * Ends an active session, in one transaction: its user's row locked first (as every change of a
   * user and every session start lock it), then the session's; the job written and the
   * session.disconnect event recorded with it. 404 as find; 409 when the session has ended already.
   * A caller's `claim` (the console's form token) is taken first and settled last, in the same transaction.
   */
  disconnect(
    actor: Actor,
    sessionId: string,
    origin: AuditOrigin,
    claim: TransactionClaim<Disconnected> | null = null,
  ): Promise<Disconnected> {
    return this.database.transaction(async (em) => {
      await claim?.take(em);
      const seen = await this.findVisible(em, actor, sessionId);
      const record = await this.users.lockRecord(em, seen.userId);
      if (record === null) throw sessionNotFound();
      const now = this.clock.now();
      const session = await this.sessions.endOneByService(em, seen.id, now);
      if (session === null) {
        throw ApiError.conflict([{ field: 'sessionId', message: 'the session has ended already' }]);
      }
      const job = await this.unauthJobs.enqueue(
        em,
        { userId: record.user.id, username: record.user.username, reason: 'operator', sessions: [session] },
        now,
      );
      await this.audit.record(em, {
        actor: actorOf(actor),
        action: 'session.disconnect',
        target: { type: 'session', id: session.id },
        venueIds: [session.venueId],
        origin,
      });
      const done = { session, unauthJobId: job.id };
      await claim?.settle(em, done);
      return done;
    });
  }

  private async findVisible(em: EntityManager, actor: Actor, sessionId: string): Promise<SessionEntity> {
    const session = await this.sessions.find(em, sessionId);
    if (session === null || !this.venueScope.isInScope(actor, session.venueId)) throw sessionNotFound();
    return session;
  }
}

function sessionNotFound(): ApiError {
  return new ApiError(HttpStatus.NOT_FOUND, ERROR_MESSAGES.notFound);
}
