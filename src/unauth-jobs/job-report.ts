import { errorCauseName } from '../radius-packets/error-cause.js';
import type { Deliveries, Delivery, DeliveryStatus, SessionOutcome } from './delivery.js';
import type { UnauthJobEntity, UnauthJobSession } from './entities/unauth-job.entity.js';
import { isOpenJob } from './unauth-job-rules.js';

/**
 * A job as an integrator follows it: for each session, what the NAS answered in plain terms, and
 * whether anything more will be tried. Pure: read from the job's stored deliveries.
 */

/**
 * `waiting`: no attempt reached the session yet; `ack`: the NAS confirmed (Disconnect- or CoA-ACK);
 * `nak`: the NAS refused, with its Error-Cause (503, it had no such session, counts as done);
 * `no-answer`: the NAS did not answer (or could not be reached); `not-sent`: nothing was sent (no
 * NAS known for the session, a NAS without RFC 5176 listener, or the session could not be identified);
 * `stopped-by-nas`: the NAS's accounting said the session was over first, so nothing was sent.
 */
export const SESSION_OUTCOMES = ['waiting', 'ack', 'nak', 'no-answer', 'not-sent', 'stopped-by-nas'] as const;
export type SessionOutcomeKind = (typeof SESSION_OUTCOMES)[number];

