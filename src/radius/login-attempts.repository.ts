import { Injectable } from '@nestjs/common';
import { LessThan, type EntityManager } from 'typeorm';
import { LoginAttemptEntity } from './entities/login-attempt.entity.js';

/** The SQL of login attempts; every method runs on the caller's EntityManager. */
@Injectable()
export class LoginAttemptsRepository {
  async insert(em: EntityManager, attempt: LoginAttemptEntity): Promise<void> {
    await em.insert(LoginAttemptEntity, attempt);
  }

  /** Deletes attempts recorded before `before`; returns how many. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(LoginAttemptEntity, { createdAt: LessThan(before) });
    return result.affected ?? 0;
  }
}
