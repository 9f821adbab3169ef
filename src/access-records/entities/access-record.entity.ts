import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, ReferenceColumn } from '../../database/columns.js';

/** How a record names who was online: the verified phone, the social account, the username or the device. */
export const IDENTITY_KINDS = ['phone', 'social', 'username', 'mac'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/**
 * Who had which address when: one RADIUS session of a user at a venue, with the user's identity as it
 * was when the session was first recorded. No foreign key: a record outlives its user and session.
 */
@Entity('access_records')
@Index('uq_access_records_session', ['sessionId'], { unique: true })
@Index('idx_access_records_venue_started', ['venueId', 'startedAt'])
@Index('idx_access_records_ended', ['endedAt'])
export class AccessRecordEntity {
  @IdColumn()
  id!: string;

  @ReferenceColumn('session_id')
  sessionId!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** The NAS's name in the registry. */
  @Column({ name: 'nas_id', type: 'varchar', length: 128, nullable: true })
  nasId!: string | null;

  @ReferenceColumn('user_id')
  userId!: string;

  @Column({ name: 'login_method', type: 'varchar', length: 32 })
  loginMethod!: string;

  @Column({ name: 'identity_kind', type: 'varchar', length: 16 })
  identityKind!: IdentityKind;

  /** The OpenID issuer of a social identity; '' for the other kinds. */
  @Column({ name: 'identity_issuer', type: 'varchar', length: 255 })
  identityIssuer!: string;

  /** The E.164 phone, the social subject, the username or the MAC. */
  @Column({ type: 'varchar', length: 255 })
  identity!: string;

  @Column({ name: 'mac_address', type: 'varchar', length: 17 })
  macAddress!: string;

  @Column({ name: 'ip_address', type: 'varchar', length: 45, nullable: true })
  ipAddress!: string | null;

  @DateTimeColumn('started_at')
  startedAt!: Date;

  /** Null while the session goes on (as far as the last capture knew). */
  @DateTimeColumn('ended_at', { nullable: true })
  endedAt!: Date | null;
}
