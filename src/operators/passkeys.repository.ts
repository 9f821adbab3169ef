import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OperatorPasskeyEntity } from './entities/operator-passkey.entity.js';

/** The SQL of operators' passkeys. */
@Injectable()
export class PasskeysRepository {
  listOfOperator(em: EntityManager, operatorId: string): Promise<OperatorPasskeyEntity[]> {
    return em.find(OperatorPasskeyEntity, { where: { operatorId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findOfOperator(em: EntityManager, operatorId: string, credentialId: string): Promise<OperatorPasskeyEntity | null> {
    return em.findOneBy(OperatorPasskeyEntity, { operatorId, credentialId });
  }

  async insert(em: EntityManager, passkey: OperatorPasskeyEntity): Promise<void> {
    await em.insert(OperatorPasskeyEntity, passkey);
  }

  /**
   * The counter and time of a use, only if the stored counter is still `previous`: of two uses of
   * one assertion at once, one moves it. False when another did first.
   */
  async recordUse(em: EntityManager, id: string, previous: string, signCount: number, at: Date): Promise<boolean> {
    const result = await em.update(
      OperatorPasskeyEntity,
      { id, signCount: previous },
      { signCount: String(signCount), lastUsedAt: at },
    );
    return (result.affected ?? 0) === 1;
  }

  /** Deletes one of the operator's passkeys; false when it has none of that id. */
  async deleteOfOperator(em: EntityManager, operatorId: string, id: string): Promise<boolean> {
    const result = await em.delete(OperatorPasskeyEntity, { operatorId, id });
    return (result.affected ?? 0) === 1;
  }
}
