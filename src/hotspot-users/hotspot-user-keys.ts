import { emailKey, phoneKey, usernameKey } from '../common/validation/normalise.js';
import type { FieldError } from '../common/errors/api-error.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';

/** The per-venue uniqueness keys of a user, normalised so both engines compare them alike. */
export interface UniquenessKeys {
  usernameKey: string | null;
  emailKey: string | null;
  phoneKey: string | null;
}

export const NO_KEYS: UniquenessKeys = { usernameKey: null, emailKey: null, phoneKey: null };

export const KEY_FIELDS = [
  { field: 'username', key: 'usernameKey', column: 'username_key' },
  { field: 'email', key: 'emailKey', column: 'email_key' },
  { field: 'phone', key: 'phoneKey', column: 'phone_key' },
] as const;

/** Expired users hold no keys: their username, email and phone are free for others. */
export function keysOf(user: HotspotUserEntity): UniquenessKeys {
  if (user.status === 'expired') return NO_KEYS;
  return {
    usernameKey: user.username === null ? null : usernameKey(user.username),
    emailKey: user.email === null ? null : emailKey(user.email),
    phoneKey: user.phone === null ? null : phoneKey(user.phone),
  };
}

export function clashError(field: string, venueId: string): FieldError {
  return { field, message: `${field} already used in venue ${venueId}` };
}

/**
 * The field a duplicate-key error is about, read from the index or column it names:
 * MySQL "… for key 'hotspot_user_venues.uq_user_venues_email'", SQLite "… failed: hotspot_user_venues.venue_id, hotspot_user_venues.email_key".
 */
export function fieldOfDuplicateKeyError(error: unknown): string | null {
  const message = String((error as { message?: unknown })?.message ?? '');
  const found = KEY_FIELDS.find(({ field, column }) => message.includes(`uq_user_venues_${field}`) || message.includes(column));
  return found?.field ?? null;
}
