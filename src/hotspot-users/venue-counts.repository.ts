import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isNotSupported } from '../common/errors/database-errors.js';
import { newId } from '../common/ids.js';
import { DatabaseService } from '../database/database.service.js';
import { USER_STATUSES, type UserStatus } from './entities/hotspot-user.entity.js';
import type { CountDelta, FoldedCounts } from './venue-counts.rules.js';

/** A counter change as the fold reads it: its row id, to delete it once added. */
export type StoredCountChange = CountDelta & { id: string };

/** A server-wide named lock, one per database: the fold of one process at a time. */
const FOLD_LOCK_NAME = "CONCAT('hotspot_count_fold_', SHA1(DATABASE()))";

/**
 * The SQL of the venue counters' writes: a change of users inserts its moves into
 * venue_user_count_changes, and the fold adds those rows to venue_user_counts and
 * venue_user_buckets (the list reads the sums of both, in HotspotUsersRepository).
 */
@Injectable()
export class VenueCountsRepository {
  constructor(private readonly database: DatabaseService) {}

  /** An insert only: concurrent writers of one venue take no lock that another one waits for. */
  async recordChanges(em: EntityManager, deltas: readonly CountDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await em.query(
      `INSERT INTO venue_user_count_changes (id, venue_id, user_status, bucket, delta) VALUES ${deltas.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      deltas.flatMap(({ venueId, status, bucket, delta }) => [newId(), venueId, status, bucket, delta]),
    );
  }

  /** Whether any change waits to be folded: one indexed read, so an idle fold opens no transaction. */
  async hasChanges(em: EntityManager): Promise<boolean> {
    const rows = await em.query<unknown[]>('SELECT id FROM venue_user_count_changes LIMIT 1');
    return rows.length > 0;
  }

  /**
   * MySQL: the fold's lock, if no other process holds it, without waiting: `held` (release it with
   * releaseFoldLock), `busy`, or `none` where there is no such lock to take (SQLite, whose write lock
   * the transaction holds; a Galera cluster, which has no named locks: its folds meet only on the
   * counter rows, briefly).
   */
  async tryFoldLock(em: EntityManager): Promise<'held' | 'busy' | 'none'> {
    if (!this.database.supportsRowLocks) return 'none';
    try {
      const [row] = await em.query<Array<{ acquired: number | string | null }>>(
        `SELECT GET_LOCK(${FOLD_LOCK_NAME}, 0) AS acquired`,
      );
      return Number(row?.acquired) === 1 ? 'held' : 'busy';
    } catch (error) {
      if (isNotSupported(error)) return 'none';
      throw error;
    }
  }

  async releaseFoldLock(em: EntityManager): Promise<void> {
    await em.query(`DO RELEASE_LOCK(${FOLD_LOCK_NAME})`);
  }

  /**
   * The oldest committed changes, locked; on MySQL those of transactions still open are skipped, not
   * waited for (SKIP LOCKED; at READ COMMITTED the scan takes no gap locks that would hold up inserts).
   */
  async lockChanges(em: EntityManager, limit: number): Promise<StoredCountChange[]> {
    const rows = await em.query<
      Array<{
        id: string;
        venue_id: string;
        user_status: UserStatus;
        bucket: number | string;
        delta: number | string;
      }>
    >(
      `SELECT id, venue_id, user_status, bucket, delta FROM venue_user_count_changes ORDER BY id LIMIT ?${
        this.database.supportsRowLocks ? ' FOR UPDATE SKIP LOCKED' : ''
      }`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      venueId: row.venue_id,
      status: row.user_status,
      bucket: Number(row.bucket),
      delta: Number(row.delta),
    }));
  }

  /** Adds folded changes to the counters, in their order (which fixes the order of the row locks). */
  async addToCounters(em: EntityManager, { counts, buckets }: FoldedCounts): Promise<void> {
    const sum = this.database.supportsRowLocks
      ? 'user_count = user_count + VALUES(user_count)'
      : 'user_count = user_count + excluded.user_count';
    const upsert = (key: string) =>
      this.database.supportsRowLocks ? 'ON DUPLICATE KEY UPDATE' : `ON CONFLICT (${key}) DO UPDATE SET`;
    if (counts.length > 0)
      await em.query(
        `INSERT INTO venue_user_counts (venue_id, user_status, user_count) VALUES ${counts.map(() => '(?, ?, ?)').join(', ')} ${upsert('venue_id, user_status')} ${sum}`,
        counts.flatMap(({ venueId, status, delta }) => [venueId, status, delta]),
      );
    if (buckets.length > 0)
      await em.query(
        `INSERT INTO venue_user_buckets (venue_id, bucket, user_status, user_count) VALUES ${buckets.map(() => '(?, ?, ?, ?)').join(', ')} ${upsert('venue_id, bucket, user_status')} ${sum}`,
        buckets.flatMap(({ venueId, status, bucket, delta }) => [venueId, bucket, status, delta]),
      );
  }

  /**
   * MySQL: the ids as a derived table joined first (STRAIGHT_JOIN), so each row is found by its key.
   * A plain `id IN (…)` covering most of a small table is read by a full scan, which waits on the
   * rows of transactions still open (those the fold skipped), whatever index hint it is given.
   */
  async deleteChanges(em: EntityManager, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    if (!this.database.supportsRowLocks) {
      await em.query(`DELETE FROM venue_user_count_changes WHERE id IN (${ids.map(() => '?').join(', ')})`, [...ids]);
      return;
    }
    const keys = ids.map((_id, index) => (index === 0 ? 'SELECT ? AS id' : 'SELECT ?')).join(' UNION ALL ');
    await em.query(`DELETE c FROM (${keys}) k STRAIGHT_JOIN venue_user_count_changes c ON c.id = k.id`, [...ids]);
  }

  /**
   * Users by status over `venueIds` (null: every venue), from the counters and the changes not yet
   * folded (as the list's totals are): two reads of the counters' keys, never a count of users.
   */
  async statusTotals(em: EntityManager, venueIds: readonly string[] | null): Promise<Record<UserStatus, number>> {
    const totals = Object.fromEntries(USER_STATUSES.map((status) => [status, 0])) as Record<UserStatus, number>;
    if (venueIds !== null && venueIds.length === 0) return totals;
    const where = venueIds === null ? '' : `WHERE venue_id IN (${venueIds.map(() => '?').join(', ')})`;
    const rows = await em.query<Array<{ user_status: UserStatus; n: number | string | null }>>(
      `SELECT user_status, SUM(n) AS n FROM (
         SELECT user_status, SUM(user_count) AS n FROM venue_user_counts ${where} GROUP BY user_status
         UNION ALL
         SELECT user_status, SUM(delta) AS n FROM venue_user_count_changes ${where} GROUP BY user_status
       ) totals GROUP BY user_status`,
      venueIds === null ? [] : [...venueIds, ...venueIds],
    );
    for (const row of rows) if (row.user_status in totals) totals[row.user_status] = Number(row.n ?? 0);
    return totals;
  }
}
