import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnauthJobEntity, type UnauthJobStatus, type UnauthReason } from '../unauth-jobs/entities/unauth-job.entity.js';

/** The jobs the dashboard counts: waiting for delivery (pending, or held by a worker now) and failed. */
export interface OpenJobCounts {
  pending: number;
  failed: number;
}

/**
 * Which jobs a list shows: `venueIds` null for an unrestricted reader. `status` `not-sent`: the done
 * jobs that left sessions unsent (not_sent_reason set); `done` then means the others.
 */
export interface JobListFilter {
  venueIds: readonly string[] | null;
  status?: UnauthJobStatus | 'not-sent';
  reason?: UnauthReason;
}

/**
 * `"venueId":"<id>"`, as simple-json stores it in a job's sessions: looked for with INSTR, which
 * (unlike a LIKE whose pattern is a parameter) leaves SQLite's plan the same for every venue, so the
 * statement is not compiled again on each run.
 */
function sessionVenueNeedle(venueId: string): string {
  return JSON.stringify({ venueId }).slice(1, -1);
}

/**
 * Unauth jobs read under the venue rules of reading them (venuesOfJob), which only this feature
 * knows: a job belongs to its user's venues, or, once the user is deleted, to the venues of its
 * sessions. The queries behind the job lists and counts that VenueFiguresService and
 * UserUnauthJobsService export.
 */
@Injectable()
export class VenueJobsRepository {
  /**
   * Pending (with processing) and failed jobs in `venueIds` (null: all): one range of
   * idx_unauth_jobs_due per status, each job's user looked up by its key.
   */
  async countOpen(em: EntityManager, venueIds: readonly string[] | null): Promise<OpenJobCounts> {
    const counts: OpenJobCounts = { pending: 0, failed: 0 };
    if (venueIds !== null && venueIds.length === 0) return counts;
    const marks = venueIds === null ? '' : venueIds.map(() => '?').join(', ');
    const scope =
      venueIds === null
        ? ''
        : ` AND (EXISTS (SELECT 1 FROM hotspot_user_venues v WHERE v.user_id = j.user_id AND v.venue_id IN (${marks}))
              OR (NOT EXISTS (SELECT 1 FROM hotspot_users u WHERE u.id = j.user_id)
                  AND (${venueIds.map(() => 'INSTR(j.sessions, ?) > 0').join(' OR ')})))`;
    const rows = await em.query<Array<{ status: string; n: number | string }>>(
      `SELECT j.status, COUNT(*) AS n FROM unauth_jobs j
        WHERE j.status IN ('pending', 'processing', 'failed')${scope}
        GROUP BY j.status`,
      venueIds === null ? [] : [...venueIds, ...venueIds.map(sessionVenueNeedle)],
    );
    for (const row of rows) {
      if (row.status === 'failed') counts.failed += Number(row.n);
      else counts.pending += Number(row.n);
    }
    return counts;
  }

  /**
   * One page of jobs, newest first, and how many match. With venues, those the v1 job read lets the
   * reader see (venuesOfJob): jobs of a user in one of the venues, and jobs of a deleted user one of
   * whose sessions was in one of them.
   */
  async findJobPage(
    em: EntityManager,
    filter: JobListFilter,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; jobs: UnauthJobEntity[] }> {
    if (filter.venueIds !== null && filter.venueIds.length === 0) return { total: 0, jobs: [] };
    const query = em.createQueryBuilder(UnauthJobEntity, 'job');
    if (filter.status === 'not-sent') {
      query.andWhere("job.status = 'done' AND job.notSentReason IS NOT NULL");
    } else if (filter.status !== undefined) {
      query.andWhere('job.status = :status', { status: filter.status });
      if (filter.status === 'done') query.andWhere('job.notSentReason IS NULL');
    }
    if (filter.reason !== undefined) query.andWhere('job.reason = :reason', { reason: filter.reason });
    if (filter.venueIds !== null) {
      const venueIds = [...filter.venueIds];
      const patterns = venueIds.map((venueId, index) => ({
        name: `session${index}`,
        value: sessionVenueNeedle(venueId),
      }));
      const sessionInVenue = patterns.map(({ name }) => `INSTR(job.sessions, :${name}) > 0`);
      query.andWhere(
        '(job.userId IN (SELECT v.user_id FROM hotspot_user_venues v WHERE v.venue_id IN (:...venueIds)) ' +
          'OR (NOT EXISTS (SELECT 1 FROM hotspot_users u WHERE u.id = job.userId) ' +
          `AND (${sessionInVenue.join(' OR ')})))`,
        { venueIds, ...Object.fromEntries(patterns.map(({ name, value }) => [name, value])) },
      );
    }
    const [jobs, total] = await query
      .orderBy('job.createdAt', 'DESC')
      .addOrderBy('job.id', 'DESC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
    return { total, jobs };
  }
}
