import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { dateTimeParameter, readDateTime } from '../database/columns.js';
import { changedRows, isSqlite } from '../database/plain-sql.js';
import type { GuestIdentity, RecordLine, RecordedUser } from './access-records.rules.js';
import { AccessRecordDayLineEntity } from './entities/access-record-day-line.entity.js';
import { AccessRecordDayEntity } from './entities/access-record-day.entity.js';
import type { AccessRecordEntity, IdentityKind } from './entities/access-record.entity.js';

/** A RADIUS session as the capture reads it, with its user. */
export interface CapturedSession {
  id: string;
  userId: string;
  venueId: string;
  nasId: string | null;
  macAddress: string;
  ipAddress: string | null;
  startedAt: Date;
  endedAt: Date | null;
  user: RecordedUser;
}

/** A venue's newest sealed day: where its chain goes on. */
export interface ChainEnd {
  day: string;
  sha256: string;
}

type RecordRow = {
  session_id: string;
  started_at: Date | string;
  ended_at: Date | string | null;
  nas_id: string | null;
  ip_address: string | null;
  mac_address: string;
  user_id: string;
  login_method: string;
  identity_kind: string;
  identity_issuer: string;
  identity: string;
};

const RECORD_COLUMNS = `session_id, started_at, ended_at, nas_id, ip_address, mac_address, user_id, login_method,
  identity_kind, identity_issuer, identity`;

