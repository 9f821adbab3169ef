import { Injectable } from '@nestjs/common';
import { LessThan, type EntityManager } from 'typeorm';
import { isSqlite } from '../database/plain-sql.js';
import { SignInFailureEntity } from './entities/sign-in-failure.entity.js';

/** The SQL of failed sign-ins per key (an email, or an operator's second factor). */
@Injectable()
export class SignInFailuresRepository {
  /**
   * Makes sure `key` has a row (no failure yet) without waiting for or failing on another request
   * doing the same (INSERT IGNORE / INSERT OR IGNORE), so that the row can then be locked.
   */
  async ensure(em: EntityManager, key: string, now: Date): Promise<void> {
    await em
      .createQueryBuilder()
      .insert()
      .into(SignInFailureEntity)
      .values({ emailKey: key, failures: 0, lastFailureAt: now, retryAt: now })
      .orIgnore()
      .execute();
  }

  /**
   * The key's row locked for the caller's transaction (`FOR UPDATE` on MySQL; SQLite's transactions
   * take the write lock up front): concurrent attempts on one key take their turns.
   */
  findLocked(em: EntityManager, key: string): Promise<SignInFailureEntity | null> {
    const query = em
      .getRepository(SignInFailureEntity)
      .createQueryBuilder('failure')
      .where('failure.emailKey = :key', { key });
    if (!isSqlite(em.connection)) query.setLock('pessimistic_write');
    return query.getOne();
  }

  async update(
    em: EntityManager,
    key: string,
    changes: Pick<SignInFailureEntity, 'failures' | 'lastFailureAt' | 'retryAt'>,
  ): Promise<void> {
    await em.update(SignInFailureEntity, { emailKey: key }, changes);
  }

  /** One attempt fewer (one that was counted but never checked), never below none. */
  async uncount(em: EntityManager, key: string): Promise<void> {
    await em
      .createQueryBuilder()
      .update(SignInFailureEntity)
      .set({ failures: () => 'failures - 1' })
      .where('email_key = :key AND failures > 0', { key })
      .execute();
  }

  async delete(em: EntityManager, keys: string[]): Promise<void> {
    await em.delete(SignInFailureEntity, keys);
  }

  /** Forgets failures older than `before`: they no longer slow anyone down. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<void> {
    await em.delete(SignInFailureEntity, { lastFailureAt: LessThan(before) });
  }
}
