import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, Not, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { dateTimeParameter, ID_LENGTH, readDateTime } from '../database/columns.js';
import { changedRows, isSqlite } from '../database/plain-sql.js';
import { SessionEntity, type SessionStatus } from './entities/session.entity.js';

/** What an Interim-Update reports about a session; null where it reports nothing. */
export interface InterimReport {
  /** 64-bit counters as decimal digits. */
  inputOctets: string | null;
  outputOctets: string | null;
  sessionTime: number | null;
  ipAddress: string | null;
}

/** Whom a session must belong to: a user by id, or the holder of a username (its key) in a venue. */
export type SessionOwner = { userId: string } | { venueId: string; usernameKey: string };

/** Where an Interim-Update goes: the NAS's session, whom it must belong to, its device ('' for none). */
export interface InterimTarget {
  nasClientId: string;
  accountingUniqueId: string;
  owner: SessionOwner;
  macAddress: string;
}

/** A session findStandingOfActive found for the target at `index` in its list. */
export interface InterimStanding {
  index: number;
  sessionId: string;
  userId: string;
  /** Whether the user has the target's device. */
  deviceKnown: boolean;
}

/** An Interim-Update on a session found standing, as of `now`; `macAddress` '' for no device. */
export interface InterimWrite {
  sessionId: string;
  userId: string;
  macAddress: string;
  report: InterimReport;
  now: Date;
}

/** The SQL of sessions; every method runs on the caller's EntityManager (its transaction, if any). */
@Injectable()
export class SessionsRepository {
  /**
   * The session, its row locked until the transaction ends (MySQL; SQLite runs one transaction at a
   * time): an end committed meanwhile by another transaction is seen here, not overwritten later.
   */
  async lockById(em: EntityManager, id: string): Promise<SessionEntity | null> {
    const [session] = await withExactCounters(lockedOnMysql(em, sessionsQuery(em).where('s.id = :id', { id })));
    return session ?? null;
  }

  /** The session, read without a lock; null when there is none (or `id` cannot be one). */
  async findById(em: EntityManager, id: string): Promise<SessionEntity | null> {
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const [session] = await withExactCounters(sessionsQuery(em).where('s.id = :id', { id }));
    return session ?? null;
  }

  findActiveOfUser(em: EntityManager, userId: string): Promise<SessionEntity[]> {
    return withExactCounters(activeOfUserQuery(em, userId));
  }

  /** findActiveOfUser with the rows locked, as lockById, for a caller that ends them. */
  lockActiveOfUser(em: EntityManager, userId: string): Promise<SessionEntity[]> {
    return withExactCounters(lockedOnMysql(em, activeOfUserQuery(em, userId)));
  }

  async insert(em: EntityManager, session: SessionEntity): Promise<void> {
    await em.insert(SessionEntity, session);
  }

  /** Ends those of the sessions `ids` that are still active. */
  async end(em: EntityManager, ids: readonly string[], status: SessionStatus, endedAt: Date): Promise<void> {
    if (ids.length === 0) return;
    await em.update(SessionEntity, { id: In([...ids]), status: 'active' }, { status, endedAt });
  }

  /**
   * The NAS confirmed the session is over: ended now when still active, and the terminate cause set
   * when none was recorded (a Stop's own cause wins).
   */
  async endConfirmed(em: EntityManager, id: string, terminateCause: string, now: Date): Promise<void> {
    await em.update(SessionEntity, { id, status: 'active' }, { status: 'expired', endedAt: now });
    await em.update(SessionEntity, { id, terminateCause: IsNull() }, { terminateCause });
    await em.update(SessionEntity, { id, disconnectJobId: Not(IsNull()) }, { disconnectJobId: null });
  }

  /**
   * Of `ids`, the sessions ended here that a NAS reported: waiting for that NAS to confirm the
   * Disconnect the job `jobId` asks of it (see SessionEntity.disconnectJobId).
   */
  async markDisconnecting(em: EntityManager, ids: readonly string[], jobId: string): Promise<void> {
    if (ids.length === 0) return;
    await em.update(
      SessionEntity,
      { id: In([...ids]), status: Not('active'), nasClientId: Not(IsNull()) },
      { disconnectJobId: jobId },
    );
  }

