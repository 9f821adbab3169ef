import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

export const LOGIN_OUTCOMES = ['accept', 'reject', 'unknown'] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/**
 * One RADIUS authentication as FreeRADIUS reports it in post-auth. No foreign keys: an attempt
 * outlives its user and NAS. The stale-session sweep deletes attempts older than the retention.
 * `hotspot logins` lists them newest first, by venue, user, username or MAC (one index each); the
 * console finds them by the start of the username, case and accents ignored (`searchUsername`).
 */
@Entity('login_attempts')
@Index('idx_login_attempts_venue', ['venueId', 'createdAt'])
@Index('idx_login_attempts_user', ['userId', 'createdAt'])
@Index('idx_login_attempts_username', ['username', 'createdAt'])
@Index('idx_login_attempts_search_username', ['searchUsername', 'createdAt'])
@Index('idx_login_attempts_mac', ['macAddress', 'createdAt'])
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

  /** The username folded as the searches fold text (foldedText), cut to the column; null without a username. */
  @Column({ name: 'search_username', type: 'varchar', length: 253, nullable: true })
  searchUsername!: string | null;

  @Column({ name: 'mac_address', type: 'varchar', length: 17, nullable: true })
  macAddress!: string | null;

  /** Why a reject was refused: the RejectReason key authorize decided (radius.rules.ts); null for an accept. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reason!: string | null;
}
