import { isIP } from 'node:net';
import type { UserStatus } from '../hotspot-users/entities/hotspot-user.entity.js';
import { hasLapsed } from '../hotspot-users/hotspot-user.rules.js';
import { USERNAME_MAX_LENGTH, usernameKey } from '../common/validation/normalise.js';
import type { SessionOwner } from '../sessions/sessions.repository.js';
import { sessionTimeout } from '../radius-packets/session-timeout.js';
import { octets } from './radius-attributes.js';

/** The rules of the FreeRADIUS back end, as pure functions: no database, no clock, no Nest. */

/** Reply-Message texts. Unknown user and wrong password share one, so a login cannot probe for names. */
export const REJECT_MESSAGES = {
  invalidCredentials: 'Invalid username or password',
  unknownDevice: 'Device not registered',
  blocked: 'Account blocked',
  expired: 'Account expired',
  wrongVenue: 'Account not valid at this location',
  tooManySessions: 'Too many simultaneous sessions',
  quotaExhausted: 'Data or time allowance used up',
  tooManyDevices: 'Too many devices',
  papRequired: 'Authentication method not supported: the NAS must use PAP',
  unknownNas: 'Access denied',
} as const;

export type RejectReason = keyof typeof REJECT_MESSAGES;

// Authorize

/** What the decision needs to know of a user whose password (or MAC) has been checked. */
export interface LoginCandidate {
  id: string;
  status: UserStatus;
  expiresAt: Date | null;
  /** Whether the user belongs to the venue of the NAS the login came through. */
  inVenue: boolean;
}

export interface LoginLimits {
  maxSessionSeconds: number;
  maxSessionsPerUser: number;
}

export type LoginDecision =
  { accepted: true; userId: string; sessionTimeout: number } | { accepted: false; reason: RejectReason };

/**
 * Whether a user whose credentials matched may log in at the NAS: active, not past its expiresAt,
 * in the NAS's venue, and under the session limit (`recentSessions` counts its sessions with a
 * recent accounting update). Session-Timeout is the time left until expiresAt, capped.
 */
export function decideLogin(
  user: LoginCandidate,
  recentSessions: number,
  limits: LoginLimits,
  now: Date,
): LoginDecision {
  const offline = offlineReason(user, now);
  if (offline !== null) return { accepted: false, reason: offline };
  if (limits.maxSessionsPerUser > 0 && recentSessions >= limits.maxSessionsPerUser) {
    return { accepted: false, reason: 'tooManySessions' };
  }
  return {
    accepted: true,
    userId: user.id,
    sessionTimeout: sessionTimeout(user.expiresAt, now, limits.maxSessionSeconds),
  };
}

/** How the request asks to be authenticated. */
export type LoginMethodOfRequest =
  | { kind: 'pap'; username: string; password: string }
  | { kind: 'mac'; mac: string; username: string; password: string | null }
  | { kind: 'noUsername' }
  | { kind: 'unsupported' };

/**
 * MAC authentication is a request whose User-Name is the Calling-Station-Id's MAC (in any accepted
 * form) with no password, or with the user name repeated as the password, as many NASes send it.
 * Any other request with a User-Password is PAP; the rest (CHAP, MS-CHAP, EAP) cannot be checked
 * against argon2id hashes. A request without User-Name names nobody, whatever its method.
 * `normaliseMac` gives the canonical MAC of a text, or null.
 */
export function loginMethodOf(
  request: { username: string | null; password: string | null; callingStationId: string | null },
  normaliseMac: (value: string) => string | null,
): LoginMethodOfRequest {
  const { username, password, callingStationId } = request;
  if (username === null || username === '') return { kind: 'noUsername' };
  const mac = normaliseMac(username);
  const isMacLogin =
    mac !== null &&
    callingStationId !== null &&
    normaliseMac(callingStationId) === mac &&
    (password === null || password === '' || normaliseMac(password) === mac);
  if (isMacLogin) return { kind: 'mac', mac, username, password: password === '' ? null : password };
  if (password !== null && password !== '') return { kind: 'pap', username, password };
  return { kind: 'unsupported' };
}

// Login attempts (post-auth)

/**
 * The reject reason whose Reply-Message is `message` (REJECT_MESSAGES texts are distinct), so
 * post-auth records the reason in the words authorize decided it; null for no text or any other.
 */
export function rejectReasonOfMessage(message: string | null | undefined): RejectReason | null {
  if (message === null || message === undefined) return null;
  const text = message.trim();
  for (const [reason, reasonMessage] of Object.entries(REJECT_MESSAGES)) {
    if (reasonMessage === text) return reason as RejectReason;
  }
  return null;
}

/** How post-auth finds the user a login attempt is about, cheapest first. */
export type AttemptUserLookup =
  | { kind: 'class'; userId: string }
  | { kind: 'username'; username: string }
  | { kind: 'macOrUsername'; mac: string; username: string }
  | { kind: 'none' };

