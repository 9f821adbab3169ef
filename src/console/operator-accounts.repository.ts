import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OperatorEntity } from '../operators/entities/operator.entity.js';

/** The console's SQL on operators: what sign-in, enrolment and a password change read and write. */
@Injectable()
export class OperatorAccountsRepository {
  findByEmailKey(em: EntityManager, emailKey: string): Promise<OperatorEntity | null> {
    return em.findOneBy(OperatorEntity, { emailKey });
  }

  findById(em: EntityManager, id: string): Promise<OperatorEntity | null> {
    return em.findOneBy(OperatorEntity, { id });
  }

  /**
   * Records `step` as the last accepted TOTP step, only when it is later than the one recorded:
   * false when another request accepted this step (or a later one) first, so a code passes once.
   */
  async acceptTotpStep(em: EntityManager, id: string, step: number): Promise<boolean> {
    const result = await em
      .createQueryBuilder()
      .update(OperatorEntity)
      .set({ totpLastStep: String(step) })
      .where('id = :id AND (totp_last_step IS NULL OR totp_last_step < :step)', { id, step })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  async saveTotpEnrolment(em: EntityManager, id: string, sealedSecret: string, step: number, at: Date): Promise<void> {
    await em.update(
      OperatorEntity,
      { id },
      { totpSecret: sealedSecret, totpEnrolledAt: at, totpLastStep: String(step), updatedAt: at },
    );
  }

  /** A new password: its hash, no longer a one-time password, and a new rights_version (other sessions end). */
  async changePassword(em: EntityManager, id: string, passwordHash: string, at: Date): Promise<void> {
    await em
      .createQueryBuilder()
      .update(OperatorEntity)
      .set({
        passwordHash,
        mustChangePassword: false,
        oneTimePasswordExpiresAt: null,
        updatedAt: at,
        rightsVersion: () => 'rights_version + 1',
      })
      .where('id = :id', { id })
      .execute();
  }

  /** The zone the console shows this operator's dates in (null: UTC); no session ends for it. */
  async setTimeZone(em: EntityManager, id: string, timeZone: string | null, at: Date): Promise<void> {
    await em.update(OperatorEntity, { id }, { timeZone, updatedAt: at });
  }

  async markSignedIn(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.update(OperatorEntity, { id }, { lastSignInAt: at });
  }
}
