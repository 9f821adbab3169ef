import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { DateTimeColumn, IdColumn, ReferenceColumn } from '../../database/columns.js';
import { HotspotUserEntity } from '../../hotspot-users/entities/hotspot-user.entity.js';

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

  @Column({ type: 'varchar', length: 255, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: DeviceStatus;

  @DateTimeColumn('first_seen_at')
  firstSeenAt!: Date;

  @DateTimeColumn('last_seen_at')
  lastSeenAt!: Date;

  @ManyToOne(() => HotspotUserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_devices_user' })
  user?: Relation<HotspotUserEntity>;
}
