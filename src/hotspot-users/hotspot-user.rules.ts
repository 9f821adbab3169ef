import type { FieldError } from '../common/errors/api-error.js';
import { emailKey, phoneKey, usernameKey } from '../common/validation/normalise.js';
import type { UnauthReason } from '../unauth-jobs/entities/unauth-job.entity.js';
import type { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity, type LoginMethod, type UserStatus } from './entities/hotspot-user.entity.js';
import type { CreateUserInput, UpdateUserInput } from './hotspot-user.inputs.js';
import { updatedUserText, userTextOf } from './user-text-fields.js';

/** The rules of hotspot users, as pure functions: no database, no clock, no Nest. */

// Status transitions

/**
 * Why a user's sessions end, the reason its unauth job carries, and whether the job is written
 * even when no session was active: a PUT into blocked or expired always tells the network side;
 * POST expire, the expiry sweep and DELETE only when they ended sessions.
 */
export interface SessionEnding {
  reason: UnauthReason;
  jobWithoutSessions: boolean;
}

export const ENDINGS = {
  blockedByUpdate: { reason: 'blocked', jobWithoutSessions: true },
  expiredByUpdate: { reason: 'expired', jobWithoutSessions: true },
  expiredByRequest: { reason: 'expired', jobWithoutSessions: false },
  expiredBySweep: { reason: 'expiry', jobWithoutSessions: false },
  deleted: { reason: 'deleted', jobWithoutSessions: false },
  removedFromVenues: { reason: 'venue-removed', jobWithoutSessions: false },
} as const satisfies Record<string, SessionEnding>;

/** The venues a change of venueIds takes from the user: where its sessions may no longer go on. */
export function removedVenues(before: readonly string[], after: readonly string[]): string[] {
  return before.filter((venueId) => !after.includes(venueId));
}

export function writesUnauthJob(ending: SessionEnding, endedSessions: number): boolean {
  return ending.jobWithoutSessions || endedSessions > 0;
}

/**
 * The venues that decide who may read an unauth job: its user's, like the user itself; once the user
 * is deleted (`userVenueIds` null), the venues of the sessions it ended. A job of a deleted user that
 * lists no session belongs to no venue.
 */
export function venuesOfJob(userVenueIds: readonly string[] | null, jobSessions: readonly { venueId: string }[]) {
  return userVenueIds ?? [...new Set(jobSessions.map((session) => session.venueId))];
}

/**
 * Whether a PUT's change of expiresAt calls for a CoA-Request (the new Session-Timeout) to the NASes
 * of the user's sessions: expiresAt given and different, the user active afterwards (a move into
 * blocked or expired ends the sessions instead), and the new value not lapsed. Only sessions a NAS
 * reported (RADIUS accounting) can be changed.
 */
export function callsForCoa(
  before: { status: UserStatus; expiresAt: Date | null },
  after: { status: UserStatus; expiresAt: Date | null },
  radiusSessions: number,
  now: Date,
): boolean {
  return (
    radiusSessions > 0 &&
    before.status !== 'expired' &&
    after.status === 'active' &&
    (before.expiresAt?.getTime() ?? null) !== (after.expiresAt?.getTime() ?? null) &&
    !hasLapsed(after.expiresAt, now)
  );
}

/**
 * What a PUT's status does. Expired is final: the whole PUT is refused, whatever its body. No status,
 * or the same one again, changes nothing. Active and blocked move to each other and to expired;
 * moves into blocked or expired end the user's sessions.
 */
export type StatusMove =
  { kind: 'refused' } | { kind: 'unchanged' } | { kind: 'moved'; to: UserStatus; ending: SessionEnding | null };

export function statusMove(from: UserStatus, to: UserStatus | undefined): StatusMove {
  if (from === 'expired') return { kind: 'refused' };
  if (to === undefined || to === from) return { kind: 'unchanged' };
  const ending = to === 'blocked' ? ENDINGS.blockedByUpdate : to === 'expired' ? ENDINGS.expiredByUpdate : null;
  return { kind: 'moved', to, ending };
}

// Expiry

/** The statuses the expiry sweep looks at. */
export const EXPIRING_STATUSES = ['active', 'blocked'] as const satisfies readonly UserStatus[];

/** Whether an expiry time has come: from that instant the user counts as expired. */
export function hasLapsed(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}

/** Whether the expiry sweep expires this user now. */
export function isDueForExpiry(user: Pick<HotspotUserEntity, 'status' | 'expiresAt'>, now: Date): boolean {
  return (EXPIRING_STATUSES as readonly UserStatus[]).includes(user.status) && hasLapsed(user.expiresAt, now);
}

