import { deliverySummary, type Deliveries } from './delivery.js';
import { notSentOf, type NotSent } from './job-report.js';
import { isOpenJob } from './unauth-job-rules.js';
import type { UnauthJobEntity, UnauthJobSession, UnauthJobStatus, UnauthReason } from './entities/unauth-job.entity.js';

/** An unauth job as the command line prints it (the lease is the worker's business). */
export interface UnauthJobJson {
  id: string;
  userId: string;
  username: string | null;
  reason: UnauthReason;
  sessions: UnauthJobSession[];
  status: UnauthJobStatus;
  /** For a done job: what it did not send to a NAS, and why (null: nothing missing, or not done). */
  notSent: NotSent | null;
  /** Each dispatcher's delivery, with each session's outcome for RADIUS; {} before the first attempt. */
  deliveries: Deliveries;
  /** One line: `radius done (acked 2), webhook pending`. */
  deliverySummary: string;
  /** For a `coa` job: the user's new expiresAt. */
  expiresAt: string | null;
  attempts: number;
  /** When the worker tries again; null once the job is done or failed (nothing more will be tried). */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toUnauthJobJson(job: UnauthJobEntity): UnauthJobJson {
  return {
    id: job.id,
    userId: job.userId,
    username: job.username,
    reason: job.reason,
    sessions: job.sessions,
    status: job.status,
    notSent: notSentOf(job),
    deliveries: job.deliveries ?? {},
    deliverySummary: deliverySummary(job.deliveries),
    expiresAt: job.expiresAt?.toISOString() ?? null,
    attempts: job.attempts,
    nextAttemptAt: isOpenJob(job.status) ? job.nextAttemptAt.toISOString() : null,
    lastError: job.lastError,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}
