/** Normalisation shared by validation, storage and uniqueness keys. */

export const MAC_FORMS = [
  /^([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})$/,
  /^([0-9A-Fa-f]{2})-([0-9A-Fa-f]{2})-([0-9A-Fa-f]{2})-([0-9A-Fa-f]{2})-([0-9A-Fa-f]{2})-([0-9A-Fa-f]{2})$/,
  /^([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})\.([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})\.([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})$/,
  /^([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})$/,
];

/** `AA:BB:CC:DD:EE:FF` from any of the four accepted forms, or null when the value is none of them. */
export function normaliseMac(value: string): string | null {
  for (const form of MAC_FORMS) {
    const match = form.exec(value);
    if (match) return match.slice(1).join(':').toUpperCase();
  }
  return null;
}

export const PHONE_CHARACTERS = /^\+?[0-9 ()-]+$/;
export const PHONE_MIN_DIGITS = 7;
export const PHONE_MAX_DIGITS = 15;
/** The phone column's length. */
export const PHONE_MAX_LENGTH = 32;

export function phoneDigitCount(value: string): number {
  return value.replace(/\D/g, '').length;
}

/** What phone uniqueness compares: the digits, and the leading `+` when there is one. */
export function phoneKey(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return phone.trimStart().startsWith('+') ? `+${digits}` : digits;
}

/** The username column's length, and its uniqueness key's, in characters: a longer name is nobody's. */
export const USERNAME_MAX_LENGTH = 64;

export function usernameKey(username: string): string {
  return username.toLowerCase();
}

/** The email column's length, and its uniqueness key's, in characters. */
export const EMAIL_MAX_LENGTH = 254;

export function emailKey(email: string): string {
  return email.toLowerCase();
}

/** Venue ids keep their order; repeats are dropped. */
export function uniqueVenueIds(venueIds: readonly string[]): string[] {
  return [...new Set(venueIds)];
}