function lineOf(row: RecordRow): RecordLine {
  return {
    sessionId: row.session_id,
    startedAt: readDateTime(row.started_at),
    endedAt: readDateTime(row.ended_at),
    nasId: row.nas_id,
    ipAddress: row.ip_address,
    macAddress: row.mac_address,
    userId: row.user_id,
    loginMethod: row.login_method,
    identityKind: row.identity_kind as IdentityKind,
    identityIssuer: row.identity_issuer,
    identity: row.identity,
  };
}

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** The SQL of the records for the regulator: their capture from the sessions, their days, their retention. */
@Injectable()
export class AccessRecordsRepository {
  /** The RADIUS sessions named (those a NAS reported), with their users: one query, no lock. */
  async findSessions(em: EntityManager, sessionIds: readonly string[]): Promise<CapturedSession[]> {
    if (sessionIds.length === 0) return [];
    const rows = await em.query<
      Array<{
        id: string;
        user_id: string;
        venue_id: string;
        nas_id: string | null;
        mac_address: string;
        ip_address: string | null;
        started_at: Date | string;
        ended_at: Date | string | null;
        login_method: string;
        username: string | null;
        phone: string | null;
        user_mac: string | null;
      }>
    >(
      `SELECT s.id, s.user_id, s.venue_id, s.nas_id, s.mac_address, s.ip_address, s.started_at, s.ended_at,
         u.login_method, u.username, u.phone, u.mac_address AS user_mac
       FROM sessions s JOIN hotspot_users u ON u.id = s.user_id
       WHERE s.nas_client_id IS NOT NULL AND s.id IN (${placeholders(sessionIds)})`,
      [...sessionIds],
    );
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      venueId: row.venue_id,
      nasId: row.nas_id,
      macAddress: row.mac_address,
      ipAddress: row.ip_address,
      startedAt: readDateTime(row.started_at),
      endedAt: readDateTime(row.ended_at),
      user: {
        loginMethod: row.login_method,
        username: row.username,
        phone: row.phone,
        macAddress: row.user_mac,
      },
    }));
  }

  /**
   * Up to `limit` ids of sessions flagged for the usage fold (an accounting write it has not folded
   * yet), after `after` in id order; the flag is left to the fold.
   */
  async findPendingSessionIds(em: EntityManager, after: string, limit: number): Promise<string[]> {
    const rows = await em.query<Array<{ id: string }>>(
      'SELECT id FROM sessions WHERE usage_pending = 1 AND id > ? ORDER BY id LIMIT ?',
      [after, limit],
    );
    return rows.map((row) => row.id);
  }

  /** The ids of the user's RADIUS sessions, every one it ever had. */
  async findSessionIdsOfUser(em: EntityManager, userId: string): Promise<string[]> {
    const rows = await em.query<Array<{ id: string }>>(
      'SELECT id FROM sessions WHERE user_id = ? AND nas_client_id IS NOT NULL',
      [userId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Writes the records of captured sessions, one statement: a new one whole; one already there
   * keeps its identity (as first captured) and takes the session's address, when it has one, and
   * its end.
   */
  async upsert(em: EntityManager, records: readonly AccessRecordEntity[]): Promise<void> {
    if (records.length === 0) return;
    const sqlite = isSqlite(em.connection);
    const taken = (column: string) => (sqlite ? `excluded.${column}` : `VALUES(${column})`);
    await em.query(
      `INSERT INTO access_records (id, session_id, venue_id, nas_id, user_id, login_method, identity_kind,
         identity_issuer, identity, mac_address, ip_address, started_at, ended_at)
       VALUES ${records.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
       ${sqlite ? 'ON CONFLICT (session_id) DO UPDATE SET' : 'ON DUPLICATE KEY UPDATE'}
         ip_address = COALESCE(${taken('ip_address')}, ip_address), ended_at = ${taken('ended_at')}`,
      records.flatMap((record) => [
        record.id,
        record.sessionId,
        record.venueId,
        record.nasId,
        record.userId,
        record.loginMethod,
        record.identityKind,
        record.identityIssuer,
        record.identity,
        record.macAddress,
        record.ipAddress,
        dateTimeParameter(record.startedAt),
        record.endedAt === null ? null : dateTimeParameter(record.endedAt),
      ]),
    );
  }

  /**
   * The phone and social guest identities (guest_identities, the portal's) of the users named at the
   * venues named, the most recently used first.
   */
  async findGuestIdentities(
    em: EntityManager,
    userIds: readonly string[],
    venueIds: readonly string[],
  ): Promise<GuestIdentity[]> {
    if (userIds.length === 0) return [];
    const rows = await em.query<
      Array<{ user_id: string; venue_id: string; kind: string; issuer: string; subject: string }>
    >(
      `SELECT user_id, venue_id, kind, issuer, subject FROM guest_identities
       WHERE kind IN ('phone', 'social') AND user_id IN (${placeholders(userIds)})
         AND venue_id IN (${placeholders(venueIds)})
       ORDER BY last_used_at DESC, id DESC`,
      [...userIds, ...venueIds],
    );
    return rows.map((row) => ({
      userId: row.user_id,
      venueId: row.venue_id,
      kind: row.kind,
      issuer: row.issuer,
      subject: row.subject,
    }));
  }

  /**
   * Up to `limit` records still open whose session has ended since (by this service: a block, an
   * expiry, the stale sweep), or is gone: the session ids, with whether the session is still there.
   */
  async findOpenOfEndedSessions(
    em: EntityManager,
    limit: number,
  ): Promise<Array<{ sessionId: string; sessionExists: boolean }>> {
    const rows = await em.query<Array<{ session_id: string; found: string | null }>>(
      `SELECT r.session_id, s.id AS found FROM access_records r LEFT JOIN sessions s ON s.id = r.session_id
       WHERE r.ended_at IS NULL AND (s.id IS NULL OR s.ended_at IS NOT NULL) LIMIT ?`,
      [limit],
    );
    return rows.map((row) => ({ sessionId: row.session_id, sessionExists: row.found !== null }));
  }

  /** Ends the open records of sessions that are gone, at `at` (when that was noticed). */
  async endRecordsOfSessions(em: EntityManager, sessionIds: readonly string[], at: Date): Promise<void> {
    if (sessionIds.length === 0) return;
    await em.query(
      `UPDATE access_records SET ended_at = ? WHERE ended_at IS NULL AND session_id IN (${placeholders(sessionIds)})`,
      [dateTimeParameter(at), ...sessionIds],
    );
  }

  /** The venues that have records or sealed days. */
  async findVenues(em: EntityManager): Promise<string[]> {
    const rows = await em.query<Array<{ venue_id: string }>>(
      'SELECT DISTINCT venue_id FROM access_records UNION SELECT DISTINCT venue_id FROM access_record_days',
    );
    return rows.map((row) => row.venue_id).sort();
  }

  /** The venue's time zone as the registry has it (null: none set, or no such venue). */
  async findTimeZone(em: EntityManager, venueId: string): Promise<string | null> {
    const [row] = await em.query<Array<{ time_zone: string | null }>>('SELECT time_zone FROM venues WHERE id = ?', [
      venueId,
    ]);
    return row?.time_zone ?? null;
  }

  /** When the venue's first record began (null: it has none). */
  async findFirstStart(em: EntityManager, venueId: string): Promise<Date | null> {
    const [row] = await em.query<Array<{ started_at: Date | string }>>(
      'SELECT started_at FROM access_records WHERE venue_id = ? ORDER BY started_at LIMIT 1',
      [venueId],
    );
    return row === undefined ? null : readDateTime(row.started_at);
  }

  /** The venue's newest sealed day (null: none yet). */
  async findChainEnd(em: EntityManager, venueId: string): Promise<ChainEnd | null> {
    const [row] = await em.query<Array<{ day: string; sha256: string }>>(
      'SELECT day, sha256 FROM access_record_days WHERE venue_id = ? ORDER BY day DESC LIMIT 1',
      [venueId],
    );
    return row ?? null;
  }

  /** The venue's records that began in [from, to). */
  async findStartedBetween(em: EntityManager, venueId: string, from: Date, to: Date): Promise<RecordLine[]> {
    const rows = await em.query<RecordRow[]>(
      `SELECT ${RECORD_COLUMNS} FROM access_records WHERE venue_id = ? AND started_at >= ? AND started_at < ?`,
      [venueId, dateTimeParameter(from), dateTimeParameter(to)],
    );
    return rows.map(lineOf);
  }

  /** The venue's records that began before `from` and ended at or after it (found by their end). */
  async findEndedSince(em: EntityManager, venueId: string, from: Date): Promise<RecordLine[]> {
    const rows = await em.query<RecordRow[]>(
      `SELECT ${RECORD_COLUMNS} FROM access_records WHERE ended_at >= ? AND started_at < ? AND venue_id = ?`,
      [dateTimeParameter(from), dateTimeParameter(from), venueId],
    );
    return rows.map(lineOf);
  }

  /** The venue's records that began before `from` and have not ended (found by their missing end). */
  async findOpenBefore(em: EntityManager, venueId: string, from: Date): Promise<RecordLine[]> {
    const rows = await em.query<RecordRow[]>(
      `SELECT ${RECORD_COLUMNS} FROM access_records WHERE ended_at IS NULL AND started_at < ? AND venue_id = ?`,
      [dateTimeParameter(from), venueId],
    );
    return rows.map(lineOf);
  }

  /** Stores a sealed day; a second seal of the same venue and day fails on the unique key. */
  async insertDay(em: EntityManager, day: AccessRecordDayEntity): Promise<void> {
    await em.insert(AccessRecordDayEntity, day);
  }

  /** The lines of a sealed day, a batch per statement. */
  async insertLines(em: EntityManager, dayId: string, lines: readonly string[]): Promise<void> {
    for (let start = 0; start < lines.length; start += 200) {
      await em.insert(
        AccessRecordDayLineEntity,
        lines.slice(start, start + 200).map((line, index) => ({ dayId, position: start + index, line })),
      );
    }
  }

  /** The venue's sealed days from `first` to `last` (both included), oldest first. */
  async findDays(em: EntityManager, venueId: string, first: string, last: string): Promise<AccessRecordDayEntity[]> {
    return em
      .createQueryBuilder(AccessRecordDayEntity, 'day')
      .where('day.venueId = :venueId AND day.day >= :first AND day.day <= :last', { venueId, first, last })
      .orderBy('day.day', 'ASC')
      .getMany();
  }

  /** Every sealed day of every venue since `first`, oldest first (what an export folder should hold). */
  async findDaysSince(em: EntityManager, first: string): Promise<AccessRecordDayEntity[]> {
    return em
      .createQueryBuilder(AccessRecordDayEntity, 'day')
      .where('day.day >= :first', { first })
      .orderBy('day.venueId', 'ASC')
      .addOrderBy('day.day', 'ASC')
      .getMany();
  }

  /** A sealed day's lines, in order. */
  async findLines(em: EntityManager, dayId: string): Promise<string[]> {
    const rows = await em.query<Array<{ line: string }>>(
      'SELECT line FROM access_record_day_lines WHERE day_id = ? ORDER BY position',
      [dayId],
    );
    return rows.map((row) => row.line);
  }

  /** Deletes up to `limit` records that ended before `before`; how many. */
  async deleteEndedBefore(em: EntityManager, before: Date, limit: number): Promise<number> {
    return changedRows(
      em,
      isSqlite(em.connection)
        ? 'DELETE FROM access_records WHERE rowid IN (SELECT rowid FROM access_records WHERE ended_at < ? LIMIT ?)'
        : 'DELETE FROM access_records WHERE ended_at < ? LIMIT ?',
      [dateTimeParameter(before), limit],
    );
  }

  /** Up to `limit` sealed days before `day`, each venue's newest left out (its chain goes on from it). */
  async findDaysToForget(em: EntityManager, day: string, limit: number): Promise<string[]> {
    const rows = await em.query<Array<{ id: string }>>(
      `SELECT d.id FROM access_record_days d WHERE d.day < ?
         AND EXISTS (SELECT 1 FROM access_record_days n WHERE n.venue_id = d.venue_id AND n.day > d.day)
       LIMIT ?`,
      [day, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes sealed days and their lines. */
  async deleteDays(em: EntityManager, dayIds: readonly string[]): Promise<void> {
    if (dayIds.length === 0) return;
    await em.query(`DELETE FROM access_record_day_lines WHERE day_id IN (${placeholders(dayIds)})`, [...dayIds]);
    await em.query(`DELETE FROM access_record_days WHERE id IN (${placeholders(dayIds)})`, [...dayIds]);
  }
}
