import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseBusyError } from '../common/errors/database-errors.js';

/** How often, and for how long, work that met database contention is tried again. */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** No try starts later than this many ms after the first one. */
  deadlineMs: number;
  /** The wait before the second try; it doubles with each further try, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Time and chance, replaceable in tests. */
export interface RetryTimer {
  now(): number;
  sleep(ms: number): Promise<unknown>;
  random(): number;
}

const SYSTEM_TIMER: RetryTimer = { now: () => Date.now(), sleep: (ms) => sleep(ms), random: () => Math.random() };

/**
 * The wait after the given failed try: exponential, capped, and randomised to 50–100 % so requests
 * that collided do not collide again in step.
 */
export function backoffDelayMs(policy: RetryPolicy, failedAttempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * Runs `attempt` until it succeeds, fails with an error `isRetryable` refuses (thrown as it is), or
 * the policy runs out: then DatabaseBusyError (503 with Retry-After). `attempt` must be safe to run
 * again after a retryable failure, i.e. that failure must have undone its work.
 */
export async function retryOnContention<T>(
  attempt: () => Promise<T>,
  isRetryable: (error: unknown) => boolean,
  policy: RetryPolicy,
  timer: RetryTimer = SYSTEM_TIMER,
): Promise<T> {
  const deadline = timer.now() + policy.deadlineMs;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      const remaining = deadline - timer.now();
      if (tries >= policy.maxAttempts || remaining <= 0) {
        throw new DatabaseBusyError(`database still contended after ${tries} tries`, error);
      }
      // The last try comes at the deadline rather than giving up before it.
      await timer.sleep(Math.min(backoffDelayMs(policy, tries, timer.random), remaining));
    }
  }
}
