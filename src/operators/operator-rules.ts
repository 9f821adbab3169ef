import { isEmail } from 'class-validator';
import type { Actor } from '../auth/actor.js';
import { PERMISSIONS, RADIUS_PERMISSION, type Permission } from '../auth/permissions.js';
import { EMAIL_MAX_LENGTH, emailKey, uniqueVenueIds } from '../common/validation/normalise.js';
import { isSafeText, VENUE_ID_PATTERN } from '../common/validation/validators.js';
import type { OperatorEntity } from './entities/operator.entity.js';

/** The operator rules: what an email, name, permissions and venues may be, and what an operator shows. */

export const OPERATOR_NAME_MAX_LENGTH = 100;

/** The permissions an operator may hold: a token's API levels. `radius` belongs to FreeRADIUS alone. */
export const OPERATOR_PERMISSIONS = PERMISSIONS.filter((permission) => permission !== RADIUS_PERMISSION);

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A rule's answer: the value to store, or why it is refused ("must …", after the field's name). */
export type Checked<T> = { value: T } | { error: string };

/**
 * The email as stored: trimmed, at most EMAIL_MAX_LENGTH characters, a plausible address. A domain
 * without a dot is accepted (admin@localhost: the first operator of an installation without mail).
 */
export function operatorEmail(raw: string): Checked<string> {
  const email = raw.trim();
  if (email === '' || [...email].length > EMAIL_MAX_LENGTH) {
    return { error: `must be 1-${EMAIL_MAX_LENGTH} characters` };
  }
  if (!isSafeText(email) || !isEmail(email, { require_tld: false, allow_ip_domain: false })) {
    return { error: 'must be an email address, e.g. name@example.com' };
  }
  return { value: email };
}

/** How two spellings of one address are found to be one operator. */
export function operatorEmailKey(email: string): string {
  return emailKey(email);
}

/** The display name as stored: trimmed, 1-100 characters, no control characters. */
export function operatorName(raw: string): Checked<string> {
  const name = raw.trim();
  const length = [...name].length;
  if (length < 1 || length > OPERATOR_NAME_MAX_LENGTH) {
    return { error: `must be 1-${OPERATOR_NAME_MAX_LENGTH} characters` };
  }
  if (CONTROL_CHARACTERS.test(name) || !isSafeText(name)) return { error: 'must not contain control characters' };
  return { value: name };
}

/** The permissions as stored: at least one of read, write, delete, in that order, each once. */
export function operatorPermissions(permissions: readonly string[]): Checked<Permission[]> {
  const unknown = permissions.filter((permission) => !(OPERATOR_PERMISSIONS as readonly string[]).includes(permission));
  if (permissions.length === 0 || unknown.length > 0) {
    return { error: `must be one or more of ${OPERATOR_PERMISSIONS.join(', ')}` };
  }
  return { value: OPERATOR_PERMISSIONS.filter((permission) => permissions.includes(permission)) };
}

/** The venues as stored: null (every venue) or one or more venue ids, repeats dropped, order kept. */
export function operatorVenueIds(venueIds: readonly string[] | null): Checked<string[] | null> {
  if (venueIds === null) return { value: null };
  if (venueIds.length === 0 || venueIds.some((venueId) => !VENUE_ID_PATTERN.test(venueId))) {
    return { error: 'must be null (every venue) or one or more venue ids of 1-64 characters of A-Za-z0-9_.:-' };
  }
  return { value: uniqueVenueIds(venueIds) };
}

/** The names of the fields of `wanted` whose value differs from the operator's (venues compared as sets, in order of the list). */
export function changedOperatorFields(
  operator: { name: string; permissions: readonly string[]; venueIds: readonly string[] | null; admin: boolean },
  wanted: { name?: string; permissions?: readonly string[]; venueIds?: readonly string[] | null; admin?: boolean },
): string[] {
  const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
    a === null || b === null ? a === b : a.length === b.length && a.every((item) => b.includes(item));
  const changed: string[] = [];
  if (wanted.name !== undefined && wanted.name !== operator.name) changed.push('name');
  if (wanted.permissions !== undefined && !sameList(wanted.permissions, operator.permissions)) {
    changed.push('permissions');
  }
  if (wanted.venueIds !== undefined && !sameList(wanted.venueIds, operator.venueIds)) changed.push('venueIds');
  if (wanted.admin !== undefined && Boolean(wanted.admin) !== Boolean(operator.admin)) changed.push('admin');
  return changed;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const ONE_TIME_PASSWORD_RANDOM_BYTES = 13;

/**
 * A one-time password from 13 random bytes: 4 groups of 5 base32 characters (100 bits), easy to
 * read out and type once, e.g. ABCDE-FGHIJ-KLMNO-PQRST.
 */
export function oneTimePassword(random: Uint8Array): string {
  if (random.length < ONE_TIME_PASSWORD_RANDOM_BYTES) throw new Error('a one-time password needs 13 random bytes');
  let bits = 0n;
  for (const byte of random.subarray(0, ONE_TIME_PASSWORD_RANDOM_BYTES)) bits = (bits << 8n) | BigInt(byte);
  let characters = '';
  for (let index = 0; index < 20; index += 1) {
    characters += BASE32[Number((bits >> BigInt(index * 5)) & 31n)];
  }
  return characters.match(/.{5}/g)!.join('-');
}

/** An operator as the command line and the console show it: never its password hash or TOTP secret. */
export interface OperatorView {
  id: string;
  email: string;
  name: string;
  permissions: Permission[];
  admin: boolean;
  /** null: every venue. */
  venueIds: string[] | null;
  status: OperatorEntity['status'];
  mustChangePassword: boolean;
  /** When the one-time password stops working; null when the operator chose its password. */
  oneTimePasswordExpiresAt: string | null;
  totpEnrolled: boolean;
  createdAt: string;
  updatedAt: string;
  lastSignInAt: string | null;
}

export function toOperatorView(operator: OperatorEntity): OperatorView {
  return {
    id: operator.id,
    email: operator.email,
    name: operator.name,
    permissions: [...operator.permissions],
    admin: Boolean(operator.admin),
    venueIds: operator.venueIds === null ? null : [...operator.venueIds],
    status: operator.status,
    mustChangePassword: Boolean(operator.mustChangePassword),
    oneTimePasswordExpiresAt: operator.mustChangePassword
      ? (operator.oneTimePasswordExpiresAt?.toISOString() ?? null)
      : null,
    totpEnrolled: operator.totpEnrolledAt !== null,
    createdAt: operator.createdAt.toISOString(),
    updatedAt: operator.updatedAt.toISOString(),
    lastSignInAt: operator.lastSignInAt?.toISOString() ?? null,
  };
}

/**
 * The operator as the one actor model sees it: the venue-scope and permission code answers it
 * exactly as it answers an API token with the same permissions and venues.
 */
export function toActor(operator: OperatorEntity): Actor {
  return {
    kind: 'operator',
    id: operator.id,
    name: operator.email,
    permissions: [...operator.permissions],
    venueIds: operator.venueIds === null ? null : [...operator.venueIds],
  };
}

/**
 * Whether an operator's password is a one-time password past its lifetime: it no longer signs in,
 * nor counts as the current password. A one-time password without an expiry is treated as expired.
 */
export function oneTimePasswordExpired(
  operator: Pick<OperatorEntity, 'mustChangePassword' | 'oneTimePasswordExpiresAt'>,
  now: Date,
): boolean {
  if (!operator.mustChangePassword) return false;
  return operator.oneTimePasswordExpiresAt === null || operator.oneTimePasswordExpiresAt.getTime() <= now.getTime();
}
