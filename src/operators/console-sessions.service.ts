import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import type { AppConfig, ConsoleConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { lastSeenDue, sessionOver } from './sign-in.rules.js';
import type { SessionStage } from './entities/operator-session.entity.js';
import { ConsoleFormTokensRepository } from './console-form-tokens.repository.js';
import { OperatorSessionsRepository } from './operator-sessions.repository.js';
import type { SessionWithOperator } from './session-with-operator.js';
import { sha256Hex } from '../common/sha256.js';
import { isSessionIdShape, newSessionId } from './session-ids.js';

/** Where a request came from, kept on the session (bounded to the columns' lengths). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** The request's id (X-Request-Id), for the audit rows it causes. */
  requestId: string | null;
}

/** When a session began and when it ends whatever happens (its absolute lifetime). */
export interface SessionSpan {
  createdAt: Date;
  expiresAt: Date;
}

/** A password was right but the second factor is still to come: the session lasts this long at most. */
const SECOND_FACTOR_WINDOW_MS = 5 * 60_000;

/** Console sessions: made at sign-in, checked on every request, replaced, ended. */
@Injectable()
export class ConsoleSessionsService {
  private readonly limits: ConsoleConfig;

  constructor(
    private readonly database: DatabaseService,
    private readonly sessions: OperatorSessionsRepository,
    private readonly formTokens: ConsoleFormTokensRepository,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('console', { infer: true });
  }

  /** Stores a new session of the operator (at its current rights_version) and returns its id for the cookie. */
  async start(
    em: EntityManager,
    operator: { id: string; rightsVersion: number },
    stage: SessionStage,
    client: ClientInfo,
    kept?: SessionSpan,
  ): Promise<string> {
    const now = this.clock.now();
    const id = newSessionId();
    const lifetime = stage === 'second-factor' ? SECOND_FACTOR_WINDOW_MS : this.limits.absoluteTimeoutMs;
    await this.sessions.deleteExpired(em, now);
    await this.sessions.deleteIdleOfOperator(em, operator.id, new Date(now.getTime() - this.limits.idleTimeoutMs));
    await this.sessions.insert(em, {
      idHash: sha256Hex(id),
      operatorId: operator.id,
      stage,
      rightsVersion: operator.rightsVersion,
      pendingTotpSecret: null,
      webauthnChallenge: null,
      createdAt: kept?.createdAt ?? now,
      lastSeenAt: now,
      expiresAt: kept?.expiresAt ?? new Date(now.getTime() + lifetime),
      ipAddress: client.ip.slice(0, 64),
      userAgent: client.userAgent.slice(0, 255),
    });
    return id;
  }

  /**
   * The live session of this id, or null. A session past its idle or absolute time, or whose
   * operator was disabled or had its rights or password changed since (rights_version), is over:
   * it is deleted here. One read by primary key; last-seen is written at most once a minute.
   */
  async authenticate(id: string): Promise<SessionWithOperator | null> {
    if (!isSessionIdShape(id)) return null;
    const idHash = sha256Hex(id);
    const now = this.clock.now();
    const session = await this.database.run((em) => this.sessions.findWithOperator(em, idHash));
    if (session === null) return null;
    const over =
      sessionOver(session, now, this.limits) ||
      session.operator.status !== 'active' ||
      session.operator.rightsVersion !== session.rightsVersion;
    if (over) {
      await this.database.run((em) => this.sessions.delete(em, idHash));
      return null;
    }
    if (lastSeenDue(session.lastSeenAt, now)) await this.database.run((em) => this.sessions.touch(em, idHash, now));
    return session;
  }

  /** Deletes a session that is being replaced; false when another request replaced or ended it first. */
  consume(em: EntityManager, idHash: string): Promise<boolean> {
    return this.sessions.delete(em, idHash);
  }

  /**
   * A new id for a signed-in session after a change of the operator's own security (password, second
   * factor): the old row goes, a new one is made at the operator's current rights_version, and the
   * forms the session sent (their results) go with it to the new id.
   */
  async replace(
    em: EntityManager,
    old: { idHash: string } & SessionSpan,
    operator: { id: string; rightsVersion: number },
    client: ClientInfo,
  ): Promise<string> {
    await this.sessions.delete(em, old.idHash);
    // The new id keeps the old session's start and absolute end: replacing never prolongs a session.
    const id = await this.start(em, operator, 'signed-in', client, {
      createdAt: old.createdAt,
      expiresAt: old.expiresAt,
    });
    await this.formTokens.moveToSession(em, old.idHash, sha256Hex(id));
    return id;
  }

  async setPendingTotpSecret(idHash: string, sealed: string): Promise<void> {
    await this.database.run((em) => this.sessions.setPendingTotpSecret(em, idHash, sealed));
  }

  /** Ends one session (sign out), and the results of the forms it sent. */
  async end(idHash: string): Promise<void> {
    await this.database.transaction(async (em) => {
      await this.formTokens.deleteOfSession(em, idHash);
      await this.sessions.delete(em, idHash);
    });
  }

  /** Ends every session of the operator, on every instance (sign out everywhere), and their forms' results. */
  async endEverywhere(operatorId: string): Promise<void> {
    await this.database.transaction(async (em) => {
      await this.formTokens.deleteOfOperator(em, operatorId);
      await this.sessions.deleteAllOfOperator(em, operatorId);
    });
  }
}
