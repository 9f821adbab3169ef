import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, ReferenceColumn } from '../../database/columns.js';

export const DEVICE_STATUSES = ['active', 'expired'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

@Entity('devices')
@Index('uq_devices_user_mac', ['userId', 'macAddress'], { unique: true })
export class DeviceEntity {
  @IdColumn()
  id!: string;

  @ReferenceColumn('user_id')
  userId!: string;

  @Index('idx_devices_mac_address')
  @Column({ name: 'mac_address', type: 'varchar', length: 17 })
  macAddress!: string;

  /**
   * The MAC read backwards (reversedMac), for the users list's search by a MAC's end; written by the
   * repository with the device, never read into one (hence optional, and not selected).
   */
  @Index('idx_devices_mac_reversed')
  @Column({ name: 'mac_reversed', type: 'varchar', length: 17, nullable: true, select: false })
  macReversed?: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: DeviceStatus;

  @DateTimeColumn('first_seen_at')
  firstSeenAt!: Date;

  @DateTimeColumn('last_seen_at')
  lastSeenAt!: Date;

  /**
   * The foreign key to the user. The target is named by string, since sessions/ sits below
   * hotspot-users/; the property exists for the mapping alone and is never loaded.
   */
  @ManyToOne('HotspotUserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_devices_user' })
  user?: object;
}
