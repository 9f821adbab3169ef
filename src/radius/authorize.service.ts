import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { Clock } from '../common/clock.js';
import { normaliseMac } from '../common/validation/normalise.js';
import type { AppConfig, RadiusConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { HotspotUsersRepository, type UserRecord } from '../hotspot-users/hotspot-users.repository.js';
import { PasswordHasher, verifyPassword } from '../hotspot-users/password-hasher.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import type { RadiusNas } from './nas-identity.js';
import type { RadiusAttributes } from './radius-attributes.js';
import { RadiusUsersRepository } from './radius-users.repository.js';
import { decideLogin, encodeClass, loginMethodOf, REJECT_MESSAGES, type RejectReason } from './radius.rules.js';

/** An answer for rlm_rest: 200 with reply and control attributes, or 401 with a Reply-Message. */
export type AuthorizeAnswer = { status: 200 | 401; body: Record<string, unknown> };

/** What the log line of a decision says; never a password. */
interface Outcome {
  reason: RejectReason | 'accepted';
  userId: string | null;
}

/**
 * The authorize step of FreeRADIUS in one round trip: the NAS's venue, the user, the password
 * (argon2id) or the MAC, and the user's standing decide Accept or Reject.
 */
@Injectable()
export class AuthorizeService implements OnModuleInit {
  private readonly logger = new Logger('RadiusAuthorize');
  private readonly config: RadiusConfig;
  /** NASes already warned about for sending requests without a usable password (once per NAS). */
  private readonly warnedNases = new Set<string>();
  /** Verified when the user is unknown, so that case costs as long as a wrong password. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly users: HotspotUsersRepository,
    private readonly radiusUsers: RadiusUsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly passwords: PasswordHasher,
    config: ConfigService<AppConfig, true>,
  ) {
    this.config = config.get('radius', { infer: true });
  }

  onModuleInit(): void {
    this.dummyHash = this.passwords.hash(randomBytes(16).toString('hex'));
    // Awaited on first use; a failure here must not be an unhandled rejection.
    this.dummyHash.catch(() => undefined);
  }

  async authorize(nas: RadiusNas, attributes: RadiusAttributes): Promise<AuthorizeAnswer> {
    const request = {
      username: attributes.string('User-Name'),
      password: attributes.string('User-Password'),
      callingStationId: attributes.string('Calling-Station-Id'),
    };
    const method = loginMethodOf(request, normaliseMac);
    let outcome: Outcome;
    let answer: AuthorizeAnswer;
    if (method.kind === 'unsupported') {
      this.warnOnceAboutMethod(nas, attributes);
      outcome = { reason: 'papRequired', userId: null };
    } else if (method.kind === 'mac') {
      outcome = await this.macLogin(nas, method.mac);
      if (outcome.reason === 'unknownDevice' && method.password !== null) {
        outcome = await this.papLogin(nas, method.username, method.password);
      }
    } else {
      outcome = await this.papLogin(nas, method.username, method.password);
    }
    if (outcome.reason === 'accepted' && outcome.userId !== null) {
      const decided = await this.accept(nas, outcome.userId);
      answer = decided.answer;
      outcome = { ...outcome, reason: decided.reason };
    } else {
      answer = reject(outcome.reason === 'accepted' ? 'invalidCredentials' : outcome.reason);
    }
    this.logger.log(
      `RADIUS login ${answer.status === 200 ? 'accepted' : 'rejected'} at NAS ${nas.name} (venue ${nas.venueId}):` +
        ` ${outcome.reason}${outcome.userId === null ? '' : `, user ${outcome.userId}`}`,
    );
    return answer;
  }

  /** PAP: the username in the NAS's venue, else elsewhere (for the message), and its argon2id hash. */
  private async papLogin(nas: RadiusNas, username: string, password: string): Promise<Outcome> {
    const found = await this.database.run((em) => this.radiusUsers.findIdByUsername(em, username, nas.venueId));
    const record = found === null ? null : await this.database.run((em) => this.users.findRecord(em, found.userId));
    const hash = record?.user.loginMethod === 'username_password' ? record.user.passwordHash : null;
    const matches = await verifyPassword(hash ?? (await this.dummy()), password);
    if (record === null || hash === null || !matches) return { reason: 'invalidCredentials', userId: null };
    return { reason: 'accepted', userId: record.user.id };
  }

  private async macLogin(nas: RadiusNas, mac: string): Promise<Outcome> {
    const userId = await this.database.run((em) => this.radiusUsers.findGuestIdByMac(em, nas.venueId, mac));
    return userId === null ? { reason: 'unknownDevice', userId: null } : { reason: 'accepted', userId };
  }

  /** The decision on a user whose credentials matched: its standing, venue and session count. */
  private async accept(
    nas: RadiusNas,
    userId: string,
  ): Promise<{ answer: AuthorizeAnswer; reason: Outcome['reason'] }> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - this.config.staleAfterMs);
    const { record, recent } = await this.database.run(async (em) => {
      const found: UserRecord | null = await this.users.findRecord(em, userId);
      const count =
        this.config.maxSessionsPerUser > 0 ? await this.sessions.countRecentlyActiveOfUser(em, userId, since) : 0;
      return { record: found, recent: count };
    });
    if (record === null) return { answer: reject('invalidCredentials'), reason: 'invalidCredentials' };
    const decision = decideLogin({ ...record.user, venueIds: record.venueIds }, nas.venueId, recent, this.config, now);
    if (!decision.accepted) return { answer: reject(decision.reason), reason: decision.reason };
    const answer: AuthorizeAnswer = {
      status: 200,
      body: {
        'control:Auth-Type': 'Accept',
        'reply:Session-Timeout': decision.sessionTimeout,
        'reply:Acct-Interim-Interval': this.config.interimSeconds,
        'reply:Class': { value: encodeClass(decision.userId), do_xlat: false },
      },
    };
    return { answer, reason: 'accepted' };
  }

  private warnOnceAboutMethod(nas: RadiusNas, attributes: RadiusAttributes): void {
    if (this.warnedNases.has(nas.id)) return;
    this.warnedNases.add(nas.id);
    const sent = ['CHAP-Password', 'MS-CHAP-Challenge', 'EAP-Message'].filter((name) => attributes.has(name));
    this.logger.warn(
      `NAS ${nas.name} sends logins without a usable password (${sent.length > 0 ? sent.join(', ') : 'no User-Password'}):` +
        ' configure it for PAP (passwords are stored as argon2id hashes). Logged once per NAS.',
    );
  }

  private async dummy(): Promise<string> {
    this.dummyHash ??= this.passwords.hash(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}

export function reject(reason: RejectReason): AuthorizeAnswer {
  return { status: 401, body: { 'reply:Reply-Message': { value: REJECT_MESSAGES[reason], do_xlat: false } } };
}
