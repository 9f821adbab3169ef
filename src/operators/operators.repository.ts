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
}
