import { Injectable } from '@nestjs/common';
import { IsNull, type EntityManager } from 'typeorm';
import { OperatorRecoveryCodeEntity } from './entities/operator-recovery-code.entity.js';

/** The SQL of recovery codes. */
@Injectable()
export class RecoveryCodesRepository {
  /** Replaces every code of the operator with these. */
  async replaceAll(em: EntityManager, operatorId: string, codes: OperatorRecoveryCodeEntity[]): Promise<void> {
    await em.delete(OperatorRecoveryCodeEntity, { operatorId });
    await em.insert(OperatorRecoveryCodeEntity, codes);
  }

  /** Marks the unused code with this hash as used; false when there is none (wrong, or used already). */
  async use(em: EntityManager, operatorId: string, codeHash: string, at: Date): Promise<boolean> {
    const result = await em.update(
      OperatorRecoveryCodeEntity,
      { operatorId, codeHash, usedAt: IsNull() },
      { usedAt: at },
    );
    return (result.affected ?? 0) === 1;
  }
}