  /**
   * The NAS restarted (Accounting-On/Off; from `sourceIp` only, when given): no session of it waits
   * for a Disconnect to be confirmed any more. idx_sessions_disconnect_job: the few that wait.
   */
  async clearDisconnectingOfNas(em: EntityManager, nasClientId: string, sourceIp: string | null): Promise<void> {
    await em.update(
      SessionEntity,
      {
        disconnectJobId: Not(IsNull()),
        nasClientId,
        ...(sourceIp === null ? {} : { nasSourceIp: sourceIp }),
      },
      { disconnectJobId: null },
    );
  }

  /**
   * Sessions waiting for a Disconnect to be confirmed whose NAS has reported nothing of them since
   * `before` (the stale window): over, as the stale sweep judges an active session. Returns how many.
   */
  async clearStaleDisconnecting(em: EntityManager, before: Date): Promise<number> {
    const result = await em.update(
      SessionEntity,
      { disconnectJobId: Not(IsNull()), lastAccountingAt: LessThan(before) },
      { disconnectJobId: null },
    );
    return result.affected ?? 0;
  }

  // RADIUS accounting

  /**
   * The NAS's session `accountingUniqueId`, its row locked until the transaction ends (MySQL; SQLite
   * runs one transaction at a time), so that counters worked out from it cannot undo a batched
   * Interim-Update committed meanwhile.
   */
  async lockByAccountingId(
    em: EntityManager,
    nasClientId: string,
    accountingUniqueId: string,
  ): Promise<SessionEntity | null> {
    const query = sessionsQuery(em).where(
      's.nasClientId = :nasClientId AND s.accountingUniqueId = :accountingUniqueId',
      { nasClientId, accountingUniqueId },
    );
    const [session] = await withExactCounters(lockedOnMysql(em, query));
    return session ?? null;
  }

  /**
   * An Interim-Update on the NAS's session `accountingUniqueId`, if that session is active, in one
   * statement without reading it first (see reportOnStanding for what changes). Whether there was
   * such a session. Plain SQL: it runs for every accounting packet off the common path.
   */
  async reportOnActive(
    em: EntityManager,
    nasClientId: string,
    accountingUniqueId: string,
    report: InterimReport,
    now: Date,
  ): Promise<boolean> {
    const sqlite = isSqlite(em.connection);
    const reports = interimReports([{ macAddress: '', report, now }]);
    const changed = await changedRows(
      em,
      sqlite
        ? `UPDATE sessions AS s SET ${interimAssignments(true)} FROM (${reports.sql}) r
           WHERE s.nas_client_id = ? AND s.accounting_unique_id = ? AND s.status = 'active'`
        : `UPDATE (${reports.sql}) r STRAIGHT_JOIN sessions s SET ${interimAssignments(false)}
           WHERE s.nas_client_id = ? AND s.accounting_unique_id = ? AND s.status = 'active'`,
      [...reports.parameters, nasClientId, accountingUniqueId],
    );
    return changed > 0;
  }

