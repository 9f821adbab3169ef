/**
 * The outcome of one delivery attempt, as a metric counts it: `ack` (delivered; for RADIUS an ACK,
 * or a NAK 503 "no such session": the session is off either way), `nak` (the NAS refused), `timeout`
 * (no answer in time), `error` (the attempt could not be made or failed otherwise), `skipped`
 * (nothing to send it to).
 */
export const DELIVERY_RESULTS = ['ack', 'nak', 'timeout', 'error', 'skipped'] as const;
export type DeliveryResult = (typeof DELIVERY_RESULTS)[number];

/**
 * What the unauth job worker and its dispatchers report as they work, for whoever watches them (the
 * metrics module, above, provides this as UNAUTH_JOBS_OBSERVER). Values come from fixed sets only.
 */
export interface UnauthJobsObserver {
  /** One delivery attempt through `dispatcher` (per session for RADIUS, per job otherwise). */
  delivered(dispatcher: string, result: DeliveryResult): void;
  /** A Disconnect- or CoA-Request that was answered, and how long the answer took. */
  roundTrip(kind: 'disconnect' | 'coa', seconds: number): void;
  /** The worker of this process finished a poll (claimed due jobs, even none). */
  polled(): void;
}

export const UNAUTH_JOBS_OBSERVER = Symbol('UNAUTH_JOBS_OBSERVER');
