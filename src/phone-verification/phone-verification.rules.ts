import { randomInt } from 'node:crypto';
import { PHONE_CHARACTERS, PHONE_MAX_DIGITS, PHONE_MAX_LENGTH, phoneKey } from '../common/validation/normalise.js';

/** A code: 6 digits, valid 10 minutes, 5 tries. */
export const CODE_DIGITS = 6;
export const CODE_LIFETIME_MS = 10 * 60_000;
export const CODE_TRIES = 5;

/** The shortest E.164 number taken: a country code and a subscriber number of at least 6 digits. */
const MIN_E164_DIGITS = 8;

export type PhoneProblem = 'invalid' | 'international' | 'country';

/**
 * What a guest typed as an E.164 number, by the project's phone rule (characters, digits, the `+`
 * that phoneKey keeps): `+` or `00` starts an international number; a national one (one leading 0)
 * takes `defaultCountryCode` when there is one. `country`: a country the venue does not send to.
 */
export function e164Of(
  typed: string,
  options: { defaultCountryCode: string | null; countryCodes: readonly string[] },
): { phone: string } | { problem: PhoneProblem } {
  const text = typed.trim();
  if (text.length === 0 || text.length > PHONE_MAX_LENGTH || !PHONE_CHARACTERS.test(text))
    return { problem: 'invalid' };
  let key = phoneKey(text);
  if (key.startsWith('00')) key = `+${key.slice(2)}`;
  if (!key.startsWith('+')) {
    if (options.defaultCountryCode === null || !/^0[1-9]/.test(key)) return { problem: 'international' };
    key = `+${options.defaultCountryCode}${key.slice(1)}`;
  }
  const digits = key.length - 1;
  if (digits < MIN_E164_DIGITS || digits > PHONE_MAX_DIGITS || key[1] === '0') return { problem: 'invalid' };
  const country = countryCodeOf(key);
  if (options.countryCodes.length > 0 && !options.countryCodes.includes(country)) return { problem: 'country' };
  return { phone: key };
}

/** Two-digit country codes among those starting 2-9 (ITU-T E.164 assignments); the others there have three. */
// prettier-ignore
const TWO_DIGIT_CODES = new Set([
  '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49',
  '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84',
  '86', '90', '91', '92', '93', '94', '95', '98',
]);

/** The country calling code of an E.164 number: 1 (NANP) and 7 alone, then two or three digits. */
export function countryCodeOf(e164: string): string {
  const digits = e164.replace(/^\+/, '');
  if (digits.startsWith('1') || digits.startsWith('7')) return digits[0];
  return TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? digits.slice(0, 2) : digits.slice(0, 3);
}

/** A new code: uniformly random, leading zeros kept. */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** What the guest typed as a code, spaces and dashes dropped; null when it cannot be one. */
export function typedCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${CODE_DIGITS}}$`).test(code) ? code : null;
}

/** The device a send is counted against: its MAC, else its address; null when the gateway gave neither. */
export function deviceKeyOf(device: { mac: string | null; ip: string | null }): string | null {
  if (device.mac !== null && device.mac !== '') return `mac:${device.mac.toLowerCase()}`;
  if (device.ip !== null && device.ip !== '') return `ip:${device.ip.toLowerCase()}`;
  return null;
}

export const LIMIT_SCOPES = ['phone', 'device', 'venue', 'prefix'] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

export type SendLimits = Record<LimitScope, { sends: number; windowMs: number }>;

/** One counter a send adds to: its scope and subject, the fixed window it falls in and the cap. */
export interface SendCounter {
  scope: LimitScope;
  subject: string;
  windowStart: Date;
  windowEnd: Date;
  limit: number;
}

/**
 * The counters a send to `phone` from `device` at `venueId` adds to, in a fixed order (so that
 * concurrent sends lock them in the same order). A limit of 0 counts nothing; a device the gateway
 * did not name is counted as one unknown device of the venue.
 */
export function sendCounters(
  send: { phone: string; deviceKey: string | null; venueId: string; now: Date },
  limits: SendLimits,
): SendCounter[] {
  const subjects: Record<LimitScope, string> = {
    phone: send.phone,
    device: send.deviceKey ?? `unknown:${send.venueId}`,
    venue: send.venueId,
    prefix: countryCodeOf(send.phone),
  };
  return LIMIT_SCOPES.filter((scope) => limits[scope].sends > 0).map((scope) => {
    const { sends, windowMs } = limits[scope];
    const start = Math.floor(send.now.getTime() / windowMs) * windowMs;
    return {
      scope,
      subject: subjects[scope],
      windowStart: new Date(start),
      windowEnd: new Date(start + windowMs),
      limit: sends,
    };
  });
}

/** A challenge as stored, as far as the rules need it. */
export interface ChallengeFacts {
  attempts: number;
  expiresAt: Date;
  verifiedAt: Date | null;
}

export type ChallengeState = 'open' | 'verified' | 'locked' | 'expired';

export function challengeState(challenge: ChallengeFacts, now: Date): ChallengeState {
  if (challenge.verifiedAt !== null) return 'verified';
  if (challenge.attempts >= CODE_TRIES) return 'locked';
  if (challenge.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** When another code may be sent for the same phone at the same venue. */
export function resendAt(lastSentAt: Date, resendMs: number): Date {
  return new Date(lastSentAt.getTime() + resendMs);
}

/** The SMS text: the catalogue's sentence with the code and the venue's name. */
export function smsTextOf(template: string, values: { code: string; venue: string }): string {
  return template.replace(/\{(code|venue)\}/g, (_whole, name: 'code' | 'venue') => values[name]);
}
