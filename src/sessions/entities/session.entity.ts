import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, ReferenceColumn } from '../../database/columns.js';

/** `stopped`: ended by the network side; `expired`: ended by this service (block, expire, delete). */
export const SESSION_STATUSES = ['active', 'stopped', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

@Entity('sessions')
@Index('idx_sessions_user_status', ['userId', 'status'])
export class SessionEntity {
  @IdColumn()
  id!: string;

  @ReferenceColumn('user_id')
  userId!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ name: 'mac_address', type: 'varchar', length: 17 })
  macAddress!: string;

  @Column({ name: 'ip_address', type: 'varchar', length: 45, nullable: true })
  ipAddress!: string | null;

  @Column({ name: 'nas_id', type: 'varchar', length: 128, nullable: true })
  nasId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: SessionStatus;

  @DateTimeColumn('started_at')
  startedAt!: Date;

  @DateTimeColumn('ended_at', { nullable: true })
  endedAt!: Date | null;

  /**
   * The foreign key to the user. The target is named by string, since sessions/ sits below
   * hotspot-users/; the property exists for the mapping alone and is never loaded.
   */
  @ManyToOne('HotspotUserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_sessions_user' })
  user?: object;
}
