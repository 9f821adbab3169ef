import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

export const LOGIN_METHODS = ['username_password', 'guest', 'social', 'sms'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/**
 * Free-form JSON, checked on input (IsMetadata). Its values are typed loosely on purpose: a recursive
 * JSON type sends TypeORM's insert/update typings into infinite instantiation.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonObject = { [key: string]: any };

export const USER_STATUSES = ['active', 'blocked', 'expired'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

@Entity('hotspot_users')
@Index('idx_hotspot_users_status_expires_at', ['status', 'expiresAt'])
export class HotspotUserEntity {
  @IdColumn()
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  username!: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  phone!: string | null;

  /** Where the guest stays (a hotel's "1204", "A-12"): trimmed text of at most 32 characters; null when unset. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  room!: string | null;

  /** Normalised to upper case with colons. */
  @Index('idx_hotspot_users_mac_address')
  @Column({ name: 'mac_address', type: 'varchar', length: 17, nullable: true })
  macAddress!: string | null;

  /**
   * The MAC read backwards (reversedMac), for the list's search by a MAC's end; written by the
   * repository with the MAC, never read into a user (hence optional, and not selected).
   */
  @Index('idx_hotspot_users_mac_reversed')
  @Column({ name: 'mac_reversed', type: 'varchar', length: 17, nullable: true, select: false })
  macReversed?: string | null;

  @Column({ name: 'login_method', type: 'varchar', length: 32 })
  loginMethod!: LoginMethod;

  @Column({ type: 'varchar', length: 16 })
  status!: UserStatus;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  @DateTimeColumn('expires_at', { nullable: true })
  expiresAt!: Date | null;

  /**
   * Seconds of validity counted from the first accepted RADIUS login (a voucher's "24 hours from the
   * first login"); null: none. The first login sets expiresAt to then plus this (or keeps an earlier one).
   */
  @Column({ name: 'valid_for', type: 'int', nullable: true })
  validFor!: number | null;

  /** The first accepted RADIUS login of a user with validFor; null until then (and for other users). */
  @DateTimeColumn('first_login_at', { nullable: true })
  firstLoginAt!: Date | null;

  @Column({ type: 'simple-json' })
  metadata!: JsonObject;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;

  /** The batch that generated this account (src/batches); null for the others. */
  @Index('idx_hotspot_users_batch_id')
  @Column({ name: 'batch_id', type: 'varchar', length: 36, nullable: true })
  batchId!: string | null;

  /** The user's service plan (src/plans); null: the default plan of the venue the login comes through, if any. */
  @Index('idx_hotspot_users_plan_id')
  @Column({ name: 'plan_id', type: 'varchar', length: 36, nullable: true })
  planId!: string | null;

  /** 1 at creation, one more at every change of this row (not of its devices): the user's ETag. */
  @Column({ type: 'int', default: 1 })
  version!: number;
}
