import type { SessionEntity } from '../sessions/entities/session.entity.js';
import {
  UnauthJobEntity,
  type UnauthJobSession,
  type UnauthJobStatus,
  type UnauthReason,
} from './entities/unauth-job.entity.js';
import type { Deliveries } from './delivery.js';
import type { NotSent } from './job-report.js';
import { retryDelayMs } from './retry-delay.js';

/** A job this worker holds: processing, with the lease it was claimed under. */
export type ClaimedJob = UnauthJobEntity & { status: 'processing'; leaseExpiresAt: Date };

/** last_error keeps at most this many characters. */
export const MAX_ERROR_LENGTH = 1000;

export interface UnauthJobRequest {
  userId: string;
  username: string | null;
  reason: UnauthReason;
  sessions: readonly SessionEntity[];
  /** For `coa`: the user's new expiresAt. */
  expiresAt?: Date | null;
}

/**
 * The sessions a CoA job is written for: those whose NAS is not known to refuse CoA-Requests
 * (sessions without a registered NAS stay, and are skipped when the job is sent).
 */
export function sessionsTakingCoa(
  sessions: readonly SessionEntity[],
  nasesRefusingCoa: ReadonlySet<string>,
): SessionEntity[] {
  return sessions.filter((session) => session.nasClientId === null || !nasesRefusingCoa.has(session.nasClientId));
}

/** The registered NASes of `sessions`, each once. */
export function nasClientIdsOf(sessions: readonly SessionEntity[]): string[] {
  return [...new Set(sessions.flatMap((session) => (session.nasClientId === null ? [] : [session.nasClientId])))];
}

export interface RetryPolicy {
  maxAttempts: number;
  retryBaseMs: number;
}

/** A new job: pending, due at once, with a copy of the ended sessions. */
export function newPendingJob(id: string, request: UnauthJobRequest, now: Date): UnauthJobEntity {
  const job = new UnauthJobEntity();
  job.id = id;
  job.userId = request.userId;
  job.username = request.username;
  job.reason = request.reason;
  job.sessions = request.sessions.map(toJobSession);
  job.status = 'pending';
  job.notSentReason = null;
  job.deliveries = null;
  job.expiresAt = request.expiresAt ?? null;
  job.attempts = 0;
  job.nextAttemptAt = now;
  job.leaseExpiresAt = null;
  job.lastError = null;
  job.createdAt = now;
  job.updatedAt = now;
  return job;
}

/**
 * The job once claimed: processing under a lease, the attempt counted. Its next_attempt_at moves
 * to the lease's end, so one indexed condition finds both pending jobs and those whose worker died.
 */
export function claimOf(job: UnauthJobEntity, now: Date, leaseMs: number): ClaimedJob {
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  return { ...job, status: 'processing', attempts: job.attempts + 1, leaseExpiresAt, nextAttemptAt: leaseExpiresAt };
}

/** The job was delivered through `deliveries`; `notSent`: what they did not send to a NAS (notSentOf). */
export function deliveredChanges(deliveries: Deliveries, notSent: NotSent | null, now: Date): Partial<UnauthJobEntity> {
  return {
    status: 'done',
    notSentReason: notSent?.reason ?? null,
    deliveries,
    leaseExpiresAt: null,
    lastError: null,
    updatedAt: now,
  };
}

/** Delivery failed: retry later with backoff, or give up after the last attempt. */
export function failedChanges(
  job: Pick<ClaimedJob, 'attempts'>,
  error: string,
  now: Date,
  retry: RetryPolicy,
  random: () => number = Math.random,
): Partial<UnauthJobEntity> {
  const lastError = error.slice(0, MAX_ERROR_LENGTH);
  if (job.attempts >= retry.maxAttempts) return { status: 'failed', leaseExpiresAt: null, lastError, updatedAt: now };
  const nextAttemptAt = new Date(now.getTime() + retryDelayMs(job.attempts, retry.retryBaseMs, random));
  return { status: 'pending', leaseExpiresAt: null, nextAttemptAt, lastError, updatedAt: now };
}

/**
 * A failed job put back for the worker, as a new job would be: pending, due at once, its attempts
 * from zero. Its failed deliveries are open again, and so are the sessions they failed for (sent
 * again); what was settled (an ACK, a NAS's own Stop) stays settled and is not sent again.
 */
export function retriedChanges(job: Pick<UnauthJobEntity, 'deliveries'>, now: Date): Partial<UnauthJobEntity> {
  return {
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseExpiresAt: null,
    deliveries: reopenedDeliveries(job.deliveries),
    updatedAt: now,
  };
}

function reopenedDeliveries(deliveries: Deliveries | null): Deliveries | null {
  if (deliveries === null) return null;
  return Object.fromEntries(
    Object.entries(deliveries).map(([name, delivery]) => {
      if (delivery.status !== 'failed') return [name, delivery];
      const sessions =
        delivery.sessions === undefined
          ? undefined
          : Object.fromEntries(
              Object.entries(delivery.sessions).map(([id, outcome]) => [
                id,
                outcome.result === 'failed' ? { ...outcome, result: 'retry' as const } : outcome,
              ]),
            );
      return [name, { ...delivery, status: 'pending' as const, ...(sessions === undefined ? {} : { sessions }) }];
    }),
  );
}

/** Handed back untried (shutdown): due at once, and the attempt does not count. */
export function releasedChanges(job: Pick<ClaimedJob, 'attempts'>, now: Date): Partial<UnauthJobEntity> {
  return { status: 'pending', attempts: job.attempts - 1, leaseExpiresAt: null, nextAttemptAt: now, updatedAt: now };
}

function toJobSession(session: SessionEntity): UnauthJobSession {
  return {
    id: session.id,
    venueId: session.venueId,
    macAddress: session.macAddress,
    ipAddress: session.ipAddress,
    nasId: session.nasId,
    nasClientId: session.nasClientId,
    acctSessionId: session.acctSessionId,
    userName: session.userName,
    callingStationId: session.callingStationId,
    nasIpAddress: session.nasIpAddress,
    nasSourceIp: session.nasSourceIp,
  };
}

/** A job the worker has still to finish: pending or processing, not done nor failed. */
export function isOpenJob(status: UnauthJobStatus): boolean {
  return status === 'pending' || status === 'processing';
}

/**
 * A job as an actor limited to `venueIds` may see it (null: every venue): only its sessions in those
 * venues, and only their outcomes. A user in two venues has sessions in both; a token of one must not
 * learn the other's addresses, devices or NASes.
 */
export function jobSeenFrom(job: UnauthJobEntity, venueIds: readonly string[] | null): UnauthJobEntity {
  if (venueIds === null) return job;
  const sessions = job.sessions.filter((session) => venueIds.includes(session.venueId));
  if (sessions.length === job.sessions.length) return job;
  const shown = new Set(sessions.map((session) => session.id));
  const deliveries =
    job.deliveries === null
      ? null
      : Object.fromEntries(
          Object.entries(job.deliveries).map(([dispatcher, delivery]) => [
            dispatcher,
            delivery.sessions === undefined
              ? delivery
              : {
                  ...delivery,
                  sessions: Object.fromEntries(Object.entries(delivery.sessions).filter(([id]) => shown.has(id))),
                },
          ]),
        );
  return { ...job, sessions, deliveries };
}
