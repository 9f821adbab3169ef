import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { ID_LENGTH } from '../database/columns.js';
import { UnauthJobEntity, type UnauthJobStatus, type UnauthReason } from '../unauth-jobs/entities/unauth-job.entity.js';
import { HotspotUserEntity } from './entities/hotspot-user.entity.js';

/** Which jobs a list shows: `venueIds` null for an unrestricted reader. */
export interface JobListFilter {
  venueIds: readonly string[] | null;
  status?: UnauthJobStatus;
  reason?: UnauthReason;
}

/** The character that escapes LIKE's wildcards in the patterns below (the same on SQLite and MySQL). */
const LIKE_ESCAPE = '!';

/**
 * The queries of the console's network screens that read across features: the jobs a venue-scoped
 * reader may see, and the names of the users a page of sessions lists.
 */
@Injectable()
export class OperatorViewsRepository {
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
    if (filter.status !== undefined) query.andWhere('job.status = :status', { status: filter.status });
    if (filter.reason !== undefined) query.andWhere('job.reason = :reason', { reason: filter.reason });
    if (filter.venueIds !== null) {
      const venueIds = [...filter.venueIds];
      const patterns = venueIds.map((venueId, index) => ({ name: `session${index}`, value: sessionPattern(venueId) }));
      const sessionInVenue = patterns.map(({ name }) => `job.sessions LIKE :${name} ESCAPE '${LIKE_ESCAPE}'`);
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

  /** The username (or, without one, the name) of each of the users that exist, by id. */
  async findUserNames(em: EntityManager, ids: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id) => id.length > 0 && id.length <= ID_LENGTH))];
    if (wanted.length === 0) return new Map();
    const users = await em.find(HotspotUserEntity, {
      select: { id: true, username: true, name: true },
      where: { id: In(wanted) },
    });
    return new Map(users.map((user) => [user.id, user.username ?? user.name]));
  }
}

/** A LIKE pattern matching the stored JSON of a job's sessions when one of them is in `venueId`. */
function sessionPattern(venueId: string): string {
  const text = `"venueId":${JSON.stringify(venueId)}`;
  return `%${text.replace(/[!%_]/g, (character) => `${LIKE_ESCAPE}${character}`)}%`;
}
