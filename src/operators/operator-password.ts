import type { PasswordHasher } from '../common/passwords/password-hasher.js';
import { normalisedPassword } from './password-policy.js';

/**
 * Whether `typed` is the operator password `hash` was made from: its NFC form (how passwords are
 * hashed), or as typed when that differs, for a hash made before passwords were normalised.
 */
export async function verifyOperatorPassword(hasher: PasswordHasher, hash: string, typed: string): Promise<boolean> {
  const normalised = normalisedPassword(typed);
  if (await hasher.verify('sign-in', hash, normalised)) return true;
  return normalised !== typed && hasher.verify('sign-in', hash, typed);
}
