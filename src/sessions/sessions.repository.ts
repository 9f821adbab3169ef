import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, Not, MoreThanOrEqual, type EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
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

/** The SQL of sessions; every method runs on the caller's EntityManager (its transaction, if any). */
@Injectable()
export class SessionsRepository {
  findById(em: EntityManager, id: string): Promise<SessionEntity | null> {
    return em.findOneBy(SessionEntity, { id });
  }

  findActiveOfUser(em: EntityManager, userId: string): Promise<SessionEntity[]> {
    return em.findBy(SessionEntity, { userId, status: 'active' });
  }

  async insert(em: EntityManager, session: SessionEntity): Promise<void> {
    await em.insert(SessionEntity, session);
  }

  async end(em: EntityManager, ids: readonly string[], status: SessionStatus, endedAt: Date): Promise<void> {
    if (ids.length === 0) return;
    await em.update(SessionEntity, { id: In([...ids]) }, { status, endedAt });
  }

  /**
   * The NAS confirmed the session is over: ended now when still active, and the terminate cause set
   * when none was recorded (a Stop's own cause wins).
   */
  async endConfirmed(em: EntityManager, id: string, terminateCause: string, now: Date): Promise<void> {
    await em.update(SessionEntity, { id, status: 'active' }, { status: 'expired', endedAt: now });
    await em.update(SessionEntity, { id, terminateCause: IsNull() }, { terminateCause });
  }

  // RADIUS accounting

  findByAccountingId(
    em: EntityManager,
    nasClientId: string,
    accountingUniqueId: string,
  ): Promise<SessionEntity | null> {
    return em.findOneBy(SessionEntity, { nasClientId, accountingUniqueId });
  }

  /**
   * An Interim-Update on the NAS's session `accountingUniqueId`, if that session is active, in one
   * statement without reading it first: the counters rise to the reported ones but never fall
   * (packets may arrive out of order; the same rule as maxCounter), the IP address changes when one
   * is reported, lastAccountingAt becomes `now`. Whether there was such a session. Plain SQL: it
   * runs for nearly every accounting packet.
   */
  async reportOnActive(
    em: EntityManager,
    nasClientId: string,
    accountingUniqueId: string,
    report: InterimReport,
    now: Date,
  ): Promise<boolean> {
    const { assignments, parameters } = interimAssignments(report, now);
    const changed = await changedRows(
      em,
      `UPDATE sessions SET ${assignments}
       WHERE nas_client_id = ? AND accounting_unique_id = ? AND status = 'active'`,
      [...parameters, nasClientId, accountingUniqueId],
    );
    return changed > 0;
  }

