import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, ID_LENGTH } from '../../database/columns.js';

/**
 * A one-time pass of the portal's hand-over: the password the hand-over form posts to the gateway for
 * an sms, social or guest user, which RADIUS authorize accepts until it expires. Only its SHA-256 is
 * kept (it is 120 random bits, so a fast hash is enough).
 */
@Entity('portal_passes')
@Index('idx_portal_passes_user', ['userId', 'expiresAt'])
@Index('idx_portal_passes_expires', ['expiresAt'])
export class PortalPassEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @Index('uq_portal_passes_hash', { unique: true })
  @Column({ name: 'pass_hash', type: 'varchar', length: 64 })
  passHash!: string;

  @DateTimeColumn('expires_at')
  expiresAt!: Date;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @ManyToOne('HotspotUserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_portal_passes_user' })
  user?: object;
}
