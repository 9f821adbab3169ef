import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { readDateTime } from '../database/columns.js';

export interface DatabaseReading {
  venueSessions: Array<{ venueId: string; sessions: number }>;
  usersByStatus: Array<{ status: string; users: number }>;
  jobs: Array<{ reason: string; status: string; jobs: number }>;
  oldestPending: Date | null;
  nases: Array<{ name: string; activeSessions: number; lastAccountingAt: Date | null }>;
}

/** The metrics' reads of other features' tables: one method per query, counts only, never a person. */
@Injectable()
export class MetricsRepository {
  async venueSessions(em: EntityManager): Promise<DatabaseReading['venueSessions']> {
    const rows: Array<{ venue_id: string; n: number | string }> = await em.query(
      "SELECT venue_id, COUNT(*) AS n FROM sessions WHERE status = 'active' GROUP BY venue_id",
    );
    return rows.map((row) => ({ venueId: row.venue_id, sessions: Number(row.n) }));
  }

  async usersByStatus(em: EntityManager): Promise<DatabaseReading['usersByStatus']> {
    const rows: Array<{ user_status: string; n: number | string | null }> = await em.query(
      'SELECT user_status, SUM(user_count) AS n FROM venue_user_counts GROUP BY user_status',
    );
    return rows.map((row) => ({ status: row.user_status, users: Number(row.n ?? 0) }));
  }

  /** Jobs by reason and status, a done job that left sessions unsent counted as `not-sent`. */
  async jobs(em: EntityManager): Promise<DatabaseReading['jobs']> {
    const rows: Array<{ reason: string; state: string; n: number | string }> = await em.query(
      "SELECT reason, CASE WHEN status = 'done' AND not_sent_reason IS NOT NULL THEN 'not-sent' ELSE status END AS state," +
        ' COUNT(*) AS n FROM unauth_jobs GROUP BY reason, state',
    );
    return rows.map((row) => ({ reason: row.reason, status: row.state, jobs: Number(row.n) }));
  }

  /** When the oldest job not yet done or failed was written (by the due index's status column). */
  async oldestPending(em: EntityManager): Promise<Date | null> {
    const rows: Array<{ oldest: Date | string | null }> = await em.query(
      "SELECT MIN(created_at) AS oldest FROM unauth_jobs WHERE status IN ('pending', 'processing')",
    );
    return readDateTime(rows[0]?.oldest ?? null);
  }

  /** Each registered NAS: its active sessions and its last accounting (both by its own indexes). */
  async nases(em: EntityManager): Promise<DatabaseReading['nases']> {
    const rows: Array<{ name: string; active: number | string; last_at: Date | string | null }> = await em.query(
      'SELECT n.name AS name,' +
        " (SELECT COUNT(*) FROM sessions s WHERE s.nas_client_id = n.id AND s.status = 'active') AS active," +
        ' (SELECT MAX(s.last_accounting_at) FROM sessions s WHERE s.nas_client_id = n.id) AS last_at' +
        ' FROM nas_clients n',
    );
    return rows.map((row) => ({
      name: row.name,
      activeSessions: Number(row.active),
      lastAccountingAt: readDateTime(row.last_at ?? null),
    }));
  }
}