  /**
   * reportOnActive, only when the session belongs to `owner` (the user of that id, or the holder of
   * that username key in that venue) and its user is active with no expiresAt at or before `now`;
   * then also the user's device `macAddress` (unless empty), active again and seen at `now` when
   * that is later than stored. The session's row is locked, its user's is not: a block, expiry or
   * delete ends the session in its own transaction, so the two run one after the other and this
   * either comes first (and that change then expires the device too) or finds the session ended.
   * First a plain read of that standing (it locks nothing), then the session by id, if still active,
   * and its device: the session's row is locked before the device's, the order every transaction
   * takes them in, and no user's row is waited for (a locking read of it inside the UPDATE
   * deadlocked with the general path, which holds the user's row and then wants the session's).
   * MySQL writes both in one multi-table UPDATE; SQLite, which has none, in two, so run this in a
   * transaction there. Whether the session changed, and whether the device did (false when it is
   * unknown).
   */
  async reportOnActiveOfActiveUser(
    em: EntityManager,
    key: { nasClientId: string; accountingUniqueId: string; owner: SessionOwner; macAddress: string },
    report: InterimReport,
    now: Date,
  ): Promise<{ session: boolean; device: boolean }> {
    const { nasClientId, accountingUniqueId, owner, macAddress } = key;
    const seenAt = dateTimeParameter(now);
    const byOwner = 'userId' in owner ? [owner.userId] : [owner.venueId, owner.usernameKey];
    const ownedBy =
      'userId' in owner
        ? 's.user_id = ?'
        : 'EXISTS (SELECT 1 FROM hotspot_user_venues uv WHERE uv.user_id = s.user_id AND uv.venue_id = ? AND uv.username_key = ?)';
    const [standing] = await em.query<Array<{ id: string; user_id: string }>>(
      `SELECT s.id, s.user_id FROM sessions s
       WHERE s.nas_client_id = ? AND s.accounting_unique_id = ? AND s.status = 'active' AND ${ownedBy}
         AND EXISTS (SELECT 1 FROM hotspot_users u WHERE u.id = s.user_id AND u.status = 'active'
           AND (u.expires_at IS NULL OR u.expires_at > ?))`,
      [nasClientId, accountingUniqueId, ...byOwner, seenAt],
    );
    if (standing === undefined) return { session: false, device: false };
    const withDevice = macAddress !== '';
    if (!isSqlite(em.connection)) {
      const { assignments, parameters } = interimAssignments(report, now, 's.');
      // With FOUND_ROWS (mysql2's default) the count is of rows matched: the session, and the device when known.
      const matched = await changedRows(
        em,
        `UPDATE sessions s${withDevice ? ' LEFT JOIN devices d ON d.user_id = s.user_id AND d.mac_address = ?' : ''}
         SET ${assignments}${withDevice ? ", d.status = 'active', d.last_seen_at = CASE WHEN d.last_seen_at < ? THEN ? ELSE d.last_seen_at END" : ''}
         WHERE s.id = ? AND s.status = 'active'`,
        [...(withDevice ? [macAddress] : []), ...parameters, ...(withDevice ? [seenAt, seenAt] : []), standing.id],
      );
      return { session: matched > 0, device: withDevice && matched > 1 };
    }
    const { assignments, parameters } = interimAssignments(report, now);
    const session =
      (await changedRows(em, `UPDATE sessions SET ${assignments} WHERE id = ? AND status = 'active'`, [
        ...parameters,
        standing.id,
      ])) > 0;
    if (!session || !withDevice) return { session, device: false };
    const device = await changedRows(
      em,
      `UPDATE devices SET status = 'active', last_seen_at = CASE WHEN last_seen_at < ? THEN ? ELSE last_seen_at END
       WHERE user_id = ? AND mac_address = ?`,
      [seenAt, seenAt, standing.user_id, macAddress],
    );
    return { session, device: device > 0 };
  }

  /** Active sessions of a user whose NAS reported on them at or after `since` (CLI sessions never count). */
  countRecentlyActiveOfUser(em: EntityManager, userId: string, since: Date): Promise<number> {
    return em.countBy(SessionEntity, { userId, status: 'active', lastAccountingAt: MoreThanOrEqual(since) });
  }

  async update(em: EntityManager, id: string, changes: Partial<SessionEntity>): Promise<void> {
    await em.update(SessionEntity, { id }, changes);
  }

  /** Ends every active session of a NAS (it restarted: Accounting-On/Off). Returns how many. */
  async endActiveOfNas(em: EntityManager, nasClientId: string, terminateCause: string, now: Date): Promise<number> {
    const result = await em.update(
      SessionEntity,
      { nasClientId, status: 'active' },
      { status: 'stopped', endedAt: now, terminateCause },
    );
    return result.affected ?? 0;
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
    ended: boolean | null,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; sessions: SessionEntity[] }> {
    const active: SessionStatus = 'active';
    const where = ended === null ? { userId } : { userId, status: ended ? Not(active) : active };
    const [sessions, total] = await em.findAndCount(SessionEntity, {
      where,
      order: { startedAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return { total, sessions };
  }
}

/**
 * The SET list of an Interim-Update: lastAccountingAt, the counters raised but never lowered
 * (integers, BigInt for octets past 2^53, so that both engines compare numbers), the IP address.
 */
function interimAssignments(
  report: InterimReport,
  now: Date,
  table = '',
): { assignments: string; parameters: unknown[] } {
  const assignments = [`${table}last_accounting_at = ?`];
  const parameters: unknown[] = [dateTimeParameter(now)];
  const raise = (name: string, value: bigint | number | null) => {
    if (value === null) return;
    const column = table + name;
    assignments.push(`${column} = CASE WHEN ${column} IS NULL OR ${column} < ? THEN ? ELSE ${column} END`);
    parameters.push(value, value);
  };
  raise('input_octets', report.inputOctets === null ? null : BigInt(report.inputOctets));
  raise('output_octets', report.outputOctets === null ? null : BigInt(report.outputOctets));
  raise('session_time', report.sessionTime);
  if (report.ipAddress !== null) {
    assignments.push(`${table}ip_address = ?`);
    parameters.push(report.ipAddress);
  }
  return { assignments: assignments.join(', '), parameters };
}
