import { isPermission, permissionConflict, PERMISSIONS, type Permission } from '../../auth/permissions.js';
import { LATEST_STORABLE_INSTANT } from '../../common/validation/iso-date-time.js';
import { uniqueVenueIds } from '../../common/validation/normalise.js';
import { isSafeText, VENUE_ID_PATTERN } from '../../common/validation/validators.js';
import { dayEnd } from '../../web/zoned-time.js';

/**
 * The settings forms of the console read into the services' inputs, pure: each answer is the value
 * or the message key of its problem (shown next to the form, which is shown again).
 */

export type FormResult<T> = { value: T } | { problem: string };

/** At most this many venues in one restriction (a form cannot grow a list without end). */
export const MAX_FORM_VENUES = 50;
export const TOKEN_NAME_MAX_LENGTH = 100;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A token's name: trimmed, 1-100 characters, no control characters (as `hotspot token create --name`). */
export function tokenName(raw: string): FormResult<string> {
  const name = raw.trim();
  const length = [...name].length;
  if (length < 1 || length > TOKEN_NAME_MAX_LENGTH || CONTROL_CHARACTERS.test(name) || !isSafeText(name)) {
    return { problem: 'tokens.problem.name' };
  }
  return { value: name };
}

/** A token's permissions from its checkboxes: known ones, at least one, radius alone. */
export function tokenPermissions(values: readonly string[]): FormResult<Permission[]> {
  if (values.length === 0 || !values.every(isPermission)) return { problem: 'tokens.problem.permissions' };
  const permissions = PERMISSIONS.filter((permission) => values.includes(permission));
  if (permissionConflict(permissions) !== null) return { problem: 'tokens.problem.radius' };
  return { value: permissions };
}

/**
 * A venue restriction: `scope` 'all' (null: every venue) or 'some', the ticked registered venues
 * and the ids typed in `other` (separated by commas or spaces), at least one, each a venue id.
 */
export function venueRestriction(
  scope: string,
  ticked: readonly string[],
  other: string,
  problemKey: string,
): FormResult<string[] | null> {
  if (scope === 'all') return { value: null };
  if (scope !== 'some') return { problem: problemKey };
  const typed = other.split(/[\s,]+/).filter((id) => id !== '');
  const ids = [...ticked, ...typed];
  if (ids.length === 0 || ids.length > MAX_FORM_VENUES || !ids.every((id) => VENUE_ID_PATTERN.test(id))) {
    return { problem: problemKey };
  }
  return { value: uniqueVenueIds(ids) };
}

/** An optional expiry date (`YYYY-MM-DD`): the token works until that day ends in `zone`; empty: never. */
export function expiryDate(raw: string, zone: string | null, now: Date): FormResult<Date | null> {
  if (raw.trim() === '') return { value: null };
  const end = dayEnd(raw, zone);
  if (end === null || end.getTime() > LATEST_STORABLE_INSTANT.getTime()) return { problem: 'tokens.problem.expiry' };
  if (end.getTime() <= now.getTime()) return { problem: 'tokens.problem.expiryPast' };
  return { value: end };
}
