import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
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
}
