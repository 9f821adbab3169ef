import { DeadlineExceededError } from './deadline.js';
import { WorkRefusedError } from './work-queue.js';

/**
 * An error that means "not now" rather than "no": the caller stopped waiting, or a work class was
 * full. Answered 503 with Retry-After (a RADIUS login then gets no answer at all, so the NAS tries
 * again), never as a refusal of the request itself.
 */
export function isOverload(error: unknown): error is DeadlineExceededError | WorkRefusedError {
  return error instanceof DeadlineExceededError || error instanceof WorkRefusedError;
}

/** The caller a request's deadline belongs to, for the metrics: FreeRADIUS, or a client of the API and console. */
export function deadlineCallerOf(path: string): 'radius' | 'api' {
  return path.startsWith('/radius/') ? 'radius' : 'api';
}
