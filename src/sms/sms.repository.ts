import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan, Not, type EntityManager } from 'typeorm';
import { DatabaseService } from '../database/database.service.js';
import { SmsMessageEntity } from './entities/sms-message.entity.js';

/** Every query on sms_messages, one method each, on the EntityManager it is given. */
@Injectable()
export class SmsRepository {
  constructor(private readonly database: DatabaseService) {}

  async insert(em: EntityManager, message: SmsMessageEntity): Promise<void> {
    await em.insert(SmsMessageEntity, message);
  }

  /**
   * Up to `limit` messages due at `now` (pending, or processing under a lease that ran out), earliest
   * first; on MySQL locked with SKIP LOCKED, so that concurrent senders take different ones.
   */
  findDue(em: EntityManager, now: Date, limit: number): Promise<SmsMessageEntity[]> {
    const query = em
      .createQueryBuilder(SmsMessageEntity, 'sms')
      .where('sms.status IN (:...statuses)', { statuses: ['pending', 'processing'] })
      .andWhere('sms.nextAttemptAt <= :now', { now })
      .orderBy('sms.nextAttemptAt', 'ASC')
      .addOrderBy('sms.id', 'ASC')
      .limit(limit);
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    return query.getMany();
  }

  /** Takes the message for one attempt unless another sender changed it since it was read. */
  async claim(
    em: EntityManager,
    found: SmsMessageEntity,
    claim: { attempts: number; leaseExpiresAt: Date },
    now: Date,
  ): Promise<boolean> {
    const result = await em.update(
      SmsMessageEntity,
      { id: found.id, status: found.status, nextAttemptAt: found.nextAttemptAt },
      {
        status: 'processing',
        attempts: claim.attempts,
        leaseExpiresAt: claim.leaseExpiresAt,
        nextAttemptAt: claim.leaseExpiresAt,
        updatedAt: now,
      },
    );
    return result.affected === 1;
  }

  /** Applies `changes` only while the message is still held under the lease it was claimed with. */
  async updateWhileLeased(
    em: EntityManager,
    id: string,
    leaseExpiresAt: Date,
    changes: Partial<SmsMessageEntity>,
  ): Promise<boolean> {
    const result = await em.update(SmsMessageEntity, { id, status: 'processing', leaseExpiresAt }, changes);
    return result.affected === 1;
  }

  /** Messages whose text is still sealed (not yet sent or given up). */
  findSealed(em: EntityManager): Promise<Array<Pick<SmsMessageEntity, 'id' | 'sealedContent'>>> {
    return em.find(SmsMessageEntity, {
      select: { id: true, sealedContent: true },
      where: { sealedContent: Not(IsNull()) },
      order: { id: 'ASC' },
    });
  }

  async replaceSealed(em: EntityManager, id: string, sealedContent: string): Promise<void> {
    await em.update(SmsMessageEntity, { id }, { sealedContent });
  }

  /** The message a delivery report names, its row locked until the transaction ends (MySQL). */
  async lockByReportKey(em: EntityManager, reportKey: string): Promise<SmsMessageEntity | null> {
    const query = em
      .createQueryBuilder(SmsMessageEntity, 'sms')
      .where('sms.reportKey = :reportKey', { reportKey })
      .limit(1);
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write');
    return (await query.getOne()) ?? null;
  }

  /**
   * Deletes sent and failed messages last tried before `before`, through the due index (a settled
   * message's next_attempt_at is its last claim's lease); returns how many.
   */
  async deleteSettledBefore(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(SmsMessageEntity, {
      status: In(['sent', 'failed']),
      nextAttemptAt: LessThan(before),
    });
    return result.affected ?? 0;
  }

  async updateDelivery(em: EntityManager, id: string, changes: Partial<SmsMessageEntity>): Promise<void> {
    await em.update(SmsMessageEntity, { id }, changes);
  }
}
