import { Injectable } from '@nestjs/common';
import { IsNull, LessThan, MoreThan, type EntityManager } from 'typeorm';
import { dateTimeParameter, ID_LENGTH } from '../database/columns.js';
import { DatabaseService } from '../database/database.service.js';
import { changedRows, isSqlite } from '../database/plain-sql.js';
import { PhoneChallengeEntity } from './entities/phone-challenge.entity.js';
import { PhoneCodeCounterEntity } from './entities/phone-code-counter.entity.js';
import { CODE_TRIES, type SendCounter } from './phone-verification.rules.js';

/** Every query on phone_challenges and phone_code_counters, one method each. */
@Injectable()
export class PhoneVerificationRepository {
  constructor(private readonly database: DatabaseService) {}

  async insertChallenge(em: EntityManager, challenge: PhoneChallengeEntity): Promise<void> {
    await em.insert(PhoneChallengeEntity, challenge);
  }

  findChallenge(em: EntityManager, id: string): Promise<PhoneChallengeEntity | null> {
    // Ids are opaque: anything that cannot be one is simply not found.
    if (id.length === 0 || id.length > ID_LENGTH) return Promise.resolve(null);
    return em.findOneBy(PhoneChallengeEntity, { id });
  }

  /** The challenge, its row locked until the transaction ends (MySQL; SQLite runs one at a time). */
  async lockChallenge(em: EntityManager, id: string): Promise<PhoneChallengeEntity | null> {
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const query = em.createQueryBuilder(PhoneChallengeEntity, 'c').where('c.id = :id', { id }).limit(1);
    if (this.database.supportsRowLocks) query.setLock('pessimistic_write');
    return (await query.getOne()) ?? null;
  }

  /** When the last code went to `phone` at `venueId`, if one did after `since`. */
  async lastSentSince(em: EntityManager, venueId: string, phone: string, since: Date): Promise<Date | null> {
    const latest = await em.findOne(PhoneChallengeEntity, {
      select: { id: true, lastSentAt: true },
      where: { venueId, phone, lastSentAt: MoreThan(since) },
      order: { lastSentAt: 'DESC' },
    });
    return latest?.lastSentAt ?? null;
  }

  async replaceCode(
    em: EntityManager,
    id: string,
    code: Pick<PhoneChallengeEntity, 'codeHash' | 'sends' | 'expiresAt' | 'lastSentAt' | 'smsId'>,
  ): Promise<void> {
    await em.update(PhoneChallengeEntity, { id }, { ...code, attempts: 0 });
  }

  /** Uses one try of an open code (not verified, not locked, not expired); false when none is left. */
  async takeTry(em: EntityManager, id: string, codeHash: string, now: Date): Promise<boolean> {
    const result = await em.update(
      PhoneChallengeEntity,
      { id, codeHash, verifiedAt: IsNull(), attempts: LessThan(CODE_TRIES), expiresAt: MoreThan(now) },
      { attempts: () => 'attempts + 1' },
    );
    return result.affected === 1;
  }

  /** Marks the code verified, unless it was verified or replaced meanwhile. */
  async markVerified(em: EntityManager, id: string, codeHash: string, now: Date): Promise<boolean> {
    const result = await em.update(PhoneChallengeEntity, { id, codeHash, verifiedAt: IsNull() }, { verifiedAt: now });
    return result.affected === 1;
  }

  /**
   * Adds one send to the counter if it stays within its limit; false when the limit is reached. The
   * counter's row is made on the first send of its window (a concurrent first send finds it there
   * and counts again), and locked by the UPDATE until the transaction ends.
   */
  async countSend(em: EntityManager, counter: SendCounter): Promise<boolean> {
    const key = [counter.scope, counter.subject, dateTimeParameter(counter.windowStart)];
    const add = () =>
      changedRows(
        em,
        'UPDATE phone_code_counters SET sends = sends + 1 WHERE scope = ? AND subject = ? AND window_start = ? AND sends < ?',
        [...key, counter.limit],
      );
    if ((await add()) === 1) return true;
    const insert = isSqlite(em.connection) ? 'INSERT OR IGNORE' : 'INSERT IGNORE';
    const made = await changedRows(
      em,
      `${insert} INTO phone_code_counters (scope, subject, window_start, window_end, sends) VALUES (?, ?, ?, ?, 1)`,
      [...key, dateTimeParameter(counter.windowEnd)],
    );
    return made === 1 || (await add()) === 1;
  }

  /** Challenges that expired before `before` (verified ones too: the hand-over is long done). */
  async deleteChallengesBefore(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(PhoneChallengeEntity, { expiresAt: LessThan(before) });
    return result.affected ?? 0;
  }

  async deleteCountersBefore(em: EntityManager, before: Date): Promise<number> {
    const result = await em.delete(PhoneCodeCounterEntity, { windowEnd: LessThan(before) });
    return result.affected ?? 0;
  }
}
