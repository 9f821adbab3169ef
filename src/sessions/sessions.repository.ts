import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, Not, MoreThanOrEqual, type EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import { changedRows } from '../database/plain-sql.js';
import { SessionEntity, type SessionStatus } from './entities/session.entity.js';

/** What an Interim-Update reports about a session; null where it reports nothing. */
export interface InterimReport {
  /** 64-bit counters as decimal digits. */
  inputOctets: string | null;
  outputOctets: string | null;
  sessionTime: number | null;
  ipAddress: string | null;
}

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
    const assignments = ['last_accounting_at = ?'];
    const parameters: unknown[] = [dateTimeParameter(now)];
    // Integers (BigInt: octets may exceed 2^53), so that both engines compare numbers.
    const raise = (column: string, value: bigint | number | null) => {
      if (value === null) return;
      assignments.push(`${column} = CASE WHEN ${column} IS NULL OR ${column} < ? THEN ? ELSE ${column} END`);
      parameters.push(value, value);
    };
    raise('input_octets', report.inputOctets === null ? null : BigInt(report.inputOctets));
    raise('output_octets', report.outputOctets === null ? null : BigInt(report.outputOctets));
    raise('session_time', report.sessionTime);
    if (report.ipAddress !== null) {
      assignments.push('ip_address = ?');
      parameters.push(report.ipAddress);
    }
    const changed = await changedRows(
      em,
      `UPDATE sessions SET ${assignments.join(', ')}
       WHERE nas_client_id = ? AND accounting_unique_id = ? AND status = 'active'`,
      [...parameters, nasClientId, accountingUniqueId],
    );
    return changed > 0;
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
