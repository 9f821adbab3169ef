import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

export const SMS_STATUSES = ['pending', 'processing', 'sent', 'failed'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * What the gateway last reported about a sent message: `smsc` (the operator's SMSC took it),
 * `buffered` (queued on the way), `delivered` (to the phone), `failed` (not delivered). The last two
 * are final.
 */
export const SMS_DELIVERY_STATES = ['smsc', 'buffered', 'delivered', 'failed'] as const;
export type SmsDeliveryState = (typeof SMS_DELIVERY_STATES)[number];

/**
 * The outbox of text messages: a row written in the same transaction as what it tells (a phone
 * code), sent by the sender loop of some instance, its text sealed until sent and erased after.
 */
@Entity('sms_messages')
@Index('idx_sms_messages_due', ['status', 'nextAttemptAt'])
export class SmsMessageEntity {
  @IdColumn()
  id!: string;

  /** E.164: `+` and up to 15 digits. */
  @Column({ type: 'varchar', length: 16 })
  recipient!: string;

  /** The gateway configured when it was written (log, kannel, http). */
  @Column({ type: 'varchar', length: 8 })
  gateway!: string;

  /**
   * The text and the delivery report's reference, sealed with SECRETS_KEY (bound to the id) until
   * the message is sent or given up; null after.
   */
  @Column({ name: 'sealed_content', type: 'text', nullable: true })
  sealedContent!: string | null;

  /** SHA-256 (hex) of the reference the gateway's delivery reports carry. */
  @Index('idx_sms_messages_report_key', { unique: true })
  @Column({ name: 'report_key', type: 'varchar', length: 64 })
  reportKey!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: SmsStatus;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @DateTimeColumn('next_attempt_at')
  nextAttemptAt!: Date;

  /** While a sender holds the message, the time its claim runs out. */
  @DateTimeColumn('lease_expires_at', { nullable: true })
  leaseExpiresAt!: Date | null;

  /** Past this the message is no longer worth sending (a code that has expired). */
  @DateTimeColumn('send_before')
  sendBefore!: Date;

  /** Why the last attempt failed: the gateway's answer or the network's error, never the text. */
  @Column({ name: 'last_error', type: 'varchar', length: 255, nullable: true })
  lastError!: string | null;

  /** The gateway's own id of the message, when its answer gives one. */
  @Column({ name: 'provider_message_id', type: 'varchar', length: 128, nullable: true })
  providerMessageId!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  delivery!: SmsDeliveryState | null;

  @DateTimeColumn('delivery_reported_at', { nullable: true })
  deliveryReportedAt!: Date | null;

  @DateTimeColumn('sent_at', { nullable: true })
  sentAt!: Date | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;
}
