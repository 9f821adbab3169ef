import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { dateTimeParameter } from '../database/columns.js';
import { changedRows } from '../database/plain-sql.js';
import { reversedMac } from '../common/search/search-folds.js';
import { DeviceEntity } from './entities/device.entity.js';

/** The SQL of devices; every method runs on the caller's EntityManager (its transaction, if any). */
@Injectable()
export class DevicesRepository {
  findOne(em: EntityManager, userId: string, macAddress: string): Promise<DeviceEntity | null> {
    return em.findOneBy(DeviceEntity, { userId, macAddress });
  }

  /** Devices of several users at once: one query, whatever the number of users. */
  findOfUsers(em: EntityManager, userIds: readonly string[]): Promise<DeviceEntity[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return em.findBy(DeviceEntity, { userId: In([...userIds]) });
  }

  /** The device's row, with its MAC's search key (mac_reversed). */
  async insert(em: EntityManager, device: DeviceEntity): Promise<void> {
    await em.insert(DeviceEntity, withMacKey(device));
  }

  async markActive(em: EntityManager, id: string, lastSeenAt: Date): Promise<void> {
    await em.update(DeviceEntity, { id }, { status: 'active', lastSeenAt });
  }

  async markSeen(em: EntityManager, userId: string, macAddress: string, lastSeenAt: Date): Promise<void> {
    await em.update(DeviceEntity, { userId, macAddress }, { lastSeenAt });
  }

  async expireActiveOfUser(em: EntityManager, userId: string): Promise<void> {
    await em.update(DeviceEntity, { userId, status: 'active' }, { status: 'expired' });
  }

  /**
   * The device a NAS reports a user on: active again and seen at its lastSeenAt when that is later
   * than stored, or created when new. A known device, the common case, takes one statement (plain
   * SQL: it runs for nearly every accounting packet).
   */
  async recordSeen(em: EntityManager, device: DeviceEntity): Promise<void> {
    const { userId, macAddress } = device;
    const seenAt = dateTimeParameter(device.lastSeenAt);
    const seen = await changedRows(
      em,
      'UPDATE devices SET status = ?, last_seen_at = ? WHERE user_id = ? AND mac_address = ? AND last_seen_at < ?',
      [device.status, seenAt, userId, macAddress, seenAt],
    );
    if (seen > 0) return;
    if ((await this.findOne(em, userId, macAddress)) === null) await em.insert(DeviceEntity, withMacKey(device));
  }
}

function withMacKey(device: DeviceEntity): DeviceEntity {
  return { ...device, macReversed: reversedMac(device.macAddress) };
}
