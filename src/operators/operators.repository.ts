import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OperatorEntity } from './entities/operator.entity.js';

/** What a change of an operator sets; rights_version moves on with every one. */
export type OperatorChanges = Partial<
  Pick<
    OperatorEntity,
    | 'status'
    | 'passwordHash'
    | 'mustChangePassword'
    | 'oneTimePasswordExpiresAt'
    | 'totpSecret'
    | 'totpEnrolledAt'
    | 'totpLastStep'
    | 'name'
    | 'permissions'
    | 'venueIds'
    | 'admin'
  >
>;

/** The SQL of operators; every method runs on the caller's EntityManager. */
@Injectable()
export class OperatorsRepository {
  findById(em: EntityManager, id: string): Promise<OperatorEntity | null> {
    return em.findOneBy(OperatorEntity, { id });
  }

  findByEmailKey(em: EntityManager, emailKey: string): Promise<OperatorEntity | null> {
    return em.findOneBy(OperatorEntity, { emailKey });
  }

  /** The operators with a stored TOTP seed, locked for the caller's transaction (MySQL). */
  async listTotpSecretsForUpdate(
    em: EntityManager,
    rowLocks: boolean,
  ): Promise<Array<{ id: string; totpSecret: string }>> {
    const query = em
      .createQueryBuilder(OperatorEntity, 'o')
      .select(['o.id', 'o.totpSecret'])
      .where('o.totp_secret IS NOT NULL');
    if (rowLocks) query.setLock('pessimistic_write');
    const rows = await query.getMany();
    return rows.map(({ id, totpSecret }) => ({ id, totpSecret: totpSecret! }));
  }

  /** The seed sealed anew: no other change, no rights_version move (sessions stay). */
  async replaceTotpSecret(em: EntityManager, id: string, totpSecret: string): Promise<void> {
    await em.update(OperatorEntity, { id }, { totpSecret });
  }

  count(em: EntityManager): Promise<number> {
    return em.count(OperatorEntity);
  }

  /**
   * The active administrators' ids, in id order, locked for the caller's transaction on MySQL
   * (`FOR UPDATE`; SQLite's transactions take the write lock up front): of two administrators
   * disabling each other at once, the second waits, reads the first's change and counts again.
   */
  async lockActiveAdmins(em: EntityManager, rowLocks: boolean): Promise<string[]> {
    const query = em
      .getRepository(OperatorEntity)
      .createQueryBuilder('operator')
      .select('operator.id', 'id')
      .where('operator.admin = :admin', { admin: true })
      .andWhere('operator.status = :status', { status: 'active' })
      .orderBy('operator.id');
    if (rowLocks) query.setLock('pessimistic_write');
    const rows = await query.getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  listOldestFirst(em: EntityManager): Promise<OperatorEntity[]> {
    return em.find(OperatorEntity, { order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async insert(em: EntityManager, operator: OperatorEntity): Promise<void> {
    await em.insert(OperatorEntity, operator);
  }

  /**
   * Applies `changes`, sets updated_at and moves rights_version on by one in the same statement, so
   * two changes at once each count (sessions made before either are over).
   */
  async change(em: EntityManager, id: string, changes: OperatorChanges, now: Date): Promise<void> {
    await em
      .createQueryBuilder()
      .update(OperatorEntity)
      .set({ ...changes, updatedAt: now, rightsVersion: () => 'rights_version + 1' })
      .where('id = :id', { id })
      .execute();
  }

  // Sign-in, enrolment, a password change and My account (operator-auth).
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
