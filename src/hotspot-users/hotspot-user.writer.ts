import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessRecordCapture } from '../access-records/access-record-capture.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { DatabaseService } from '../database/database.service.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { clashErrors, conflictErrors, KeyConflict, keysOf, venueRowChanges } from './hotspot-user.rules.js';
import { HotspotUsersRepository, type UserRecord } from './hotspot-users.repository.js';
import { nameWordChanges, nameWordRowsOf, searchKeysOf } from './user-search.rules.js';
import { VenueCountsRepository } from './venue-counts.repository.js';
import { countDeltas, type CountedUser } from './venue-counts.rules.js';

/**
 * Writes a user's row and its venue rows inside a use case's transaction. The venue rows carry the
 * user's status, creation time and per-venue uniqueness keys, which unique indexes enforce: a write
 * is checked for clashes first (409 naming each), and the indexes catch what a concurrent request
 * slipped in since (see answeringConflicts).
 */
@Injectable()
export class HotspotUserWriter {
  constructor(
    private readonly database: DatabaseService,
    private readonly users: HotspotUsersRepository,
    private readonly counts: VenueCountsRepository,
    private readonly records: AccessRecordCapture,
  ) {}

  insert(em: EntityManager, user: HotspotUserEntity, venueIds: readonly string[]): Promise<void> {
    return this.guarded(em, user, venueIds, async () => {
      await this.users.insert(em, user);
      await this.writeVenueRows(em, user, null, venueIds);
      await this.counts.recordChanges(em, countDeltas(null, { ...user, venueIds }));
    });
  }

  /** `changes` are the user's columns to write; `stored` the user and venue rows as they are. */
  update(
    em: EntityManager,
    user: HotspotUserEntity,
    changes: Partial<HotspotUserEntity>,
    stored: UserRecord,
    venueIds: readonly string[],
  ): Promise<void> {
    return this.guarded(em, user, venueIds, async () => {
      await this.users.update(em, user.id, changes);
      await this.writeVenueRows(em, user, stored, venueIds);
      await this.counts.recordChanges(em, countDeltas(counted(stored), { ...user, venueIds }));
    });
  }

  /** The move into expired: expired users hold no keys, so nothing can clash. */
  async updateExpired(em: EntityManager, user: HotspotUserEntity, stored: UserRecord): Promise<void> {
    await this.users.update(em, user.id, { status: user.status, updatedAt: user.updatedAt, version: user.version });
    await this.writeVenueRows(em, user, stored, stored.venueIds);
    await this.counts.recordChanges(em, countDeltas(counted(stored), { ...user, venueIds: stored.venueIds }));
  }

  /**
   * Venue rows, devices and sessions go with the user (ON DELETE CASCADE); its venues count one user
   * less. Its sessions' records for the regulator are captured first: they outlive it.
   */
  async delete(em: EntityManager, stored: UserRecord): Promise<void> {
    await this.records.captureUser(em, stored.user.id);
    await this.users.delete(em, stored.user.id);
    await this.counts.recordChanges(em, countDeltas(counted(stored), null));
  }

  /**
   * Runs a transaction that writes users; a KeyConflict it ends with becomes a 409 naming the clash,
   * looked up after the rollback so that it sees the row that won.
   */
  async answeringConflicts<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof KeyConflict)) throw error;
      const holders = await this.database.run((em) =>
        this.users.findKeyHolders(em, error.userId, error.venueIds, error.keys),
      );
      throw ApiError.conflict(conflictErrors(error, holders));
    }
  }

  private async guarded(
    em: EntityManager,
    user: HotspotUserEntity,
    venueIds: readonly string[],
    write: () => Promise<void>,
  ): Promise<void> {
    const keys = keysOf(user);
    const clashes = clashErrors(venueIds, keys, await this.users.findKeyHolders(em, user.id, venueIds, keys));
    if (clashes.length > 0) throw ApiError.conflict(clashes);
    try {
      await write();
    } catch (error) {
      throw isUniqueViolation(error) ? new KeyConflict(user.id, venueIds, keys, error) : error;
    }
  }

  /**
   * From the `stored` venue rows (null: a new user) to `venueIds`; removed rows go first, so the keys
   * they held are free. The name's words follow (they copy the status and the venues too): only the
   * rows that change are deleted and written, each by its primary key.
   */
  private async writeVenueRows(
    em: EntityManager,
    user: HotspotUserEntity,
    stored: UserRecord | null,
    venueIds: readonly string[],
  ): Promise<void> {
    const { removed, kept, added } = venueRowChanges(stored?.venueIds ?? [], venueIds);
    const fields = (position: number) => ({
      position,
      userStatus: user.status,
      inBatch: user.batchId !== null,
      ...keysOf(user),
      ...searchKeysOf(user),
    });
    await this.users.deleteVenueRows(em, user.id, removed);
    for (const { venueId, position } of kept) await this.users.updateVenueRow(em, user.id, venueId, fields(position));
    await this.users.insertVenueRows(
      em,
      added.map(({ venueId, position }) => ({
        userId: user.id,
        venueId,
        userCreatedAt: user.createdAt,
        ...fields(position),
      })),
    );
    const words = nameWordChanges(
      stored === null ? [] : nameWordRowsOf(stored.user, stored.venueIds),
      nameWordRowsOf(user, venueIds),
    );
    await this.users.deleteNameWords(em, words.removed);
    await this.users.insertNameWords(em, words.added);
  }
}

function counted({ user, venueIds }: UserRecord): CountedUser {
  return { status: user.status, createdAt: user.createdAt, venueIds };
}
