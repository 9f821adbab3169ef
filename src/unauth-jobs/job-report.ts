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
