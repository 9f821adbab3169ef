import { COMMON_PASSWORDS } from './common-passwords.js';

/** Long enough to resist guessing without composition rules (NIST SP 800-63B asks for 8 at least). */
export const PASSWORD_MIN_LENGTH = 10;
/** argon2id hashes any length; this bounds the work one sign-in can ask for. */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * A password's length as the policy and every check of it count it: in characters (Unicode code
 * points), so an emoji is one character, never two.
 */
export function passwordLength(password: string): number {
  return [...password].length;
}

/** Whether a typed password is short enough to be checked at all (a longer one is never hashed). */
export function checkablePassword(password: string): boolean {
  return password !== '' && passwordLength(password) <= PASSWORD_MAX_LENGTH;
}

/**
 * Why an operator's new password is refused, or null: too short or too long (in characters), the
 * operator's email or name (ignoring case and surrounding spaces), one character repeated, or one of
 * the most common passwords. No composition rules and no forced rotation.
 */
export function passwordProblem(password: string, owner: { email: string; name: string }): string | null {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (/^(.)\1*$/su.test(password)) return 'must not be one character repeated';
  const folded = password.trim().toLowerCase();
  const email = owner.email.trim().toLowerCase();
  if (folded === email || folded === email.split('@')[0] || folded === owner.name.trim().toLowerCase()) {
    return 'must not be your email or name';
  }
  if (COMMON_PASSWORDS.has(folded)) return 'is one of the most common passwords';
  return null;
}
