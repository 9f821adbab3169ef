import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

export const LOGIN_OUTCOMES = ['accept', 'reject', 'unknown'] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/**
 * One RADIUS authentication as FreeRADIUS reports it in post-auth. No foreign keys: an attempt
 * outlives its user and NAS. The stale-session sweep deletes attempts older than the retention.
 */
@Entity('login_attempts')
export class LoginAttemptEntity {
  @IdColumn()
  id!: string;

  @Index('idx_login_attempts_created_at')
  @DateTimeColumn('created_at')
  createdAt!: Date;

  @Column({ type: 'varchar', length: 16 })
  outcome!: LoginOutcome;

  @Column({ name: 'nas_client_id', type: 'varchar', length: 36, nullable: true })
  nasClientId!: string | null;

  @Column({ name: 'venue_id', type: 'varchar', length: 64, nullable: true })
  venueId!: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 36, nullable: true })
  userId!: string | null;

  @Column({ type: 'varchar', length: 253, nullable: true })
  username!: string | null;

  @Column({ name: 'mac_address', type: 'varchar', length: 17, nullable: true })
  macAddress!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  reason!: string | null;
}
