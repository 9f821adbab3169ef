import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The common passwords a new operator password may not be, nor be made of: the list zxcvbn ships
 * (the npm package @zxcvbn-ts/language-common, MIT licence, most common first, about 49,000 entries
 * drawn from breach corpora), lower-cased. Kept current by updating the dependency.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].map((entry) => entry.toLowerCase()),
);

/** Digits and symbols people add to a common password to pass a length rule ("sunshine2024!"). */
const ADDED_SUFFIX = /[\d\p{P}\p{S}\s]+$/u;
/** A common word shorter than this, once the suffix is taken off, is not held against the password. */
const COMMON_BASE_MIN_LENGTH = 4;

/** Long enough to resist guessing without composition rules (NIST SP 800-63B asks for 8 at least). */
export const PASSWORD_MIN_LENGTH = 10;
/** argon2id hashes any length; this bounds the work one sign-in can ask for. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * An operator password as it is hashed and checked: Unicode NFC, so that "é" typed as one character
 * or as "e" and an accent is one password.
 */
export function normalisedPassword(password: string): string {
  return password.normalize('NFC');
}

/**
 * A password's length as the policy and every check of it count it: in characters (Unicode code
 * points of its NFC form), so an emoji is one character, never two.
 */
export function passwordLength(password: string): number {
  return [...normalisedPassword(password)].length;
}

/** Whether a typed password is short enough to be checked at all (a longer one is never hashed). */
export function checkablePassword(password: string): boolean {
  return password !== '' && passwordLength(password) <= PASSWORD_MAX_LENGTH;
}

/**
 * Why an operator's new password is refused, or null: too short or too long (in characters), the
 * operator's email or name (ignoring case and surrounding spaces), one character repeated, or one of
 * the most common passwords, also with digits or symbols added at its end. No composition rules and
 * no forced rotation.
 */
export function passwordProblem(password: string, owner: { email: string; name: string }): string | null {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (/^(.)\1*$/su.test(normalisedPassword(password))) return 'must not be one character repeated';
  const folded = normalisedPassword(password).trim().toLowerCase();
  const email = owner.email.trim().toLowerCase();
  if (folded === email || folded === email.split('@')[0] || folded === owner.name.trim().toLowerCase()) {
    return 'must not be your email or name';
  }
  if (isCommon(folded)) return 'is one of the most common passwords';
  return null;
}

/** A common password as it is, or with digits and symbols added at its end. */
function isCommon(folded: string): boolean {
  if (COMMON_PASSWORDS.has(folded)) return true;
  const base = folded.replace(ADDED_SUFFIX, '');
  return base !== folded && passwordLength(base) >= COMMON_BASE_MIN_LENGTH && COMMON_PASSWORDS.has(base);
}
