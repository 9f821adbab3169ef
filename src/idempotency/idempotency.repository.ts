import { Injectable } from '@nestjs/common';
import { Brackets, type EntityManager } from 'typeorm';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity.js';
import type { StoredAnswer } from './idempotency.rules.js';

/** The SQL of idempotency keys; every method runs on the caller's EntityManager (its transaction, if any). */
@Injectable()
export class IdempotencyRepository {
  find(em: EntityManager, tokenId: string, key: string): Promise<IdempotencyKeyEntity | null> {
    return em.findOneBy(IdempotencyKeyEntity, { tokenId, key });
  }

  /** Fails with a unique violation when the token holds the key already (or, on MySQL, waits for the transaction taking it). */
  async insert(em: EntityManager, row: IdempotencyKeyEntity): Promise<void> {
    await em.insert(IdempotencyKeyEntity, row);
  }

  async setAnswer(em: EntityManager, tokenId: string, key: string, answer: StoredAnswer): Promise<void> {
    await em.update(IdempotencyKeyEntity, { tokenId, key }, { answer });
  }

  /** Deletes the key if it was created before `cutoff`; a key taken again since stays. */
  async deleteIfCreatedBefore(em: EntityManager, tokenId: string, key: string, cutoff: Date): Promise<void> {
    await em
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKeyEntity)
      .where('token_id = :tokenId AND idempotency_key = :key AND created_at < :cutoff', { tokenId, key, cutoff })
      .execute();
  }

  /** Up to `limit` keys created before `cutoff`, oldest first (an indexed range). */
  findCreatedBefore(em: EntityManager, cutoff: Date, limit: number): Promise<IdempotencyKeyEntity[]> {
    return em
      .createQueryBuilder(IdempotencyKeyEntity, 'k')
      .select(['k.tokenId', 'k.key'])
      .where('k.createdAt < :cutoff', { cutoff })
      .orderBy('k.createdAt', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Deletes the given keys, each only if still created before `cutoff`. */
  async deleteKeysCreatedBefore(
    em: EntityManager,
    keys: ReadonlyArray<Pick<IdempotencyKeyEntity, 'tokenId' | 'key'>>,
    cutoff: Date,
  ): Promise<number> {
    if (keys.length === 0) return 0;
    const result = await em
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKeyEntity)
      .where('created_at < :cutoff', { cutoff })
      .andWhere(
        new Brackets((any) => {
          keys.forEach(({ tokenId, key }, index) =>
            any.orWhere(`(token_id = :token${index} AND idempotency_key = :key${index})`, {
              [`token${index}`]: tokenId,
              [`key${index}`]: key,
            }),
          );
        }),
      )
      .execute();
    return result.affected ?? keys.length;
  }
}
