import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiTokenEntity } from './entities/api-token.entity.js';

/**
 * Every query on api_tokens, one method each. Each runs on the EntityManager it is given: the
 * caller's transaction, or DatabaseService.run for a statement of its own.
 */
@Injectable()
export class ApiTokenRepository {
  async insert(em: EntityManager, token: ApiTokenEntity): Promise<void> {
    await em.insert(ApiTokenEntity, token);
  }

  /** Every token, oldest first. */
  list(em: EntityManager): Promise<ApiTokenEntity[]> {
    return em.find(ApiTokenEntity, { order: { createdAt: 'ASC', id: 'ASC' } });
  }

  count(em: EntityManager): Promise<number> {
    return em.count(ApiTokenEntity);
  }

  findById(em: EntityManager, id: string): Promise<ApiTokenEntity | null> {
    return em.findOneBy(ApiTokenEntity, { id });
  }

  /** By the digest's unique index; an equality match on a digest leaks nothing useful. */
  findByHash(em: EntityManager, tokenHash: string): Promise<ApiTokenEntity | null> {
    return em.findOneBy(ApiTokenEntity, { tokenHash });
  }

  async setRevokedAt(em: EntityManager, id: string, revokedAt: Date): Promise<void> {
    await em.update(ApiTokenEntity, { id }, { revokedAt });
  }

  async setLastUsedAt(em: EntityManager, id: string, lastUsedAt: Date): Promise<void> {
    await em.update(ApiTokenEntity, { id }, { lastUsedAt });
  }

  /** How many tokens exist and how many of them are revoked: one small aggregate over a small table. */
  async revisionCounts(em: EntityManager): Promise<{ total: number; revoked: number }> {
    const row = await em
      .createQueryBuilder(ApiTokenEntity, 'token')
      .select('COUNT(*)', 'total')
      .addSelect('COUNT(token.revokedAt)', 'revoked')
      .getRawOne<{ total: number | string; revoked: number | string }>();
    return { total: Number(row?.total ?? 0), revoked: Number(row?.revoked ?? 0) };
  }
}
