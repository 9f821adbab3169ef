import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, Not, type EntityManager } from 'typeorm';
import { ConsoleFormTokenEntity } from './entities/console-form-token.entity.js';
import { OperatorSessionEntity } from './entities/operator-session.entity.js';

/** What a used token's row leads to: the change's page, its details, its sealed secret and how long it shows. */
export type FormTokenOutcome = Pick<ConsoleFormTokenEntity, 'link' | 'details' | 'sealedSecret' | 'secretUntil'>;

/** The SQL of used console form tokens; every method runs on the caller's EntityManager. */
@Injectable()
export class ConsoleFormTokensRepository {
  /** Inserts the row of a token being used: a unique violation when another request used it first. */
  async insert(em: EntityManager, row: ConsoleFormTokenEntity): Promise<void> {
    await em.insert(ConsoleFormTokenEntity, row);
  }

  async setOutcome(em: EntityManager, tokenHash: string, outcome: FormTokenOutcome): Promise<void> {
    await em.update(ConsoleFormTokenEntity, { tokenHash }, outcome);
  }

  async findByTokenHash(em: EntityManager, tokenHash: string): Promise<ConsoleFormTokenEntity | null> {
    return em.findOneBy(ConsoleFormTokenEntity, { tokenHash });
  }

  /** The result `resultId` of the session `sessionHash` only; null for another session's. */
  async findResult(em: EntityManager, sessionHash: string, resultId: string): Promise<ConsoleFormTokenEntity | null> {
    return em.findOneBy(ConsoleFormTokenEntity, { resultId, sessionHash });
  }

  /** The session's results go with it to its new id (a password change or an enrolment renews the id). */
  async moveToSession(em: EntityManager, fromHash: string, toHash: string): Promise<void> {
    await em.update(ConsoleFormTokenEntity, { sessionHash: fromHash }, { sessionHash: toHash });
  }

  async deleteOfSession(em: EntityManager, sessionHash: string): Promise<void> {
    await em.delete(ConsoleFormTokenEntity, { sessionHash });
  }

  /** The rows of every session of the operator (sign out everywhere), read from its sessions' rows. */
  async deleteOfOperator(em: EntityManager, operatorId: string): Promise<void> {
    const sessions = await em.find(OperatorSessionEntity, { select: { idHash: true }, where: { operatorId } });
    if (sessions.length === 0) return;
    await em.delete(ConsoleFormTokenEntity, { sessionHash: In(sessions.map((session) => session.idHash)) });
  }

  /** Rows used before `cutoff`: no session is that old, so no POST can bring their tokens again. */
  async deleteCreatedBefore(em: EntityManager, cutoff: Date): Promise<void> {
    await em.delete(ConsoleFormTokenEntity, { createdAt: LessThan(cutoff) });
  }

  /** Erases the secrets whose window ended before `now` (and the window with them). */
  async eraseSecretsBefore(em: EntityManager, now: Date): Promise<void> {
    await em.update(ConsoleFormTokenEntity, { secretUntil: LessThan(now) }, { sealedSecret: null, secretUntil: null });
  }

  /** Every secret still kept, whatever its window (a rotation of SECRETS_KEY); returns how many. */
  async eraseAllSecrets(em: EntityManager): Promise<number> {
    const result = await em.update(
      ConsoleFormTokenEntity,
      { sealedSecret: Not(IsNull()) },
      { sealedSecret: null, secretUntil: null },
    );
    return result.affected ?? 0;
  }
}