/** `pending`: it will be (re)sent with the job's next attempt; `done` and `failed` are final. */
export const SESSION_STATES = ['pending', 'done', 'failed'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export interface ErrorCause {
  code: number;
  /** The RFC 5176 name; null for a value no RFC names. */
  name: string | null;
}

export interface SessionReport {
  session: UnauthJobSession;
  outcome: SessionOutcomeKind;
  state: SessionState;
  errorCause: ErrorCause | null;
  /** The registered NAS's name, when known. */
  nas: string | null;
  /** Why it was not sent, failed or will be sent again, in words. */
  detail: string | null;
  /** Job attempts that included this session. */
  attempts: number;
  /** When the last outcome came; null while waiting. */
  at: string | null;
}

/**
 * Why sessions of a done job were not sent to their NAS: `no-radius-dispatcher`: no configured
 * dispatcher tells NASes (UNAUTH_DISPATCHER without radius, and no webhook took the job); `no-nas`: no
 * registered NAS reported the session (the command line started it) or its NAS is no longer
 * registered; `no-coa-port`: its NAS has no RFC 5176 listener (CoA port 0); `refuses-coa`: its NAS
 * takes no CoA-Requests (a `coa` job); `other`: anything else (no address recorded for a NAS
 * registered as a network, a new expiresAt already past); `several`: sessions not sent for different
 * reasons.
 */
export const NOT_SENT_REASONS = [
  'no-radius-dispatcher',
  'no-nas',
  'no-coa-port',
  'refuses-coa',
  'other',
  'several',
] as const;
export type NotSentReason = (typeof NOT_SENT_REASONS)[number];

/** What a done job did not send: why, and how many of its sessions. */
export interface NotSent {
  reason: NotSentReason;
  sessions: number;
}

/** Dispatchers that only record a job: a job they alone delivered told nobody. */
const RECORDING_ONLY: readonly string[] = ['log'];

/**
 * Whether a done job left sessions unsent, and why: a job is `done` (as v1 defines it) once every
 * dispatcher is through with it, even when nothing reached a NAS. Null while the job is open, when it
 * failed (which says so itself), when it had no session, when its deliveries are unknown, or when every
 * session was sent (answered or not) or settled by the NAS's own accounting. A webhook that took a
 * job without RADIUS counts as told: what it does with the sessions is the receiver's business.
 */
export function notSentOf(job: Pick<UnauthJobEntity, 'sessions' | 'status' | 'deliveries'>): NotSent | null {
  if (job.status !== 'done' || job.sessions.length === 0 || job.deliveries === null) return null;
  const perSession = perSessionDelivery(job.deliveries);
  if (perSession === undefined) {
    const told = Object.entries(job.deliveries).some(
      ([dispatcher, delivery]) => !RECORDING_ONLY.includes(dispatcher) && delivery.status === 'done',
    );
    return told ? null : { reason: 'no-radius-dispatcher', sessions: job.sessions.length };
  }
  const reasons = sessionReports(job)
    .filter((report) => report.outcome === 'not-sent')
    .map((report) => notSentReasonOf(report.detail));
  if (reasons.length === 0) return null;
  const [first] = reasons;
  return { reason: reasons.every((reason) => reason === first) ? first : 'several', sessions: reasons.length };
}

/**
 * Why the RADIUS dispatcher did not send a session's request, from the detail it recorded (its own
 * words, see RadiusDispatcher); `other` for anything else, such as no detail at all.
 */
export function notSentReasonOf(detail: string | null): Exclude<NotSentReason, 'no-radius-dispatcher' | 'several'> {
  const text = (detail ?? '').toLowerCase();
  if (text.includes('coa port 0') || text.includes('rfc 5176 listener')) return 'no-coa-port';
  if (text.includes('not accept coa')) return 'refuses-coa';
  if (text.includes('no longer registered') || text.includes('no nas reported')) return 'no-nas';
  return 'other';
}

export interface DeliveryReport {
  dispatcher: string;
  status: DeliveryStatus;
  attempts: number;
}

/** Each of the job's sessions with its outcome, in the job's order. */
export function sessionReports(job: Pick<UnauthJobEntity, 'sessions' | 'status' | 'deliveries'>): SessionReport[] {
  const outcomes = perSessionDelivery(job.deliveries)?.sessions ?? {};
  return job.sessions.map((session) => sessionReport(session, outcomes[session.id], job.status));
}

/** Each dispatcher's delivery, without its error text (a peer's answer may quote anything). */
export function deliveryReports(deliveries: Deliveries | null): DeliveryReport[] {
  return Object.entries(deliveries ?? {}).map(([dispatcher, delivery]) => ({
    dispatcher,
    status: delivery.status,
    attempts: delivery.attempts,
  }));
}

function sessionReport(
  session: UnauthJobSession,
  outcome: SessionOutcome | undefined,
  jobStatus: UnauthJobEntity['status'],
): SessionReport {
  const open = isOpenJob(jobStatus);
  const unsettled: SessionState = open ? 'pending' : 'failed';
  if (outcome === undefined) {
    return {
      session,
      outcome: open ? 'waiting' : 'not-sent',
      state: open ? 'pending' : jobStatus === 'failed' ? 'failed' : 'done',
      errorCause: null,
      nas: session.nasId,
      detail: null,
      attempts: 0,
      at: null,
    };
  }
  const errorCause =
    outcome.errorCause === null ? null : { code: outcome.errorCause, name: errorCauseName(outcome.errorCause) };
  const report = (kind: SessionOutcomeKind, state: SessionState): SessionReport => ({
    session,
    outcome: kind,
    state,
    errorCause,
    nas: outcome.nas,
    detail: outcome.detail,
    attempts: outcome.attempts,
    at: outcome.at,
  });
  switch (outcome.result) {
    case 'acked':
      return report('ack', 'done');
    case 'gone':
      return report('nak', 'done');
    case 'stopped':
      return report('stopped-by-nas', 'done');
    case 'skipped':
      return report('not-sent', 'done');
    case 'failed':
      return report(errorCause === null ? 'not-sent' : 'nak', 'failed');
    case 'retry':
      return report(errorCause === null ? 'no-answer' : 'nak', unsettled);
  }
}

/** The delivery that reports per session (RADIUS), if any ran. */
function perSessionDelivery(deliveries: Deliveries | null): Delivery | undefined {
  return Object.values(deliveries ?? {}).find((delivery) => delivery.sessions !== undefined);
}
