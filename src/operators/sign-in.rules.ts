/** The operators' sign-in rules: the per-account delay after failures, and when a console session is over. */

/** Failed sign-ins of one account that cost nothing yet (typing mistakes). */
export const FREE_SIGN_IN_FAILURES = 3;
export const FIRST_SIGN_IN_DELAY_MS = 1000;
/** The longest wait: an attacker can slow an account's owner down this much, never lock them out. */
export const MAX_SIGN_IN_DELAY_MS = 30_000;
/**
 * The longest wait between second-factor guesses: whoever gets there knows the password, and a code
 * of 6 digits must not be guessed at two a minute (15 minutes: under a hundred guesses a day).
 */
export const SECOND_FACTOR_MAX_DELAY_MS = 15 * 60_000;

/**
 * How long an account must wait before its next attempt after `failures` failures in a row: free for
 * the first few, then doubling up to `maxDelayMs`.
 */
export function signInDelayMs(failures: number, maxDelayMs = MAX_SIGN_IN_DELAY_MS): number {
  if (failures < FREE_SIGN_IN_FAILURES) return 0;
  const doublings = Math.min(failures - FREE_SIGN_IN_FAILURES, 30);
  return Math.min(maxDelayMs, FIRST_SIGN_IN_DELAY_MS * 2 ** doublings);
}

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface SessionLimits {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
}

/** Whether a session is over at `now`: past its expiry (absolute, or a pending step's), or unused too long. */
export function sessionOver(session: SessionTimes, now: Date, limits: SessionLimits): boolean {
  const at = now.getTime();
  return (
    at >= session.expiresAt.getTime() ||
    at >= session.createdAt.getTime() + limits.absoluteTimeoutMs ||
    at >= session.lastSeenAt.getTime() + limits.idleTimeoutMs
  );
}

/** Last-seen is written at most this often per session, so most requests only read. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export function lastSeenDue(lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS;
}
