import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The jobs the dashboard counts: waiting for delivery (pending, or held by a worker now) and failed. */
export interface OpenJobCounts {
  pending: number;
  failed: number;
}

/** `%"venueId":"<id>"%` for LIKE with `!` as its escape: a job's sessions as simple-json stores them. */
function sessionVenuePattern(venueId: string): string {
  return `%${JSON.stringify({ venueId }).slice(1, -1).replace(/[!%_]/g, '!$&')}%`;
}

/**
 * Counts of unauth jobs under the venue rules of reading them (venuesOfJob): a job belongs to its
 * user's venues, or, once the user is deleted, to the venues of its sessions.
 */
@Injectable()
export class UnauthJobCountsRepository {
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
                  AND (${venueIds.map(() => "j.sessions LIKE ? ESCAPE '!'").join(' OR ')})))`;
    const rows = await em.query<Array<{ status: string; n: number | string }>>(
      `SELECT j.status, COUNT(*) AS n FROM unauth_jobs j
        WHERE j.status IN ('pending', 'processing', 'failed')${scope}
        GROUP BY j.status`,
      venueIds === null ? [] : [...venueIds, ...venueIds.map(sessionVenuePattern)],
    );
    for (const row of rows) {
      if (row.status === 'failed') counts.failed += Number(row.n);
      else counts.pending += Number(row.n);
    }
    return counts;
  }
}
