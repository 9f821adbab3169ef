import { Injectable } from '@nestjs/common';
import { LessThan, type EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import { LoginAttemptEntity } from './entities/login-attempt.entity.js';

/** Which attempts to list: each given field narrows the list; at most one of userId, username and macAddress. */
export interface LoginAttemptFilter {
  venueId?: string;
  userId?: string;
  /** Exactly as the NAS sent it. */
  username?: string;
  /** Canonical (AA:BB:CC:DD:EE:FF). */
  macAddress?: string;
  /** Only attempts recorded at or after this instant. */
  since?: Date;
  limit: number;
}

/** The SQL of login attempts; every method runs on the caller's EntityManager. */
@Injectable()
export class LoginAttemptsRepository {
  async insert(em: EntityManager, attempt: LoginAttemptEntity): Promise<void> {
    await em.insert(LoginAttemptEntity, attempt);
  }

  /** Attempts matching `filter`, newest first (an index per filter: venue, user, username, MAC, with created_at). */
  list(em: EntityManager, filter: LoginAttemptFilter): Promise<LoginAttemptEntity[]> {
    const query = em
      .getRepository(LoginAttemptEntity)
      .createQueryBuilder('attempt')
      .orderBy('attempt.createdAt', 'DESC')
      .addOrderBy('attempt.id', 'DESC')
      .limit(filter.limit);
    if (filter.venueId !== undefined) query.andWhere('attempt.venueId = :venueId', { venueId: filter.venueId });
    if (filter.userId !== undefined) query.andWhere('attempt.userId = :userId', { userId: filter.userId });
    if (filter.username !== undefined) query.andWhere('attempt.username = :username', { username: filter.username });
    if (filter.macAddress !== undefined) {
      query.andWhere('attempt.macAddress = :macAddress', { macAddress: filter.macAddress });
    }
    if (filter.since !== undefined)
      query.andWhere('attempt.createdAt >= :since', { since: dateTimeParameter(filter.since) });
    return query.getMany();
  }

  /** Deletes attempts recorded before `before`; returns how many. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(LoginAttemptEntity, { createdAt: LessThan(before) });
    return result.affected ?? 0;
  }
}
