import type { SessionDispatchResult } from '../delivery.js';
import type { UnauthJobSession, UnauthReason } from '../entities/unauth-job.entity.js';

/** What a dispatcher delivers: the job as the network side needs it. */
export interface UnauthJobPayload {
  jobId: string;
  userId: string;
  username: string | null;
  reason: UnauthReason;
  /** For per-session dispatchers, only the sessions not settled by an earlier attempt. */
  sessions: UnauthJobSession[];
  /** For a `coa` job: the user's new expiresAt (ISO 8601), or null when it has none now. */
  expiresAt?: string | null;
  /** 1 for the first delivery attempt. */
  attempt: number;
  createdAt: string;
}

/**
 * Delivers an unauth job to whatever disconnects users (a log, a webhook, RADIUS Disconnect).
 * Whole-job dispatchers resolve with nothing when the job was delivered and reject (with a short,
 * secret-free message) to have it retried. Per-session dispatchers (`perSession`) resolve with each
 * given session's result instead; a retry sends only the sessions not settled yet.
 * `signal` aborts a delivery still running when the process shuts down.
 */
export interface UnauthDispatcher {
  readonly name: string;
  readonly perSession?: boolean;
  /** Whether it delivers `coa` jobs (a Session-Timeout change); the others skip them. */
  readonly deliversCoa?: boolean;
  dispatch(payload: UnauthJobPayload, signal: AbortSignal): Promise<void | SessionDispatchResult[]>;
}

/**
 * A whole-job delivery that got no answer within its dispatcher's timeout. Once a shutdown has
 * begun, the worker hands such a job back uncounted, as it does a delivery the shutdown aborts: the
 * receiver may only have been slow, and the next worker tries again.
 */
export class DeliveryTimeoutError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DeliveryTimeoutError';
  }
}

/** The configured dispatchers, in order (UnauthDispatcher[]). */
export const UNAUTH_DISPATCHERS = Symbol('UNAUTH_DISPATCHERS');
