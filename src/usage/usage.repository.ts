import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { dateTimeParameter, readDateTime } from '../database/columns.js';
import { changedRows, isSqlite } from '../database/plain-sql.js';
import type { SessionCounters, UsageDelta } from './usage.rules.js';

/** A session the usage fold locked: its counters, its venue (whose time zone names its day). */
export type PendingSession = Omit<SessionCounters, 'timeZone'> & { id: string; venueId: string };

/** What a user used in one period, as stored; 64-bit counters as bigint. */
export interface StoredUsage {
  period: string;
  inputOctets: bigint;
  outputOctets: bigint;
  sessionSeconds: bigint;
}

/**
 * The SQL of usage: the sessions whose counters rose since the last fold (usage_pending), and the
 * users' usage rows (hotspot_user_usage). Counters are read cast to text, so that 64-bit values
 * stay exact on SQLite too (better-sqlite3 reads an INTEGER through a double).
 */
@Injectable()
export class UsageRepository {
  /** Whether any session waits to be folded: one indexed read, so an idle fold opens no transaction. */
  async hasPending(em: EntityManager): Promise<boolean> {
    const rows = await em.query<unknown[]>('SELECT id FROM sessions WHERE usage_pending = 1 LIMIT 1');
    return rows.length > 0;
  }

