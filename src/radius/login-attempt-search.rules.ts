import { foldedText, prefixRange, type PrefixRange } from '../hotspot-users/user-search.rules.js';

/** The length of login_attempts.username and of its search key. */
export const ATTEMPT_USERNAME_LENGTH = 253;

/**
 * The key an attempt is found by its username with: folded as the users list folds text (case,
 * accents and white space), cut to the column.
 */
export function searchUsernameOf(username: string): string {
  return [...foldedText(username)].slice(0, ATTEMPT_USERNAME_LENGTH).join('');
}

/**
 * The index range of the attempts whose username starts with `typed`, case and accents ignored;
 * null when `typed` folds to nothing (white space alone).
 */
export function usernameSearchRange(typed: string): PrefixRange | null {
  const prefix = searchUsernameOf(typed);
  return prefix === '' ? null : prefixRange(prefix);
}