  /**
   * For each target, its session if that is active, belongs to the target's owner (the user of that
   * id while it is in the session's venue, or the holder of that username key in that venue), and
   * its user is active with no expiresAt at or before the target's `now`: the session's id, its
   * user's, and whether that user has the target's device. One plain read (a branch per target),
   * which locks nothing. `index` is the target's in `targets`; targets with no such session are
   * left out.
   */
  async findStandingOfActive(
    em: EntityManager,
    targets: readonly { target: InterimTarget; now: Date }[],
  ): Promise<InterimStanding[]> {
    if (targets.length === 0) return [];
    const branches: string[] = [];
    const parameters: unknown[] = [];
    targets.forEach(({ target, now }, index) => {
      const { nasClientId, accountingUniqueId, owner, macAddress } = target;
      const byUser = 'userId' in owner;
      branches.push(
        `SELECT ? AS target_index, s.id, s.user_id,
           EXISTS (SELECT 1 FROM devices d WHERE d.user_id = s.user_id AND d.mac_address = ?) AS device_known
         FROM sessions s
         WHERE s.nas_client_id = ? AND s.accounting_unique_id = ? AND s.status = 'active' AND ${
           byUser
             ? 's.user_id = ? AND EXISTS (SELECT 1 FROM hotspot_user_venues uv WHERE uv.user_id = s.user_id AND uv.venue_id = s.venue_id)'
             : 'EXISTS (SELECT 1 FROM hotspot_user_venues uv WHERE uv.user_id = s.user_id AND uv.venue_id = ? AND uv.username_key = ?)'
         }
           AND EXISTS (SELECT 1 FROM hotspot_users u WHERE u.id = s.user_id AND u.status = 'active'
             AND (u.expires_at IS NULL OR u.expires_at > ?))`,
      );
      parameters.push(
        index,
        macAddress,
        nasClientId,
        accountingUniqueId,
        ...(byUser ? [owner.userId] : [owner.venueId, owner.usernameKey]),
        dateTimeParameter(now),
      );
    });
    const rows = await em.query<
      Array<{ target_index: number | string; id: string; user_id: string; device_known: unknown }>
    >(branches.join(' UNION ALL '), parameters);
    return rows.map((row) => ({
      index: Number(row.target_index),
      sessionId: row.id,
      userId: row.user_id,
      deviceKnown: Number(row.device_known) === 1,
    }));
  }