  /**
   * Up to `limit` sessions whose counters rose since the last fold, their rows locked: an accounting
   * write to one of them waits until the fold has marked it folded. On MySQL the rows another fold or
   * a write under way holds are skipped, not waited for (SKIP LOCKED: a later fold takes them).
   */
  async lockPending(em: EntityManager, limit: number): Promise<PendingSession[]> {
    const rows = await em.query<
      Array<{
        id: string;
        user_id: string;
        venue_id: string;
        last_accounting_at: Date | string | null;
        input_octets: string | null;
        output_octets: string | null;
        session_time: number | string | null;
        usage_input_octets: string;
        usage_output_octets: string;
        usage_session_time: number | string;
      }>
    >(
      `SELECT id, user_id, venue_id, last_accounting_at,
         CAST(input_octets AS CHAR) AS input_octets, CAST(output_octets AS CHAR) AS output_octets, session_time,
         CAST(usage_input_octets AS CHAR) AS usage_input_octets,
         CAST(usage_output_octets AS CHAR) AS usage_output_octets, usage_session_time
       FROM sessions WHERE usage_pending = 1 LIMIT ?${isSqlite(em.connection) ? '' : ' FOR UPDATE SKIP LOCKED'}`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      venueId: row.venue_id,
      lastAccountingAt: row.last_accounting_at === null ? null : readDateTime(row.last_accounting_at),
      inputOctets: BigInt(row.input_octets ?? 0),
      outputOctets: BigInt(row.output_octets ?? 0),
      sessionTime: Number(row.session_time ?? 0),
      foldedInputOctets: BigInt(row.usage_input_octets),
      foldedOutputOctets: BigInt(row.usage_output_octets),
      foldedSessionTime: Number(row.usage_session_time),
    }));
  }

  /** The time zones of the venues that have one set. */
  async timeZonesOf(em: EntityManager, venueIds: readonly string[]): Promise<Map<string, string>> {
    if (venueIds.length === 0) return new Map();
    const rows = await em.query<Array<{ id: string; time_zone: string }>>(
      `SELECT id, time_zone FROM venues WHERE time_zone IS NOT NULL AND id IN (${venueIds.map(() => '?').join(', ')})`,
      [...venueIds],
    );
    return new Map(rows.map((row) => [row.id, row.time_zone]));
  }

  /** Sessions lockPending returned, folded: their counters as they stand now are what the fold added. */
  async markFolded(em: EntityManager, sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await em.query(
      `UPDATE sessions SET usage_pending = 0, usage_input_octets = COALESCE(input_octets, 0),
         usage_output_octets = COALESCE(output_octets, 0), usage_session_time = COALESCE(session_time, 0)
       WHERE id IN (${sessionIds.map(() => '?').join(', ')})`,
      [...sessionIds],
    );
  }

  /** Adds the deltas to the users' usage rows, creating those missing: one statement, `x = x + ?`. */
  async addUsage(em: EntityManager, deltas: readonly UsageDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const sqlite = isSqlite(em.connection);
    const added = (column: string) =>
      sqlite ? `${column} = ${column} + excluded.${column}` : `${column} = ${column} + VALUES(${column})`;
    await em.query(
      `INSERT INTO hotspot_user_usage (user_id, period, input_octets, output_octets, session_seconds)
       VALUES ${deltas.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       ${sqlite ? 'ON CONFLICT (user_id, period) DO UPDATE SET' : 'ON DUPLICATE KEY UPDATE'}
         ${['input_octets', 'output_octets', 'session_seconds'].map(added).join(', ')}`,
      deltas.flatMap((delta) => [
        delta.userId,
        delta.period,
        delta.inputOctets,
        delta.outputOctets,
        delta.sessionSeconds,
      ]),
    );
  }

  /** Deletes up to `limit` days' rows before the day `day` (`total` sorts after every day); how many. */
  async deleteDaysBefore(em: EntityManager, day: string, limit: number): Promise<number> {
    return changedRows(
      em,
      isSqlite(em.connection)
        ? 'DELETE FROM hotspot_user_usage WHERE rowid IN (SELECT rowid FROM hotspot_user_usage WHERE period < ? LIMIT ?)'
        : 'DELETE FROM hotspot_user_usage WHERE period < ? LIMIT ?',
      [day, limit],
    );
  }

  /**
   * The active sessions of the users named whose user or venue has a plan, each with the plan (the
   * user's, else its venue's default), its venue's time zone and its octets: one query, no lock.
   */
  async findActiveOnPlans(em: EntityManager, userIds: readonly string[]): Promise<PlanSession[]> {
    if (userIds.length === 0) return [];
    const rows = await em.query<
      Array<{
        user_id: string;
        plan_id: string;
        time_zone: string | null;
        input_octets: string | null;
        output_octets: string | null;
      }>
    >(
      `SELECT s.user_id, COALESCE(u.plan_id, v.default_plan_id) AS plan_id, v.time_zone,
         CAST(s.input_octets AS CHAR) AS input_octets, CAST(s.output_octets AS CHAR) AS output_octets
       FROM sessions s
       JOIN hotspot_users u ON u.id = s.user_id
       LEFT JOIN venues v ON v.id = s.venue_id
       WHERE s.status = 'active' AND s.user_id IN (${userIds.map(() => '?').join(', ')})
         AND COALESCE(u.plan_id, v.default_plan_id) IS NOT NULL`,
      [...userIds],
    );
    return rows.map((row) => ({
      userId: row.user_id,
      planId: row.plan_id,
      timeZone: row.time_zone,
      sessionBytes: BigInt(row.input_octets ?? 0) + BigInt(row.output_octets ?? 0),
    }));
  }

  /** The usage of the users named in the periods named, by user (periods with no row are left out). */
  async findUsageOfUsers(
    em: EntityManager,
    userIds: readonly string[],
    periods: readonly string[],
  ): Promise<Map<string, StoredUsage[]>> {
    const byUser = new Map<string, StoredUsage[]>();
    if (userIds.length === 0 || periods.length === 0) return byUser;
    const rows = await em.query<
      Array<{ user_id: string; period: string; input_octets: string; output_octets: string; session_seconds: string }>
    >(
      `SELECT user_id, period, CAST(input_octets AS CHAR) AS input_octets,
         CAST(output_octets AS CHAR) AS output_octets, CAST(session_seconds AS CHAR) AS session_seconds
       FROM hotspot_user_usage
       WHERE user_id IN (${userIds.map(() => '?').join(', ')}) AND period IN (${periods.map(() => '?').join(', ')})`,
      [...userIds, ...periods],
    );
    for (const row of rows) {
      const usage = byUser.get(row.user_id) ?? [];
      usage.push({
        period: row.period,
        inputOctets: BigInt(row.input_octets),
        outputOctets: BigInt(row.output_octets),
        sessionSeconds: BigInt(row.session_seconds),
      });
      byUser.set(row.user_id, usage);
    }
    return byUser;
  }

  /** The user's usage in the periods named (those with no row are left out). */
  async findUsage(em: EntityManager, userId: string, periods: readonly string[]): Promise<StoredUsage[]> {
    if (periods.length === 0) return [];
    const rows = await em.query<
      Array<{ period: string; input_octets: string; output_octets: string; session_seconds: string }>
    >(
      `SELECT period, CAST(input_octets AS CHAR) AS input_octets, CAST(output_octets AS CHAR) AS output_octets,
         CAST(session_seconds AS CHAR) AS session_seconds
       FROM hotspot_user_usage WHERE user_id = ? AND period IN (${periods.map(() => '?').join(', ')})`,
      [userId, ...periods],
    );
    return rows.map((row) => ({
      period: row.period,
      inputOctets: BigInt(row.input_octets),
      outputOctets: BigInt(row.output_octets),
      sessionSeconds: BigInt(row.session_seconds),
    }));
  }

  /**
   * In one statement, what a login of the user at `venueId` is decided on besides its plan's limits:
   * the user's own plan, the venue's default plan and time zone, the user's devices (and whether
   * `macAddress` is one of them), its active sessions with an accounting update since `recentSince`,
   * and its usage in `periods` (the total and the days the venue's day may be). Null when the user
   * does not exist.
   */
  async findLoginFigures(
    em: EntityManager,
    userId: string,
    venueId: string,
    macAddress: string,
    recentSince: Date,
    periods: readonly string[],
  ): Promise<LoginFigures | null> {
    const rows = await em.query<
      Array<{
        plan_id: string | null;
        default_plan_id: string | null;
        time_zone: string | null;
        devices: number | string;
        device_known: number | string;
        recent_sessions: number | string;
        period: string | null;
        input_octets: string | null;
        output_octets: string | null;
        session_seconds: string | null;
      }>
    >(
      `SELECT u.plan_id, v.default_plan_id, v.time_zone,
         (SELECT COUNT(*) FROM devices d WHERE d.user_id = u.id) AS devices,
         (SELECT COUNT(*) FROM devices d WHERE d.user_id = u.id AND d.mac_address = ?) AS device_known,
         (SELECT COUNT(*) FROM sessions s WHERE s.user_id = u.id AND s.status = 'active' AND s.last_accounting_at >= ?)
           AS recent_sessions,
         uu.period, CAST(uu.input_octets AS CHAR) AS input_octets, CAST(uu.output_octets AS CHAR) AS output_octets,
         CAST(uu.session_seconds AS CHAR) AS session_seconds
       FROM hotspot_users u
       LEFT JOIN venues v ON v.id = ?
       LEFT JOIN hotspot_user_usage uu ON uu.user_id = u.id AND uu.period IN (${periods.map(() => '?').join(', ')})
       WHERE u.id = ?`,
      [macAddress, dateTimeParameter(recentSince), venueId, ...periods, userId],
    );
    const [first] = rows;
    if (first === undefined) return null;
    return {
      planId: first.plan_id,
      venuePlanId: first.default_plan_id,
      timeZone: first.time_zone,
      devices: Number(first.devices),
      deviceKnown: macAddress === '' || Number(first.device_known) > 0,
      recentSessions: Number(first.recent_sessions),
      usage: rows
        .filter((row) => row.period !== null)
        .map((row) => ({
          period: row.period!,
          inputOctets: BigInt(row.input_octets ?? 0),
          outputOctets: BigInt(row.output_octets ?? 0),
          sessionSeconds: BigInt(row.session_seconds ?? 0),
        })),
    };
  }

  /** The user, its row locked (MySQL) as every change of a user and every session start locks it first. */
  async lockUser(em: EntityManager, userId: string): Promise<EnforcedUser | null> {
    const [row] = await em.query<
      Array<{ id: string; username: string | null; status: string; plan_id: string | null }>
    >(
      `SELECT id, username, status, plan_id FROM hotspot_users WHERE id = ?${isSqlite(em.connection) ? '' : ' FOR UPDATE'}`,
      [userId],
    );
    return row === undefined ? null : { id: row.id, username: row.username, status: row.status, planId: row.plan_id };
  }
}

/** What a login's plan decision reads besides the plan: see UsageRepository.findLoginFigures. */
export interface LoginFigures {
  planId: string | null;
  /** The venue's default plan. */
  venuePlanId: string | null;
  timeZone: string | null;
  devices: number;
  deviceKnown: boolean;
  recentSessions: number;
  usage: StoredUsage[];
}

/** An active session on a plan, as the sweep's check of the plans' limits reads it. */
export interface PlanSession {
  userId: string;
  planId: string;
  /** Its venue's time zone (null: none set, read as UTC). */
  timeZone: string | null;
  /** Octets in and out of the session. */
  sessionBytes: bigint;
}

/** A user as the enforcement reads it, its row locked. */
export interface EnforcedUser {
  id: string;
  username: string | null;
  status: string;
  planId: string | null;
}
