/** Retry delays stop growing here. */
export const MAX_RETRY_DELAY_MS = 15 * 60 * 1000;

/**
 * Exponential backoff with jitter: base × 2^(attempt-1), capped, then a random 50–100 % of it so
 * that many jobs failing together do not retry in lockstep.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.5 + random() / 2));
}
