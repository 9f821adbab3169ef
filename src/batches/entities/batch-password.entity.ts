import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ID_LENGTH } from '../../database/columns.js';
import { HotspotUserEntity } from '../../hotspot-users/entities/hotspot-user.entity.js';

/**
 * The password of one account of a batch, sealed (AES-256-GCM under SECRETS_KEY, the batch id as
 * associated data), kept only until the batch's reveal window closes. Goes with its user.
 */
@Entity('hotspot_user_batch_passwords')
@Index('idx_batch_passwords_batch', ['batchId'])
export class BatchPasswordEntity {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @Column({ name: 'batch_id', type: 'varchar', length: ID_LENGTH })
  batchId!: string;

  @Column({ name: 'sealed_password', type: 'varchar', length: 255 })
  sealedPassword!: string;

  @ManyToOne(() => HotspotUserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_batch_passwords_user' })
  user?: Relation<HotspotUserEntity>;
}
