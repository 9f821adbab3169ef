import { Injectable } from '@nestjs/common';
import { MoreThan, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { ID_LENGTH } from '../database/columns.js';
import { DatabaseService } from '../database/database.service.js';
import { UnauthJobEntity, type UnauthJobStatus, type UnauthReason } from './entities/unauth-job.entity.js';
import type { ClaimedJob } from './unauth-job-rules.js';

/**
 * Every query on unauth_jobs, one method each. Each runs on the EntityManager it is given: the
 * caller's transaction, or DatabaseService.run for a statement of its own.
 */
@Injectable()
export class UnauthJobsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(em: EntityManager, job: UnauthJobEntity): Promise<void> {
    await em.insert(UnauthJobEntity, job);
  }

  /**
   * Up to `limit` jobs due at `now` (pending, or processing under a lease that ran out), earliest
   * first. On MySQL the rows are read with FOR UPDATE SKIP LOCKED, so concurrent workers take
   * different jobs; SQLite has no row locks (the transaction holds the file's write lock).
   */
  findDue(em: EntityManager, now: Date, limit: number): Promise<UnauthJobEntity[]> {
    const query = em
      .createQueryBuilder(UnauthJobEntity, 'job')
      .where('job.status IN (:...statuses)', { statuses: ['pending', 'processing'] })
      .andWhere('job.nextAttemptAt <= :now', { now })
      .orderBy('job.nextAttemptAt', 'ASC')
      .addOrderBy('job.id', 'ASC')
      .limit(limit);
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    return query.getMany();
  }

  /**
   * Stores `claimed` over `found` unless the row changed since it was read (another worker claimed
   * it first). Returns whether this call claimed it.
   */
  async claim(em: EntityManager, found: UnauthJobEntity, claimed: ClaimedJob, now: Date): Promise<boolean> {
    const { status, attempts, leaseExpiresAt, nextAttemptAt } = claimed;
    const result = await em.update(
      UnauthJobEntity,
      { id: found.id, status: found.status, nextAttemptAt: found.nextAttemptAt },
      { status, attempts, leaseExpiresAt, nextAttemptAt, updatedAt: now },
    );
    return result.affected === 1;
  }

  /** Applies `changes` only while the job is still held under the lease it was claimed with. */
  async updateWhileLeased(em: EntityManager, job: ClaimedJob, changes: Partial<UnauthJobEntity>): Promise<void> {
    await em.update(UnauthJobEntity, { id: job.id, status: 'processing', leaseExpiresAt: job.leaseExpiresAt }, changes);
  }

  /** Makes a pending job due at `now`, if it is still pending and due later. */
  async hurry(em: EntityManager, id: string, now: Date): Promise<void> {
    await em.update(UnauthJobEntity, { id, status: 'pending', nextAttemptAt: MoreThan(now) }, { nextAttemptAt: now });
  }

  findById(em: EntityManager, id: string): Promise<UnauthJobEntity | null> {
    // Ids are opaque: anything that cannot be one is simply not found.
    if (id.length === 0 || id.length > ID_LENGTH) return Promise.resolve(null);
    return em.findOneBy(UnauthJobEntity, { id });
  }

  /** The job, its row locked until the transaction ends (MySQL; SQLite runs one transaction at a time). */
  async lockById(em: EntityManager, id: string): Promise<UnauthJobEntity | null> {
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const query = em.createQueryBuilder(UnauthJobEntity, 'job').where('job.id = :id', { id }).limit(1);
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write');
    return (await query.getOne()) ?? null;
  }

  /** Applies `changes` only while the job is still in `status`. Returns whether it did. */
  async updateInStatus(
    em: EntityManager,
    id: string,
    status: UnauthJobStatus,
    changes: Partial<UnauthJobEntity>,
  ): Promise<boolean> {
    const result = await em.update(UnauthJobEntity, { id, status }, changes);
    return result.affected === 1;
  }

  /** One page of the user's jobs, newest first, and how many the user has. */
  async findPageOfUser(
    em: EntityManager,
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; jobs: UnauthJobEntity[] }> {
    const [jobs, total] = await em.findAndCount(UnauthJobEntity, {
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return { total, jobs };
  }

  /** Jobs, oldest first, optionally of one user, for one reason and in one status. */
  list(
    em: EntityManager,
    filter: { userId?: string; reason?: UnauthReason; status?: UnauthJobStatus },
  ): Promise<UnauthJobEntity[]> {
    const where: FindOptionsWhere<UnauthJobEntity> = {};
    if (filter.reason !== undefined) where.reason = filter.reason;
    if (filter.userId !== undefined) where.userId = filter.userId;
    if (filter.status !== undefined) where.status = filter.status;
    return em.find(UnauthJobEntity, { where, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
