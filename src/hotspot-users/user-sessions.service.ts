import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { normaliseMac } from '../common/validation/normalise.js';
import { DatabaseService } from '../database/database.service.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { SessionRequestError, SessionsService, type StartSessionInput } from '../sessions/sessions.service.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
import { decideSessionStart } from './session-start.rules.js';

/**
 * Starting a session for a hotspot user from the session CLI (a captive portal's or a test's stand-in
 * for the network side): it asks, the user's row decides. RADIUS accounting records its sessions itself.
 */
@Injectable()
export class UserSessionsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly users: HotspotUsersRepository,
    private readonly sessions: SessionsService,
  ) {}

  /** Starts a session in a transaction of its own (the session CLI). */
  start(input: StartSessionInput): Promise<SessionEntity> {
    return this.database.transaction((em) => this.startInTransaction(em, input));
  }

  /**
   * Starts a session inside the caller's transaction: locks the user's row, decides whether the
   * session may start (decideSessionStart), records the device and inserts the session. Throws
   * SessionRequestError when refused. Call it before any other read in that transaction: every
   * change of the user's status locks the same row first, so the two run one after the other; a
   * block, expiry or delete that commits first is seen here, and one that comes later ends this session.
   */
  async startInTransaction(em: EntityManager, input: StartSessionInput): Promise<SessionEntity> {
    const macAddress = normaliseMac(input.macAddress);
    if (macAddress === null) throw new SessionRequestError(`not a MAC address: ${input.macAddress}`);
    const record = await this.users.lockRecord(em, input.userId);
    const now = this.clock.now();
    const candidate = record === null ? null : { ...record.user, venueIds: record.venueIds };
    const decision = decideSessionStart(input.userId, candidate, input.venueId, now);
    if (!decision.allowed) throw new SessionRequestError(decision.message);
    return this.sessions.open(em, { ...input, userId: decision.user.id, macAddress }, now);
  }
}