export function expiryErrors(
  loginMethod: LoginMethod,
  expiresAt: Date | null | undefined,
  now: Date,
  validFor: number | null | undefined = undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  if (expiresAt != null) {
    if (loginMethod !== 'username_password') {
      errors.push({ field: 'expiresAt', message: 'expiresAt applies to username_password users only' });
    } else if (hasLapsed(expiresAt, now)) {
      errors.push({ field: 'expiresAt', message: 'expiresAt must lie in the future' });
    }
  }
  if (validFor != null && loginMethod !== 'username_password') {
    errors.push({ field: 'validFor', message: 'validFor applies to username_password users only' });
  }
  return errors;
}

/**
 * What the first accepted login of a user with validFor sets: expiresAt then plus validFor, or the
 * stored expiresAt when that is earlier. Null when the login starts nothing (no validFor, or the
 * validity started at an earlier login).
 */
export function validityAtFirstLogin(
  user: { validFor: number | null; firstLoginAt: Date | null; expiresAt: Date | null },
  now: Date,
): { firstLoginAt: Date; expiresAt: Date } | null {
  if (user.validFor === null || user.firstLoginAt !== null) return null;
  const end = new Date(now.getTime() + user.validFor * 1000);
  const expiresAt = user.expiresAt !== null && user.expiresAt.getTime() < end.getTime() ? user.expiresAt : end;
  return { firstLoginAt: now, expiresAt };
}

/** The user after the move into expired (POST expire, the sweep); safe to apply again. */
export function expiredUser(user: HotspotUserEntity, now: Date): HotspotUserEntity {
  return Object.assign(new HotspotUserEntity(), user, {
    status: 'expired',
    updatedAt: now,
    version: user.version + 1,
  } satisfies Partial<HotspotUserEntity>);
}

// Creation and the field changes of a PUT

export function newUser(input: CreateUserInput, id: string, passwordHash: string | null, now: Date): HotspotUserEntity {
  return Object.assign(new HotspotUserEntity(), {
    id,
    name: input.name,
    username: input.username,
    ...userTextOf(input),
    macAddress: input.macAddress,
    loginMethod: input.loginMethod,
    status: 'active',
    passwordHash,
    expiresAt: input.expiresAt,
    validFor: input.validFor,
    firstLoginAt: null,
    metadata: input.metadata,
    createdAt: now,
    updatedAt: now,
    batchId: null,
    planId: null,
    version: 1,
  } satisfies HotspotUserEntity);
}

/** Rules of a PUT that depend on the stored user, checked before anything changes. */
export function updateErrors(user: HotspotUserEntity, input: UpdateUserInput, now: Date): FieldError[] {
  const errors = expiryErrors(user.loginMethod, input.expiresAt, now, input.validFor);
  if (user.loginMethod === 'username_password' && input.username === null) {
    errors.push({ field: 'username', message: 'username cannot be removed from a username_password user' });
  }
  return errors;
}

/**
 * The user after a PUT, and the columns to write. Each field a PUT may change is named, so nothing
 * else in the body can reach the row; updatedAt moves on every PUT, an empty one too.
 */
export function appliedUpdate(
  user: HotspotUserEntity,
  input: UpdateUserInput,
  now: Date,
): { user: HotspotUserEntity; changes: Partial<HotspotUserEntity> } {
  const changes = {
    name: input.name ?? user.name,
    username: input.username === undefined ? user.username : input.username,
    ...updatedUserText(user, input),
    macAddress: input.macAddress === undefined ? user.macAddress : input.macAddress,
    expiresAt: input.expiresAt === undefined ? user.expiresAt : input.expiresAt,
    validFor: input.validFor === undefined ? user.validFor : input.validFor,
    metadata: input.metadata ?? user.metadata,
    status: input.status ?? user.status,
    updatedAt: now,
    version: user.version + 1,
  } satisfies Partial<HotspotUserEntity>;
  return { user: Object.assign(new HotspotUserEntity(), user, changes), changes };
}

// Uniqueness per venue

/** The per-venue uniqueness keys of a user, normalised so both engines compare them alike. */
export interface UniquenessKeys {
  usernameKey: string | null;
  emailKey: string | null;
  phoneKey: string | null;
}

export const KEY_FIELDS = [
  { field: 'username', key: 'usernameKey', column: 'username_key' },
  { field: 'email', key: 'emailKey', column: 'email_key' },
  { field: 'phone', key: 'phoneKey', column: 'phone_key' },
] as const;

