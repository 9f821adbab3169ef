import { Column, Entity, Index } from 'typeorm';
import type { Permission } from '../../auth/permissions.js';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

export const OPERATOR_STATUSES = ['active', 'disabled'] as const;
export type OperatorStatus = (typeof OPERATOR_STATUSES)[number];

/**
 * A person who signs in to the console: permissions and venues with a token's meaning, plus the
 * `admin` capability (settings: API tokens, NAS registry, operators, everyone's audit trail).
 */
@Entity('operators')
export class OperatorEntity {
  @IdColumn()
  id!: string;

  /** As given (trimmed). */
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  /** The email lower-cased: unique, so two spellings of one address are one operator. */
  @Index('uq_operators_email_key', { unique: true })
  @Column({ name: 'email_key', type: 'varchar', length: 254 })
  emailKey!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** argon2id. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  /** Set for a one-time password (created or reset by the CLI): the first sign-in must change it. */
  @Column({ name: 'must_change_password', type: 'boolean', default: false })
  mustChangePassword!: boolean;

  /** When the one-time password stops working (OPERATOR_ONE_TIME_PASSWORD_HOURS after it was made); null once changed. */
  @DateTimeColumn('one_time_password_expires_at', { nullable: true })
  oneTimePasswordExpiresAt!: Date | null;

  @Column({ type: 'simple-json' })
  permissions!: Permission[];

  @Column({ type: 'boolean', default: false })
  admin!: boolean;

  /** null: every venue. */
  @Column({ name: 'venue_ids', type: 'simple-json', nullable: true })
  venueIds!: string[] | null;

  @Column({ type: 'varchar', length: 16 })
  status!: OperatorStatus;

  /**
   * Moves on at every change of the operator's password, rights, venues or status: a console
   * session made under an older value is over, on every instance, at its next request.
   */
  @Column({ name: 'rights_version', type: 'int', default: 1 })
  rightsVersion!: number;

  /** The TOTP seed (RFC 6238), sealed like a NAS secret; null until enrolled. */
  @Column({ name: 'totp_secret', type: 'varchar', length: 512, nullable: true })
  totpSecret!: string | null;

  @DateTimeColumn('totp_enrolled_at', { nullable: true })
  totpEnrolledAt!: Date | null;

  /** The last TOTP time step accepted: a code is accepted once. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep!: string | null;

  /** An IANA time zone the console shows dates in for this operator (My account); null: UTC. */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true })
  timeZone!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;

  @DateTimeColumn('last_sign_in_at', { nullable: true })
  lastSignInAt!: Date | null;
}
