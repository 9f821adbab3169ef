import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, ID_LENGTH } from '../../database/columns.js';

/**
 * A phone number being verified at a venue: the current code (its argon2id hash), its expiry and the
 * tries used. Its id lives in the guest's portal session, never in a URL.
 */
@Entity('phone_challenges')
@Index('idx_phone_challenges_phone', ['venueId', 'phone', 'lastSentAt'])
export class PhoneChallengeEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** E.164. */
  @Column({ type: 'varchar', length: 16 })
  phone!: string;

  /** `mac:…` or `ip:…`: the device that asked; null when the gateway named neither. */
  @Column({ name: 'device_key', type: 'varchar', length: 64, nullable: true })
  deviceKey!: string | null;

  @Column({ name: 'code_hash', type: 'varchar', length: 255 })
  codeHash!: string;

  /** Tries of the current code (a new code starts again at 0). */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** Codes sent for this challenge. */
  @Column({ type: 'int', default: 1 })
  sends!: number;

  @Index('idx_phone_challenges_expires')
  @DateTimeColumn('expires_at')
  expiresAt!: Date;

  @DateTimeColumn('last_sent_at')
  lastSentAt!: Date;

  @DateTimeColumn('verified_at', { nullable: true })
  verifiedAt!: Date | null;

  /** The outbox message of the last code (sms_messages.id; no foreign key: the outbox is swept apart). */
  @Column({ name: 'sms_id', type: 'varchar', length: ID_LENGTH })
  smsId!: string;

  @DateTimeColumn('created_at')
  createdAt!: Date;
}
