import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, Not, MoreThanOrEqual, type EntityManager } from 'typeorm';
import { SessionEntity, type SessionStatus } from './entities/session.entity.js';

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