  /**
   * Interim-Updates on sessions that findStandingOfActive found: each session, if still active, gets
   * its counters raised but never lowered (packets may arrive out of order; the same rule as
   * maxCounter), its IP address when one is reported, lastAccountingAt `now` unless later already;
   * and its user's device `macAddress` (unless empty) turns active again, seen at `now` when that is
   * later than stored.
   * The sessions' rows are locked before their devices' (the order every transaction takes them
   * in) and no user's row is read (a locking read of it deadlocked with the general path, which
   * holds the user's row and then wants the session's); a block, expiry or delete ends the session
   * in its own transaction, so it runs before (and expires the device too) or after this.
   * Returns the rows matched, sessions and devices together. MySQL: one multi-table UPDATE joining
   * the reports as a derived table, in session id order; SQLite, which has none, two UPDATE … FROM,
   * so run this in a transaction there.
   */
  async reportOnStanding(em: EntityManager, writes: readonly InterimWrite[]): Promise<number> {
    if (writes.length === 0) return 0;
    const reports = interimReports([...writes].sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1)));
    if (!isSqlite(em.connection)) {
      // With FOUND_ROWS (mysql2's default) the count is of rows matched: sessions, and devices when known.
      return changedRows(
        em,
        `UPDATE (${reports.sql}) r STRAIGHT_JOIN sessions s ON s.id = r.id
           LEFT JOIN devices d ON d.user_id = s.user_id AND d.mac_address = r.mac
         SET ${interimAssignments(false)},
           d.status = 'active', d.last_seen_at = CASE WHEN d.last_seen_at < r.seen THEN r.seen ELSE d.last_seen_at END
         WHERE s.status = 'active'`,
        reports.parameters,
      );
    }
    const sessions = await changedRows(
      em,
      `UPDATE sessions AS s SET ${interimAssignments(true)}
       FROM (${reports.sql}) r WHERE s.id = r.id AND s.status = 'active'`,
      reports.parameters,
    );
    const devices = await changedRows(
      em,
      `UPDATE devices AS d SET status = 'active',
         last_seen_at = CASE WHEN d.last_seen_at < r.seen THEN r.seen ELSE d.last_seen_at END
       FROM (${reports.sql}) r WHERE d.user_id = r.user_id AND d.mac_address = r.mac`,
      reports.parameters,
    );
    return sessions + devices;
  }

  async update(em: EntityManager, id: string, changes: Partial<SessionEntity>): Promise<void> {
    await em.update(SessionEntity, { id }, changes);
  }

  /**
   * Ends every active session of a NAS (it restarted: Accounting-On/Off), or only those whose
   * accounting came from `sourceIp` when given. Returns how many.
   */
  async endActiveOfNas(
    em: EntityManager,
    nasClientId: string,
    sourceIp: string | null,
    terminateCause: string,
    now: Date,
  ): Promise<number> {
    const result = await em.update(
      SessionEntity,
      { nasClientId, status: 'active', ...(sourceIp === null ? {} : { nasSourceIp: sourceIp }) },
      { status: 'stopped', endedAt: now, terminateCause, nasStoppedAt: now },
    );
    return result.affected ?? 0;
  }

  /** Records that the NAS said these sessions are over (an Accounting-On/Off), where it had not said so yet. */
  async markStoppedByNas(em: EntityManager, ids: readonly string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await em.update(SessionEntity, { id: In([...ids]), nasStoppedAt: IsNull() }, { nasStoppedAt: now });
  }

  /** Of `ids`, the sessions the NAS said are over. */
  async findStoppedByNas(em: EntityManager, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await em.find(SessionEntity, {
      select: { id: true },
      where: { id: In([...ids]), nasStoppedAt: Not(IsNull()) },
    });
    return rows.map((row) => row.id);
  }

  /**
   * Ends the accounting sessions whose last update is older than `before`. One conditional UPDATE:
   * instances sweeping at once end each session once, and a session updated meanwhile is left alone.
   */
  async endStale(em: EntityManager, before: Date, terminateCause: string, now: Date): Promise<number> {
    const result = await em.update(
      SessionEntity,
      { status: 'active', lastAccountingAt: LessThan(before), nasClientId: Not(IsNull()) },
      { status: 'stopped', endedAt: now, terminateCause },
    );
    return result.affected ?? 0;
  }

  /** One page of a user's sessions, newest first, and how many match. */
  async findPageOfUser(
    em: EntityManager,
    userId: string,
    venueIds: readonly string[] | null,
    ended: boolean | null,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; sessions: SessionEntity[] }> {
    const active: SessionStatus = 'active';
    const query = sessionsQuery(em).where('s.userId = :userId', { userId });
    if (venueIds !== null) {
      if (venueIds.length === 0) return { total: 0, sessions: [] };
      query.andWhere('s.venueId IN (:...venueIds)', { venueIds });
    }
    if (ended !== null) query.andWhere(`s.status ${ended ? '<>' : '='} :active`, { active });
    const total = await query.getCount();
    const sessions = await withExactCounters(
      query.orderBy('s.startedAt', 'DESC').addOrderBy('s.id', 'DESC').offset(page.offset).limit(page.limit),
    );
    return { total, sessions };
  }

  /** One page of a venue's sessions, newest first, and how many match (idx_sessions_venue_status_started). */
  async findPageOfVenue(
    em: EntityManager,
    venueId: string,
    ended: boolean | null,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; sessions: SessionEntity[] }> {
    const active: SessionStatus = 'active';
    const query = sessionsQuery(em).where('s.venueId = :venueId', { venueId });
    if (ended !== null) query.andWhere(`s.status ${ended ? '<>' : '='} :active`, { active });
    const total = await query.getCount();
    const sessions = await withExactCounters(
      query.orderBy('s.startedAt', 'DESC').addOrderBy('s.id', 'DESC').offset(page.offset).limit(page.limit),
    );
    return { total, sessions };
  }

  /**
   * One page of what Online now lists in a venue: its active sessions and those ended here whose
   * Disconnect its NAS has not confirmed, newest first; and how many of each; only those of `userIds`
   * when given (a search's). The page's ids in one UNION ALL (active ones by idx_sessions_venue_status_started, the others by
   * idx_sessions_disconnect_job), then the sessions.
   */
  async findOnlinePageOfVenue(
    em: EntityManager,
    venueId: string,
    page: { offset: number; limit: number },
    userIds: readonly string[] | null = null,
  ): Promise<{ active: number; disconnecting: number; sessions: SessionEntity[] }> {
    if (userIds !== null && userIds.length === 0) return { active: 0, disconnecting: 0, sessions: [] };
    const ofUsers = userIds === null ? '' : ` AND user_id IN (${userIds.map(() => '?').join(', ')})`;
    const branches = `SELECT id, started_at, 1 AS active FROM sessions WHERE venue_id = ? AND status = 'active'${ofUsers}
      UNION ALL
      SELECT id, started_at, 0 AS active FROM sessions
        WHERE disconnect_job_id IS NOT NULL AND venue_id = ? AND status <> 'active'${ofUsers}`;
    const branchParams = [venueId, ...(userIds ?? []), venueId, ...(userIds ?? [])];
    const [counts] = await em.query<Array<{ active: number | string | null; total: number | string }>>(
      `SELECT SUM(o.active) AS active, COUNT(*) AS total FROM (${branches}) o`,
      branchParams,
    );
    const active = Number(counts?.active ?? 0);
    const disconnecting = Number(counts?.total ?? 0) - active;
    const rows = await em.query<Array<{ id: string }>>(
      `SELECT o.id FROM (${branches}) o ORDER BY o.started_at DESC, o.id DESC LIMIT ? OFFSET ?`,
      [...branchParams, page.limit, page.offset],
    );
    if (rows.length === 0) return { active, disconnecting, sessions: [] };
    const ids = rows.map((row) => row.id);
    const found = await withExactCounters(sessionsQuery(em).where('s.id IN (:...ids)', { ids }));
    const byId = new Map(found.map((session) => [session.id, session]));
    return {
      active,
      disconnecting,
      sessions: ids.flatMap((id) => {
        const session = byId.get(id);
        return session === undefined ? [] : [session];
      }),
    };
  }

  /** Which of `userIds` have an active session in `venueId`: one query, through idx_sessions_user_status. */
  async findOnlineUserIds(em: EntityManager, venueId: string, userIds: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(userIds.filter((id) => id.length > 0 && id.length <= ID_LENGTH))];
    if (wanted.length === 0) return new Set();
    const rows = await em.query<Array<{ user_id: string }>>(
      `SELECT DISTINCT user_id FROM sessions
        WHERE user_id IN (${wanted.map(() => '?').join(', ')}) AND status = 'active' AND venue_id = ?`,
      [...wanted, venueId],
    );
    return new Set(rows.map((row) => row.user_id));
  }

  /** Active sessions in `venueIds` (null: every venue): idx_sessions_venue_status_started, or idx_sessions_status_last_accounting. */
  async countActive(em: EntityManager, venueIds: readonly string[] | null): Promise<number> {
    if (venueIds !== null && venueIds.length === 0) return 0;
    const venues = venueIds === null ? '' : ` AND venue_id IN (${venueIds.map(() => '?').join(', ')})`;
    const [row] = await em.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM sessions WHERE status = 'active'${venues}`,
      venueIds === null ? [] : [...venueIds],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * The time of the latest accounting packet of each NAS in `nasClientIds` (absent: none yet): one
   * step down idx_sessions_nas_last_accounting per NAS.
   */
  async lastAccountingByNas(em: EntityManager, nasClientIds: readonly string[]): Promise<Map<string, Date>> {
    const last = new Map<string, Date>();
    if (nasClientIds.length === 0) return last;
    const keys = nasClientIds.map((_id, index) => (index === 0 ? 'SELECT ? AS id' : 'SELECT ?')).join(' UNION ALL ');
    const rows = await em.query<Array<{ id: string; last_accounting_at: Date | string | null }>>(
      `SELECT k.id, (SELECT s.last_accounting_at FROM sessions s
                      WHERE s.nas_client_id = k.id AND s.last_accounting_at IS NOT NULL
                      ORDER BY s.last_accounting_at DESC LIMIT 1) AS last_accounting_at
         FROM (${keys}) k`,
      [...nasClientIds],
    );
    for (const row of rows) if (row.last_accounting_at !== null) last.set(row.id, readDateTime(row.last_accounting_at));
    return last;
  }
}

function activeOfUserQuery(em: EntityManager, userId: string): SelectQueryBuilder<SessionEntity> {
  return sessionsQuery(em).where('s.userId = :userId AND s.status = :status', { userId, status: 'active' });
}

/** `query` reading with FOR UPDATE on MySQL; SQLite has no row locks and needs none (one writer at a time). */
function lockedOnMysql(em: EntityManager, query: SelectQueryBuilder<SessionEntity>): SelectQueryBuilder<SessionEntity> {
  return isSqlite(em.connection) ? query : query.setLock('pessimistic_write');
}

/** Sessions `s`, their octet counters also as text (see withExactCounters). */
function sessionsQuery(em: EntityManager): SelectQueryBuilder<SessionEntity> {
  return em
    .createQueryBuilder(SessionEntity, 's')
    .addSelect('CAST(s.input_octets AS CHAR)', 'exact_input_octets')
    .addSelect('CAST(s.output_octets AS CHAR)', 'exact_output_octets');
}

/**
 * The sessions of a sessionsQuery with their octet counters exact: better-sqlite3 reads a 64-bit
 * INTEGER through a double, which rounds a counter beyond 2^53 (and a counter read rounded, then
 * written back, could pass the BIGINT range and be stored as REAL); the column cast to text is exact.
 */
async function withExactCounters(query: SelectQueryBuilder<SessionEntity>): Promise<SessionEntity[]> {
  const { raw, entities } = await query.getRawAndEntities<{
    s_id: string;
    exact_input_octets: string | null;
    exact_output_octets: string | null;
  }>();
  const exact = new Map(raw.map((row) => [row.s_id, row]));
  for (const session of entities) {
    const counters = exact.get(session.id);
    session.inputOctets = counters?.exact_input_octets ?? null;
    session.outputOctets = counters?.exact_output_octets ?? null;
  }
  return entities;
}

/**
 * The SET list of Interim-Updates read from the derived table `r` (see interimReports) on sessions
 * `s`: lastAccountingAt and the counters raised but never lowered (two batches under way may each
 * hold a packet of one session and commit in either order; integers, BigInt for octets past 2^53,
 * so that both engines compare numbers), the IP address when reported, the usage fold's flag.
 * SQLite names the assigned columns bare.
 */
function interimAssignments(sqlite: boolean): string {
  const assigned = sqlite ? '' : 's.';
  const raised = (name: string, from = name) =>
    `${assigned}${name} = CASE WHEN r.${from} IS NOT NULL AND (s.${name} IS NULL OR s.${name} < r.${from}) THEN r.${from} ELSE s.${name} END`;
  return [
    // First, as it reads the stored session_time (MySQL's multi-table UPDATE may show later assignments
    // to earlier ones): a reordered packet, with a shorter time, does not bring back an older address.
    `${assigned}ip_address = CASE WHEN r.ip IS NOT NULL AND (r.session_time IS NULL OR s.session_time IS NULL OR r.session_time >= s.session_time) THEN r.ip ELSE s.ip_address END`,
    raised('last_accounting_at', 'seen'),
    raised('input_octets'),
    raised('output_octets'),
    raised('session_time'),
    // For the usage fold, which adds the counters' rise to the user's usage.
    `${assigned}usage_pending = 1`,
  ].join(', ');
}

/**
 * Interim-Updates as a derived table (`SELECT ? AS id, … UNION ALL SELECT ?, …`): the session's and
 * user's ids (null when the statement finds the session otherwise), the device, the time, what
 * each reports; and its parameters.
 */
function interimReports(rows: readonly (InterimWrite | Omit<InterimWrite, 'sessionId' | 'userId'>)[]): {
  sql: string;
  parameters: unknown[];
} {
  const columns = ['id', 'user_id', 'mac', 'seen', 'input_octets', 'output_octets', 'session_time', 'ip'];
  const first = `SELECT ${columns.map((name) => `? AS ${name}`).join(', ')}`;
  const next = `SELECT ${columns.map(() => '?').join(', ')}`;
  return {
    sql: [first, ...rows.slice(1).map(() => next)].join(' UNION ALL '),
    parameters: rows.flatMap((row) => [
      'sessionId' in row ? row.sessionId : null,
      'userId' in row ? row.userId : null,
      row.macAddress,
      dateTimeParameter(row.now),
      row.report.inputOctets === null ? null : BigInt(row.report.inputOctets),
      row.report.outputOctets === null ? null : BigInt(row.report.outputOctets),
      row.report.sessionTime,
      row.report.ipAddress,
    ]),
  };
}
