import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SYSTEM_ACTOR } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import { Clock } from '../common/clock.js';
import { normaliseMac } from '../common/validation/normalise.js';
import type { AppConfig, RadiusConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { validityAtFirstLogin } from '../hotspot-users/hotspot-user.rules.js';
import type { Deadline } from '../common/load/deadline.js';
import { PasswordHasher } from '../common/passwords/password-hasher.js';
import type { RadiusNas } from './nas-identity.js';
import type { RadiusAttributes } from './radius-attributes.js';
import { RADIUS_OBSERVER, type RadiusObserver } from './radius-observer.js';
import { RadiusUsersRepository, type LoginUser } from './radius-users.repository.js';
import {
  decideLogin,
  encodeClass,
  loginMethodOf,
  REJECT_MESSAGES,
  type LoginLimits,
  type LoginMethodOfRequest,
  type RejectReason,
} from './radius.rules.js';
import { UsageService } from '../usage/usage.service.js';
import { GuestAccessService } from '../guest-access/guest-access.service.js';
import { LoginDecisions } from './login-decisions.js';
import { planReply, UNLIMITED } from './plan-reply.rules.js';
import { VerifiedPasswords } from './verified-passwords.js';

/** The users the guest portal makes: a live hand-over pass (guest-access) is their PAP password. */
const PORTAL_LOGIN_METHODS: ReadonlySet<string> = new Set(['sms', 'social', 'guest']);

/** The most of a username a login's log line repeats (a hostile NAS may send kilobytes). */
const LOGGED_USERNAME_LENGTH = 128;

/** An answer for rlm_rest: 200 with reply and control attributes, or 401 with a Reply-Message. */
export type AuthorizeAnswer = { status: 200 | 401; body: Record<string, unknown> };

/** An answer and what its log line says; never a password. */
interface Outcome {
  answer: AuthorizeAnswer;
  reason: RejectReason | 'accepted';
  userId: string | null;
  /** The user of the NAS's venue the login named, accepted or not (its post-auth records the attempt under it). */
  foundUserId?: string;
}

/**
 * The authorize step of FreeRADIUS in one round trip: the NAS's venue, the user, the password
 * (argon2id) or the MAC, and the user's standing decide Accept or Reject. The user is read once, in
 * one query (two when its name belongs to another venue), before the password is checked. Nothing
 * begins once FreeRADIUS has stopped waiting (`deadline`): no query, no argon2id; and a verification
 * the RADIUS work class cannot take is "busy" (503: FreeRADIUS sends no answer), never a reject.
 */
@Injectable()
export class AuthorizeService {
  private readonly logger = new Logger('RadiusAuthorize');
  private readonly config: RadiusConfig;
  /** NASes already warned about for sending requests without a usable password (once per NAS). */
  private readonly warnedNases = new Set<string>();
  /** Correct passwords verified recently: a repeated login skips argon2id, a wrong one never does. */
  private readonly verified: VerifiedPasswords;

  constructor(
    private readonly database: DatabaseService,
    private readonly clock: Clock,
    private readonly radiusUsers: RadiusUsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditService,
    private readonly decisions: LoginDecisions,
    private readonly usage: UsageService,
    private readonly guestAccess: GuestAccessService,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(RADIUS_OBSERVER) private readonly observer: RadiusObserver | null = null,
  ) {
    this.config = config.get('radius', { infer: true });
    this.verified = new VerifiedPasswords(this.config.passwordCacheMs);
  }

  async authorize(nas: RadiusNas, attributes: RadiusAttributes, deadline: Deadline): Promise<AuthorizeAnswer> {
    const request = {
      username: attributes.string('User-Name'),
      password: attributes.string('User-Password'),
      callingStationId: attributes.string('Calling-Station-Id'),
    };
    const method = loginMethodOf(request, normaliseMac);
    let outcome: Outcome;
    if (method.kind === 'noUsername') {
      outcome = rejected('invalidCredentials', null);
    } else if (method.kind === 'unsupported') {
      this.warnOnceAboutMethod(nas, attributes);
      outcome = rejected('papRequired', null);
    } else {
      const device = request.callingStationId === null ? null : normaliseMac(request.callingStationId);
      outcome = await this.login(nas, method, device ?? '', deadline);
    }
    // The username as the NAS sent it (quoted, cut to a bounded length), so "why was this guest
    // refused" can be answered from the log; never the password.
    const username =
      request.username === null
        ? ''
        : ` for username ${JSON.stringify(request.username.slice(0, LOGGED_USERNAME_LENGTH))}`;
    this.logger.log(
      `RADIUS login ${outcome.answer.status === 200 ? 'accepted' : 'rejected'} at NAS ${nas.name} (venue ${nas.venueId})${username}:` +
        ` ${outcome.reason}${outcome.userId === null ? '' : `, user ${outcome.userId}`}`,
    );
    this.observer?.authorized(outcome.reason);
    if (request.username !== null) {
      if (outcome.foundUserId === undefined) {
        this.decisions.forget(nas.id, request.username, request.callingStationId);
      } else {
        const now = this.clock.now().getTime();
        this.decisions.remember(nas.id, request.username, request.callingStationId, outcome.foundUserId, now);
      }
    }
    return outcome.answer;
  }

  /** A MAC login: the venue's guest with that MAC; else, or for PAP, the username and its password. */
  private async login(
    nas: RadiusNas,
    method: Exclude<LoginMethodOfRequest, { kind: 'unsupported' | 'noUsername' }>,
    macAddress: string,
    deadline: Deadline,
  ): Promise<Outcome> {
    // Sessions count against the limit while their NAS reported on them within the stale window.
    const recentSince =
      this.config.maxSessionsPerUser > 0 ? new Date(this.clock.now().getTime() - this.config.staleAfterMs) : null;
    if (method.kind === 'mac') {
      const { mac } = method;
      const guest = await this.database.run(
        (em) => this.radiusUsers.findGuestLoginByMac(em, nas.venueId, mac, recentSince),
        { deadline, lane: 'radius' },
      );
      if (guest !== null) return this.decide(guest, nas, macAddress, deadline);
    }
    const { username, password } = method;
    if (password === null) return rejected('unknownDevice', null);
    const user = await this.database.run(
      (em) => this.radiusUsers.findLoginByUsername(em, username, nas.venueId, recentSince),
      { deadline, lane: 'radius' },
    );
    if (user !== null && PORTAL_LOGIN_METHODS.has(user.loginMethod)) {
      // The portal's users have no password: the hand-over's one-time pass stands for one. Without a
      // live pass the refusal is the one these users always got (after the stand-in's argon2id).
      const now = this.clock.now();
      const live = await this.database.run((em) => this.guestAccess.isLivePass(em, user.id, password, now), {
        deadline,
        lane: 'radius',
      });
      if (live) return this.decide(user, nas, macAddress, deadline);
    }
    const hash = user?.loginMethod === 'username_password' ? user.passwordHash : null;
    if (user === null || hash === null) {
      await this.passwords.verify('radius', await this.passwords.standIn(), password, deadline);
      return rejected('invalidCredentials', null);
    }
    if (!(await this.passwordMatches(user.id, hash, password, deadline))) {
      return { ...rejected('invalidCredentials', null), foundUserId: foundIn(user) };
    }
    return this.decide(user, nas, macAddress, deadline);
  }

  /** argon2id, unless this very password was verified against this very hash within the cache's time to live. */
  private async passwordMatches(userId: string, hash: string, password: string, deadline: Deadline): Promise<boolean> {
    if (this.verified.has(userId, hash, password, this.clock.now().getTime())) return true;
    const matches = await this.passwords.verify('radius', hash, password, deadline);
    if (matches) this.verified.add(userId, hash, password, this.clock.now().getTime());
    return matches;
  }

  /**
   * The decision on a user whose credentials matched: its standing, venue and session count, then its
   * plan's limits (used up, devices, sessions: the plan's maxSessions replaces
   * RADIUS_MAX_SESSIONS_PER_USER for its users); when accepted, the reply tells the NAS what is left
   * of the plan in its vendor's attributes.
   */
  private async decide(found: LoginUser, nas: RadiusNas, macAddress: string, deadline: Deadline): Promise<Outcome> {
    const standing = await this.usage.loginStanding(found.id, nas.venueId, macAddress, deadline);
    const limits =
      (standing?.plan.maxSessions ?? null) === null ? this.config : { ...this.config, maxSessionsPerUser: 0 };
    const now = this.clock.now();
    let user = found;
    if (
      found.validFor !== null &&
      found.firstLoginAt === null &&
      decideLogin(found, found.recentSessions, limits, now).accepted &&
      (standing === null || standing.refused === null)
    ) {
      user = await this.firstLogin(found, limits, now, deadline);
    }
    const decision = decideLogin(user, user.recentSessions, limits, now);
    if (!decision.accepted) return { ...rejected(decision.reason, user.id), foundUserId: foundIn(user) };
    if (standing !== null && standing.refused !== null) {
      return { ...rejected(standing.refused, user.id), foundUserId: foundIn(user) };
    }
    const reply = planReply({
      vendor: nas.vendor,
      plan: standing?.plan ?? null,
      left: standing === null ? UNLIMITED : { bytesLeft: standing.bytesLeft, secondsLeft: standing.secondsLeft },
      sessionTimeout: decision.sessionTimeout,
      interimSeconds: this.config.interimSeconds,
    });
    const answer: AuthorizeAnswer = {
      status: 200,
      body: {
        'control:Auth-Type': 'Accept',
        // Text (Mikrotik-Rate-Limit) goes to the NAS as it is, never expanded by FreeRADIUS.
        ...Object.fromEntries(
          Object.entries(reply).map(([name, value]) => [
            `reply:${name}`,
            typeof value === 'string' ? { value, do_xlat: false } : value,
          ]),
        ),
        'reply:Class': { value: encodeClass(decision.userId), do_xlat: false },
      },
    };
    return { answer, reason: 'accepted', userId: user.id, foundUserId: user.id };
  }

  /**
   * The first accepted login of a user with validFor, in one transaction: the user read again (locked,
   * so of two first logins at once the second sees the first's), the login decided on it, and when
   * accepted its validity started: firstLoginAt now, expiresAt now plus validFor (or the earlier
   * stored one), recorded in the audit trail as the service's change. Returns the user as decided on.
   */
  private async firstLogin(user: LoginUser, limits: LoginLimits, now: Date, deadline: Deadline): Promise<LoginUser> {
    return this.database.transaction(
      async (em) => {
        const standing = await this.radiusUsers.lockValidityStanding(em, user.id, this.database.supportsRowLocks);
        if (standing === null) return user;
        const current: LoginUser = { ...user, ...standing };
        if (!decideLogin(current, current.recentSessions, limits, now).accepted) return current;
        const validity = validityAtFirstLogin(current, now);
        if (validity === null) return current;
        await this.radiusUsers.startValidity(em, user.id, validity.firstLoginAt, validity.expiresAt);
        await this.audit.record(em, {
          actor: SYSTEM_ACTOR,
          action: 'user.update',
          target: { type: 'user', id: user.id },
          venueIds: await this.radiusUsers.venueIdsOf(em, user.id),
          changedFields: ['expiresAt', 'firstLoginAt'],
        });
        return { ...current, ...validity };
      },
      { deadline, lane: 'radius' },
    );
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
}

/** The user to record the login's attempt under: only one of the NAS's venue (as post-auth's own look-up finds). */
function foundIn(user: LoginUser): string | undefined {
  return user.inVenue ? user.id : undefined;
}

function rejected(reason: RejectReason, userId: string | null): Outcome {
  return { answer: reject(reason), reason, userId };
}

export function reject(reason: RejectReason): AuthorizeAnswer {
  return { status: 401, body: { 'reply:Reply-Message': { value: REJECT_MESSAGES[reason], do_xlat: false } } };
}
