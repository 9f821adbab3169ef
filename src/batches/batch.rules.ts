import type { FieldError } from '../common/errors/api-error.js';

/** The rules of batches of generated accounts (vouchers), as pure functions: no database, no clock. */

export const BATCH_MAX_COUNT = 1_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 12;
export const DEFAULT_PASSWORD_LENGTH = 10;
export const PREFIX_MAX_LENGTH = 16;
export const DEFAULT_PREFIX = 'guest-';
export const LABEL_MAX_LENGTH = 100;
/** validFor as on a single user (hotspot-users' VALID_FOR_MIN/MAX_SECONDS): a minute to a leap year. */
export const VALID_FOR_MIN = 60;
export const VALID_FOR_MAX = 366 * 86_400;
/** Letters and digits only, then `.`, `_` or `-`: a username a guest can type. Empty is allowed. */
export const PREFIX_PATTERN = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,15})?$/;
/** Random characters after the prefix: 31⁶ ≈ 8.9·10⁸ usernames per prefix. */
export const USERNAME_RANDOM_LENGTH = 6;
/** How many times the usernames that clash with existing ones are drawn again before giving up (a 503-like 409). */
export const USERNAME_DRAWS = 8;

/** The passwords can be shown until this long after the batch's first print, export or reveal. */
export const REVEAL_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * No look-alikes: no 0/O/o, 1/l/I/i. Passwords mix cases and digits (56 symbols: a 10-character
 * password holds about 58 bits); usernames are lower case (31 symbols), as guests type them.
 */
export const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const USERNAME_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A uniform random integer in [0, max): crypto.randomInt in the service, a fixed sequence in specs. */
export type RandomInt = (max: number) => number;

export function randomText(alphabet: string, length: number, random: RandomInt): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphabet[random(alphabet.length)];
  return text;
}

export function newUsername(prefix: string, random: RandomInt): string {
  return prefix + randomText(USERNAME_ALPHABET, USERNAME_RANDOM_LENGTH, random);
}

/** `count` distinct usernames of `prefix`, none of them in `taken` (lower-cased keys). */
export function drawUsernames(prefix: string, count: number, taken: ReadonlySet<string>, random: RandomInt): string[] {
  const drawn = new Set<string>();
  while (drawn.size < count) {
    const username = newUsername(prefix, random);
    if (!taken.has(username.toLowerCase())) drawn.add(username);
  }
  return [...drawn];
}

export function newPassword(length: number, random: RandomInt): string {
  return randomText(PASSWORD_ALPHABET, length, random);
}

/** What a batch is asked for, as the API, the console and the command line give it. */
export interface BatchRequest {
  venueId: string;
  count: number;
  prefix: string;
  passwordLength: number;
  expiresAt: Date | null;
  validFor: number | null;
  label: string | null;
  /** The plan every account is on (offered in the venue); null: none of their own. */
  planId: string | null;
}

/** The checks that need the clock or combine fields (the DTOs check each field's shape). */
export function batchErrors(request: BatchRequest, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  if (!Number.isInteger(request.count) || request.count < 1 || request.count > BATCH_MAX_COUNT)
    errors.push({ field: 'count', message: `count must be an integer from 1 to ${BATCH_MAX_COUNT}` });
  if (
    !Number.isInteger(request.passwordLength) ||
    request.passwordLength < PASSWORD_MIN_LENGTH ||
    request.passwordLength > PASSWORD_MAX_LENGTH
  )
    errors.push({
      field: 'passwordLength',
      message: `passwordLength must be an integer from ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH}`,
    });
  if (!PREFIX_PATTERN.test(request.prefix))
    errors.push({
      field: 'prefix',
      message: `prefix must be up to ${PREFIX_MAX_LENGTH} characters of A-Za-z0-9._- starting with a letter or digit`,
    });
  if (request.label !== null && (request.label.length === 0 || request.label.length > LABEL_MAX_LENGTH))
    errors.push({ field: 'label', message: `label must be 1-${LABEL_MAX_LENGTH} characters` });
  if (
    request.validFor !== null &&
    (!Number.isInteger(request.validFor) || request.validFor < VALID_FOR_MIN || request.validFor > VALID_FOR_MAX)
  )
    errors.push({ field: 'validFor', message: `validFor must be ${VALID_FOR_MIN} to ${VALID_FOR_MAX} seconds` });
  if (request.expiresAt === null && request.validFor === null)
    errors.push({ field: 'expiresAt', message: 'either expiresAt or validFor is required' });
  if (request.expiresAt !== null && request.validFor !== null)
    errors.push({ field: 'validFor', message: 'give either expiresAt or validFor, not both' });
  if (request.expiresAt !== null && request.expiresAt.getTime() <= now.getTime())
    errors.push({ field: 'expiresAt', message: 'expiresAt must lie in the future' });
  return errors;
}

/** Where a batch's passwords stand: shown on request, or gone for good. */
export type RevealState =
  { kind: 'open'; closesAt: Date | null } | { kind: 'closed'; closedAt: Date | null; erased: boolean };

export function revealState(
  batch: { firstRevealedAt: Date | null; passwordsErasedAt: Date | null },
  now: Date,
): RevealState {
  if (batch.passwordsErasedAt !== null)
    return { kind: 'closed', closedAt: windowEnd(batch.firstRevealedAt), erased: true };
  const closesAt = windowEnd(batch.firstRevealedAt);
  if (closesAt !== null && closesAt.getTime() <= now.getTime())
    return { kind: 'closed', closedAt: closesAt, erased: false };
  return { kind: 'open', closesAt };
}

/** The end of the reveal window: the first reveal plus 24 hours; null before the first. */
export function windowEnd(firstRevealedAt: Date | null): Date | null {
  return firstRevealedAt === null ? null : new Date(firstRevealedAt.getTime() + REVEAL_WINDOW_MS);
}

/** The first reveal of any batch whose window has closed by `now` lies before this instant. */
export function revealCutoff(now: Date): Date {
  return new Date(now.getTime() - REVEAL_WINDOW_MS);
}