/**
 * The user of an attempt: the one its Class names (a re-authentication); else, as authorize looked
 * it up, the venue's guest with the MAC of a MAC login, then the holder of the User-Name (for a
 * wrong password, or a method authorize refused, too). A request without User-Name names nobody.
 */
export function attemptUserLookup(
  classUserId: string | null,
  username: string | null,
  method: LoginMethodOfRequest,
): AttemptUserLookup {
  if (classUserId !== null) return { kind: 'class', userId: classUserId };
  if (method.kind === 'mac') return { kind: 'macOrUsername', mac: method.mac, username: method.username };
  if (username === null || username === '' || method.kind === 'noUsername') return { kind: 'none' };
  return { kind: 'username', username };
}

// Class: ties accounting back to the user exactly

const CLASS_PREFIX = 'hsp:';

/** The Class attribute of an Accept, as rlm_rest takes an octets value. */
export function encodeClass(userId: string): string {
  return `0x${Buffer.from(CLASS_PREFIX + userId, 'utf8').toString('hex')}`;
}

/** The user id of the first Class this service issued, or null (absent, or another system's Class). */
export function userIdOfClass(values: readonly string[]): string | null {
  for (const value of values) {
    const text = octets(value)?.toString('utf8') ?? value;
    if (text.startsWith(CLASS_PREFIX)) {
      const id = text.slice(CLASS_PREFIX.length);
      if (/^[A-Za-z0-9-]{1,36}$/.test(id)) return id;
    }
  }
  return null;
}

// Accounting

/** Why the user an accounting packet names may not be online at the NAS; null when it may. */
export type OfflineReason = 'blocked' | 'expired' | 'wrongVenue';

/**
 * Whether a user may be online at the NAS, for a login (decideLogin) and for the Start or
 * Interim-Update of a session alike: active, not past its expiresAt, and in the NAS's venue (a user
 * moved out of it while online may not stay). The session limit is a login's concern only.
 */
export function offlineReason(
  user: { status: string; expiresAt: Date | null; inVenue: boolean },
  now: Date,
): OfflineReason | null {
  if (user.status === 'blocked') return 'blocked';
  if (user.status === 'expired' || hasLapsed(user.expiresAt, now)) return 'expired';
  return user.inVenue ? null : 'wrongVenue';
}

/**
 * Whom an accounting packet names, as far as one statement can check it against a stored session:
 * the user its Class names, else the holder of its User-Name in the NAS's venue. Null when it names
 * nobody that way (no Class and no usable User-Name; a guest found by MAC takes the general path).
 */
export function sessionOwnerOf(
  classUserId: string | null,
  username: string | null,
  venueId: string,
): SessionOwner | null {
  if (classUserId !== null) return { userId: classUserId };
  if (username === null) return null;
  const key = usernameKey(username);
  return key.length === 0 || key.length > USERNAME_MAX_LENGTH ? null : { venueId, usernameKey: key };
}

export const ACCT_STATUS_TYPES = {
  Start: 1,
  Stop: 2,
  'Interim-Update': 3,
  'Accounting-On': 7,
  'Accounting-Off': 8,
} as const;

/** RFC 2866 and 3580 Acct-Terminate-Cause values, stored by name. */
export const TERMINATE_CAUSES = {
  'User-Request': 1,
  'Lost-Carrier': 2,
  'Lost-Service': 3,
  'Idle-Timeout': 4,
  'Session-Timeout': 5,
  'Admin-Reset': 6,
  'Admin-Reboot': 7,
  'Port-Error': 8,
  'NAS-Error': 9,
  'NAS-Request': 10,
  'NAS-Reboot': 11,
  'Port-Unneeded': 12,
  'Port-Preempted': 13,
  'Port-Suspended': 14,
  'Service-Unavailable': 15,
  Callback: 16,
  'User-Error': 17,
  'Host-Request': 18,
  'Supplicant-Restart': 19,
  'Reauthentication-Failure': 20,
  'Port-Reinitialized': 21,
  'Port-Administratively-Disabled': 22,
} as const;

/** Terminate causes this service writes itself. */
export const SERVICE_TERMINATE_CAUSES = {
  enforcement: 'enforcement',
  stale: 'stale',
  nasRestart: 'NAS-Reboot',
} as const;

/** The largest value a signed BIGINT column holds. */
const MAX_BIGINT = (1n << 63n) - 1n;

/** A 64-bit counter from its low 32 bits and its gigawords (octets + gigawords · 2³²), as decimal digits. */
export function combineOctets(low: number | null, gigawords: number | null): string | null {
  if (low === null && gigawords === null) return null;
  const total = (BigInt(gigawords ?? 0) << 32n) + BigInt(low ?? 0);
  return (total > MAX_BIGINT ? MAX_BIGINT : total).toString();
}

/** The larger of two counters (a retransmitted or reordered packet never makes one go back). */
export function maxCounter(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return BigInt(a) >= BigInt(b) ? a : b;
}

/** The later of a stored time and a new one: a packet handled after a newer one never moves it back. */
export function latestOf(stored: Date | null, now: Date): Date {
  return stored !== null && stored > now ? stored : now;
}

