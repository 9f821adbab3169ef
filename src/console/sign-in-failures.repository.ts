import { Injectable } from '@nestjs/common';
import { LessThan, type EntityManager } from 'typeorm';
import { SignInFailureEntity } from './entities/sign-in-failure.entity.js';

/** The SQL of failed sign-ins per email. */
@Injectable()
export class SignInFailuresRepository {
  find(em: EntityManager, emailKey: string): Promise<SignInFailureEntity | null> {
    return em.findOneBy(SignInFailureEntity, { emailKey });
  }

  async insert(em: EntityManager, row: SignInFailureEntity): Promise<void> {
    await em.insert(SignInFailureEntity, row);
  }

  async update(
    em: EntityManager,
    emailKey: string,
    changes: Pick<SignInFailureEntity, 'failures' | 'lastFailureAt' | 'retryAt'>,
  ): Promise<void> {
    await em.update(SignInFailureEntity, { emailKey }, changes);
  }

  async delete(em: EntityManager, emailKey: string): Promise<void> {
    await em.delete(SignInFailureEntity, { emailKey });
  }

  /** Forgets failures older than `before`: they no longer slow anyone down. */
  async deleteOlderThan(em: EntityManager, before: Date): Promise<void> {
    await em.delete(SignInFailureEntity, { lastFailureAt: LessThan(before) });
  }
}
