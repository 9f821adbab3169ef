import type { UnauthJobSession, UnauthReason } from '../entities/unauth-job.entity.js';

/** What a dispatcher delivers: the job as the network side needs it. */
export interface UnauthJobPayload {
  jobId: string;
  userId: string;
  username: string | null;
  reason: UnauthReason;
  sessions: UnauthJobSession[];
  /** 1 for the first delivery attempt. */
  attempt: number;
  createdAt: string;
}

/**
 * Delivers an unauth job to whatever disconnects users (a log, a webhook, later RADIUS Disconnect).
 * Resolves when the job was delivered; rejects (with a short, secret-free message) to have it retried.
 * `signal` aborts a delivery still running when the process shuts down.
 */
export interface UnauthDispatcher {
  readonly name: string;
  dispatch(payload: UnauthJobPayload, signal: AbortSignal): Promise<void>;
}

export const UNAUTH_DISPATCHER = Symbol('UNAUTH_DISPATCHER');
