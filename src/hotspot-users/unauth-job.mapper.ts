import type { UnauthJobEntity } from '../unauth-jobs/entities/unauth-job.entity.js';
import { deliveryReports, notSentOf, sessionReports, type SessionReport } from '../unauth-jobs/job-report.js';
import { isOpenJob } from '../unauth-jobs/unauth-job-rules.js';
import type { UnauthJobDto, UnauthJobSessionDto } from './dto/unauth-job.response.js';

/**
 * An unauth job as the API returns it: its status and each session's outcome; not the lease, the
 * NAS-side identifiers it sends, nor any dispatcher's error text.
 */
export function toUnauthJobDto(job: UnauthJobEntity): UnauthJobDto {
  return {
    id: job.id,
    userId: job.userId,
    username: job.username,
    reason: job.reason,
    status: job.status,
    notSent: notSentOf(job),
    expiresAt: job.expiresAt?.toISOString() ?? null,
    attempts: job.attempts,
    nextAttemptAt: isOpenJob(job.status) ? job.nextAttemptAt.toISOString() : null,
    sessions: sessionReports(job).map(toSessionDto),
    deliveries: deliveryReports(job.deliveries),
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

function toSessionDto(report: SessionReport): UnauthJobSessionDto {
  const { session } = report;
  return {
    id: session.id,
    venueId: session.venueId,
    macAddress: session.macAddress === '' ? null : session.macAddress,
    ipAddress: session.ipAddress,
    nas: report.nas,
    outcome: report.outcome,
    state: report.state,
    errorCause: report.errorCause,
    detail: report.detail,
    attempts: report.attempts,
    at: report.at,
  };
}
