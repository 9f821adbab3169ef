import { UNAUTH_JOBS_PATH } from '../common/api-paths.js';

/** The link relation that names an unauth job a change wrote. */
export const UNAUTH_JOB_REL = 'unauth-job';

/**
 * The Link header (RFC 8288) naming the unauth jobs a change wrote, one comma-separated link value
 * per job, where it can be read; null when it wrote none (the answer then carries no Link).
 */
export function unauthJobLinks(jobIds: readonly string[]): string | null {
  if (jobIds.length === 0) return null;
  return jobIds.map((id) => `</${UNAUTH_JOBS_PATH}/${encodeURIComponent(id)}>; rel="${UNAUTH_JOB_REL}"`).join(', ');
}

/** The Link header as the OpenAPI document declares it on the answers of changes. */
export const UNAUTH_JOB_LINK_HEADER = {
  Link: {
    description:
      'Sent when the change wrote unauth jobs (sessions to disconnect, or a CoA for a changed expiresAt): one ' +
      'comma-separated link value per job, `</api/v1/unauth-jobs/<id>>; rel="unauth-job"`, to follow its delivery. ' +
      'Absent when it wrote none.',
    schema: {
      type: 'string',
      pattern: '^</api/v1/unauth-jobs/[^>]+>; rel="unauth-job"(, </api/v1/unauth-jobs/[^>]+>; rel="unauth-job")*$',
      example: '</api/v1/unauth-jobs/019a9c4f-0c21-7b10-9d3e-2a4b6c8d0e1f>; rel="unauth-job"',
    },
  },
};
