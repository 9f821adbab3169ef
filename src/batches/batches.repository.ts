import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThanOrEqual, type EntityManager } from 'typeorm';
import { newId } from '../common/ids.js';
import { ID_LENGTH } from '../database/columns.js';
import { HotspotUserNameWordEntity } from '../hotspot-users/entities/hotspot-user-name-word.entity.js';
import { HotspotUserVenueEntity } from '../hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity, type UserStatus } from '../hotspot-users/entities/hotspot-user.entity.js';
import type { CountDelta } from '../hotspot-users/venue-counts.rules.js';
import { BatchPasswordEntity } from './entities/batch-password.entity.js';
import { UserBatchEntity } from './entities/user-batch.entity.js';

/** Rows per multi-row INSERT: well under SQLite's and MySQL's placeholder limits at ~16 columns. */
const ROWS_PER_INSERT = 250;

/** One account of a batch, as its page and its cards show it. */
export interface BatchAccount {
  id: string;
  username: string | null;
  status: UserStatus;
  expiresAt: Date | null;
}

/** The SQL of batches; every method runs on the caller's EntityManager (its transaction, if any). */
@Injectable()
export class BatchesRepository {
  async insertBatch(em: EntityManager, batch: UserBatchEntity): Promise<void> {
    await em.insert(UserBatchEntity, batch);
  }

  /** The batch, locked for the rest of the transaction on MySQL/MariaDB when `lock`. */
  async findBatch(em: EntityManager, id: string, lock: boolean): Promise<UserBatchEntity | null> {
    // Ids are opaque: anything that cannot be one is simply not found.
    if (id.length === 0 || id.length > ID_LENGTH) return null;
    const query = em.createQueryBuilder(UserBatchEntity, 'batch').where('batch.id = :id', { id });
    if (lock && em.connection.options.type !== 'better-sqlite3') query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** A venue's batches, newest first. */
  async findVenuePage(
    em: EntityManager,
    venueId: string,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; batches: UserBatchEntity[] }> {
    const [batches, total] = await em.findAndCount(UserBatchEntity, {
      where: { venueId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return { total, batches };
  }

  /** Which of these username keys some user already holds, in any venue. */
  async takenUsernameKeys(em: EntityManager, keys: readonly string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (const chunk of chunks(keys, ROWS_PER_INSERT * 2)) {
      const rows = await em
        .createQueryBuilder(HotspotUserVenueEntity, 'uv')
        .select('DISTINCT uv.usernameKey', 'key')
        .where('uv.usernameKey IN (:...keys)', { keys: [...chunk] })
        .getRawMany<{ key: string }>();
      for (const row of rows) taken.add(row.key);
    }
    return taken;
  }

  /** The batch's users, their venue rows and sealed passwords: multi-row statements. */
  async insertAccounts(
    em: EntityManager,
    users: readonly HotspotUserEntity[],
    venueRows: readonly HotspotUserVenueEntity[],
    nameWords: readonly HotspotUserNameWordEntity[],
    passwords: readonly BatchPasswordEntity[],
  ): Promise<void> {
    for (const chunk of chunks(users, ROWS_PER_INSERT)) await em.insert(HotspotUserEntity, [...chunk]);
    for (const chunk of chunks(venueRows, ROWS_PER_INSERT)) await em.insert(HotspotUserVenueEntity, [...chunk]);
    for (const chunk of chunks(nameWords, ROWS_PER_INSERT)) await em.insert(HotspotUserNameWordEntity, [...chunk]);
    for (const chunk of chunks(passwords, ROWS_PER_INSERT)) await em.insert(BatchPasswordEntity, [...chunk]);
  }

  /** The venue counters' changes (folded in by VenueCountsFolder), as the user writer records them. */
  async recordCountChanges(em: EntityManager, deltas: readonly CountDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    await em.query(
      `INSERT INTO venue_user_count_changes (id, venue_id, user_status, bucket, delta) VALUES ${deltas.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      deltas.flatMap(({ venueId, status, bucket, delta }) => [newId(), venueId, status, bucket, delta]),
    );
  }

  /** The batch's accounts that still exist, by username. */
  async findAccounts(em: EntityManager, batchId: string): Promise<BatchAccount[]> {
    const users = await em.find(HotspotUserEntity, {
      select: { id: true, username: true, status: true, expiresAt: true },
      where: { batchId },
    });
    return users
      .map(({ id, username, status, expiresAt }) => ({ id, username, status, expiresAt }))
      .sort((a, b) => ((a.username ?? '') < (b.username ?? '') ? -1 : 1));
  }

  async findPasswords(em: EntityManager, batchId: string): Promise<BatchPasswordEntity[]> {
    return em.find(BatchPasswordEntity, { where: { batchId } });
  }

  /** Every sealed password still kept, locked for the caller's transaction (MySQL). */
  listSealedPasswordsForUpdate(em: EntityManager, rowLocks: boolean): Promise<BatchPasswordEntity[]> {
    const query = em.createQueryBuilder(BatchPasswordEntity, 'p');
    if (rowLocks) query.setLock('pessimistic_write');
    return query.getMany();
  }

  async replaceSealedPassword(em: EntityManager, userId: string, sealedPassword: string): Promise<void> {
    await em.update(BatchPasswordEntity, { userId }, { sealedPassword });
  }

  async setFirstRevealed(em: EntityManager, batchId: string, at: Date): Promise<void> {
    await em.update(UserBatchEntity, { id: batchId, firstRevealedAt: IsNull() }, { firstRevealedAt: at });
  }

  /** Deletes the batch's sealed passwords and marks them erased. */
  async erasePasswords(em: EntityManager, batchId: string, at: Date): Promise<void> {
    await em.delete(BatchPasswordEntity, { batchId });
    await em.update(UserBatchEntity, { id: batchId }, { passwordsErasedAt: at });
  }

  /** Up to `limit` batches first revealed at or before `cutoff` whose passwords are still kept. */
  async findDueForErasure(em: EntityManager, cutoff: Date, limit: number): Promise<string[]> {
    const batches = await em.find(UserBatchEntity, {
      select: { id: true },
      where: { firstRevealedAt: LessThanOrEqual(cutoff), passwordsErasedAt: IsNull() },
      order: { firstRevealedAt: 'ASC' },
      take: limit,
    });
    return batches.map(({ id }) => id);
  }

  /** The labels of these batches (for pages that show a user's batch). */
  async findLabels(em: EntityManager, ids: readonly string[]): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map();
    const batches = await em.find(UserBatchEntity, { select: { id: true, label: true }, where: { id: In([...ids]) } });
    return new Map(batches.map(({ id, label }) => [id, label]));
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
