import { Column, Entity, Index } from 'typeorm';
import type { AuditActorType } from '../../audit/audit.rules.js';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

/**
 * A batch of generated accounts (vouchers) for one venue. Its passwords stay retrievable, sealed
 * under SECRETS_KEY with the batch id as associated data, in hotspot_user_batch_passwords until the
 * reveal window closes (the first print or export plus 24 hours); then they are erased.
 */
@Entity('hotspot_user_batches')
@Index('idx_user_batches_venue', ['venueId', 'createdAt', 'id'])
@Index('idx_user_batches_revealed', ['firstRevealedAt'])
@Index('idx_user_batches_plan_id', ['planId'])
export class UserBatchEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  label!: string | null;

  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  @Column({ type: 'int' })
  count!: number;

  @Column({ name: 'password_length', type: 'int' })
  passwordLength!: number;

  @DateTimeColumn('expires_at', { nullable: true })
  expiresAt!: Date | null;

  /** Seconds from each account's first login. */
  @Column({ name: 'valid_for', type: 'int', nullable: true })
  validFor!: number | null;

  /** The service plan each of its accounts is on (src/plans); null: none of their own. */
  @Column({ name: 'plan_id', type: 'varchar', length: 36, nullable: true })
  planId!: string | null;

  @Column({ name: 'created_by_type', type: 'varchar', length: 16 })
  createdByType!: AuditActorType;

  @Column({ name: 'created_by_id', type: 'varchar', length: 64, nullable: true })
  createdById!: string | null;

  @Column({ name: 'created_by_name', type: 'varchar', length: 254, nullable: true })
  createdByName!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  /** The first print, export or API reveal: the passwords can be shown until 24 hours after it. */
  @DateTimeColumn('first_revealed_at', { nullable: true })
  firstRevealedAt!: Date | null;

  /** When the passwords were erased (the window closed); null while they are kept. */
  @DateTimeColumn('passwords_erased_at', { nullable: true })
  passwordsErasedAt!: Date | null;
}