/** The longest IP address text a session keeps (a full IPv6 address with an IPv4 tail). */
const MAX_ADDRESS_LENGTH = 45;

/** The packet's source address as a session records it (`nasSourceIp`), where a Disconnect goes. */
export function recordedSource(nas: { sourceIp?: string }): string | null {
  return nas.sourceIp?.slice(0, MAX_ADDRESS_LENGTH) ?? null;
}

/**
 * Whose sessions an Accounting-On or -Off ends: the NAS's, or, for a NAS registered as a network,
 * those recorded from the packet's source address (the host that restarted); null: all.
 */
export function restartedSource(nas: { sourceIp?: string; network?: boolean }): string | null {
  return nas.network === true ? recordedSource(nas) : null;
}

/**
 * An address attribute (Framed-IP-Address, NAS-IP-Address) as a session keeps it: an IPv4 or IPv6
 * address, else nothing. FreeRADIUS sends only valid ones; the API takes any text.
 */
export function addressOrNull(value: string | null): string | null {
  return value !== null && value.length <= MAX_ADDRESS_LENGTH && isIP(value) !== 0 ? value : null;
}

/** Largest Acct-Session-Time the int column keeps. */
const MAX_SESSION_TIME = 2_147_483_647;

export function clampSessionTime(seconds: number | null): number | null {
  return seconds === null ? null : Math.min(seconds, MAX_SESSION_TIME);
}

/**
 * When a session began: the packet's arrival less its Acct-Session-Time and Acct-Delay-Time, but
 * never before `notBefore` (its user's creation), since a NAS's Acct-Session-Time can be anything
 * up to 2³²−1 s (136 years).
 */
export function sessionStartedAt(now: Date, sessionTime: number | null, delay: number, notBefore: Date | null): Date {
  const startedAt = now.getTime() - ((sessionTime ?? 0) + delay) * 1000;
  return new Date(notBefore === null ? startedAt : Math.max(startedAt, notBefore.getTime()));
}

/** What an accounting packet reports of a session's progress (or the session as stored). */
export interface SessionProgress {
  sessionTime: number | null;
  inputOctets: string | null;
  outputOctets: string | null;
}

/**
 * Whether a packet shows a session further on than stored: a longer Acct-Session-Time, or, when it
 * carries none, more octets. A retransmitted or reordered packet shows none.
 */
export function reportsProgress(stored: SessionProgress, report: SessionProgress): boolean {
  if (report.sessionTime !== null) return stored.sessionTime === null || report.sessionTime > stored.sessionTime;
  const more = (had: string | null, now: string | null) => now !== null && (had === null || BigInt(now) > BigInt(had));
  return more(stored.inputOctets, report.inputOctets) || more(stored.outputOctets, report.outputOctets);
}

/** Whether a packet is older than what is stored (a shorter Acct-Session-Time): its IP address is not taken. */
export function reportsLess(stored: SessionProgress, report: SessionProgress): boolean {
  return report.sessionTime !== null && stored.sessionTime !== null && report.sessionTime < stored.sessionTime;
}

/** What a packet does to the session it is about, given the session as stored (or null). */
export type AccountingStep =
  | { kind: 'ignore' }
  | { kind: 'insert'; ended: boolean }
  | { kind: 'update'; ends: boolean }
  | { kind: 'enforce'; insert: boolean }
  | { kind: 'enforceAgain' }
  | { kind: 'reopen' };

/**
 * Start, Interim-Update and Stop against the stored session. A retransmitted Start changes nothing;
 * a Stop or Interim without a Start creates the session. A Start or Interim of a user who may not be
 * online ends that session (enforcement) while it is new or still active.
 *
 * An ended session takes counters, unless an Interim-Update shows it going on (`progress`): the NAS
 * still has it, whatever ended it here (a Disconnect that failed, the stale sweep, an Accounting-On).
 * Then it is enforced again when the user may not be online (`enforceAgain`: a new Disconnect), and
 * otherwise counted as online again (`reopen`), so that a later block, expiry or deletion reaches it.
 */
export function accountingStep(
  type: 'Start' | 'Interim-Update' | 'Stop',
  session: { status: string } | null,
  userAllowed: boolean,
  progress: boolean,
): AccountingStep {
  const reportsUse = type !== 'Stop';
  if (session === null) {
    if (reportsUse && !userAllowed) return { kind: 'enforce', insert: true };
    return { kind: 'insert', ended: type === 'Stop' };
  }
  if (session.status !== 'active') {
    if (type === 'Start') return { kind: 'ignore' };
    if (type === 'Interim-Update' && progress) return userAllowed ? { kind: 'reopen' } : { kind: 'enforceAgain' };
    return { kind: 'update', ends: false };
  }
  if (reportsUse && !userAllowed) return { kind: 'enforce', insert: false };
  if (type === 'Start') return { kind: 'ignore' };
  return { kind: 'update', ends: type === 'Stop' };
}