/** Expired users hold no keys: their username, email and phone are free for others. */
export function keysOf(user: Pick<HotspotUserEntity, 'status' | 'username' | 'email' | 'phone'>): UniquenessKeys {
  if (user.status === 'expired') return { usernameKey: null, emailKey: null, phoneKey: null };
  return {
    usernameKey: user.username === null ? null : usernameKey(user.username),
    emailKey: user.email === null ? null : emailKey(user.email),
    phoneKey: user.phone === null ? null : phoneKey(user.phone),
  };
}

export type KeyHolder = Pick<HotspotUserVenueEntity, 'venueId' | 'usernameKey' | 'emailKey' | 'phoneKey'>;

/** One error per venue and field that another user (a `holder` row) holds, in the order of the user's venues. */
export function clashErrors(
  venueIds: readonly string[],
  keys: UniquenessKeys,
  holders: readonly KeyHolder[],
): FieldError[] {
  return venueIds.flatMap((venueId) =>
    KEY_FIELDS.filter(
      ({ key }) => keys[key] !== null && holders.some((row) => row.venueId === venueId && row[key] === keys[key]),
    ).map(({ field }) => ({ field, message: `${field} already used in venue ${venueId}` })),
  );
}

/**
 * A unique index refused a user's write: a concurrent request took one of its keys between the
 * check and the write. It carries what naming the clash needs, once the transaction has rolled back.
 */
export class KeyConflict extends Error {
  override name = 'KeyConflict';

  constructor(
    readonly userId: string,
    readonly venueIds: readonly string[],
    readonly keys: UniquenessKeys,
    cause: unknown,
  ) {
    super('a uniqueness key was taken concurrently', { cause });
  }
}

/** The 409's errors: the clashes found after the rollback, else the field the duplicate-key error names. */
export function conflictErrors(conflict: KeyConflict, holders: readonly KeyHolder[]): FieldError[] {
  const clashes = clashErrors(conflict.venueIds, conflict.keys, holders);
  if (clashes.length > 0) return clashes;
  const field = fieldOfDuplicateKeyError(conflict.cause) ?? 'username';
  return [{ field, message: `${field} already used in one of the user's venues` }];
}

/**
 * The field a duplicate-key error is about, read from the index or column it names: MySQL "… for
 * key 'hotspot_user_venues.uq_user_venues_email'", SQLite "… failed: hotspot_user_venues.venue_id,
 * hotspot_user_venues.email_key".
 */
export function fieldOfDuplicateKeyError(error: unknown): string | null {
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  const found = KEY_FIELDS.find(
    ({ field, column }) => message.includes(`uq_user_venues_${field}`) || message.includes(column),
  );
  return found?.field ?? null;
}

// Venue rows

/**
 * How the user's venue rows go from `stored` (the rows that exist) to `next`: rows that stay are
 * updated in place, only removed venues are deleted and only added ones inserted, each with its
 * position in `next`. Nothing is deleted that cannot exist: on InnoDB a delete that matches no row
 * still locks the index gap, and concurrent creates (time-ordered ids land in the same gap) would
 * deadlock each other.
 */
export function venueRowChanges(
  stored: readonly string[],
  next: readonly string[],
): {
  removed: string[];
  kept: Array<{ venueId: string; position: number }>;
  added: Array<{ venueId: string; position: number }>;
} {
  const placed = next.map((venueId, position) => ({ venueId, position }));
  return {
    removed: stored.filter((venueId) => !next.includes(venueId)),
    kept: placed.filter(({ venueId }) => stored.includes(venueId)),
    added: placed.filter(({ venueId }) => !stored.includes(venueId)),
  };
}

// Generated passwords

/** Letters and digits a guest cannot misread (no i, l, o, 0, 1). */
const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const GENERATED_PASSWORD_LENGTH = 10;
/** Random bytes enough for the password even after dropping those above the alphabet's last multiple. */
export const GENERATED_PASSWORD_RANDOM_BYTES = 32;

/**
 * A password for a username_password user whose creator typed none (the console), from `random`
 * bytes (GENERATED_PASSWORD_RANDOM_BYTES of them): 10 characters of a 31-letter alphabet (about 49
 * bits), in two groups of five, easy to read out at a front desk. Null if the bytes ran out.
 */
export function generatedPassword(random: Uint8Array): string | null {
  const usable = Math.floor(256 / PASSWORD_ALPHABET.length) * PASSWORD_ALPHABET.length;
  const characters: string[] = [];
  for (const byte of random) {
    if (characters.length === GENERATED_PASSWORD_LENGTH) break;
    if (byte < usable) characters.push(PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length]);
  }
  if (characters.length < GENERATED_PASSWORD_LENGTH) return null;
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}
