import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ID_LENGTH } from '../../database/columns.js';
import { SocialProviderEntity } from './social-provider.entity.js';

/** A venue whose portal offers a provider; `position` keeps the order the operator gave. */
@Entity('social_provider_venues')
@Index('idx_social_provider_venues_venue', ['venueId', 'providerId'])
export class SocialProviderVenueEntity {
  @PrimaryColumn({ name: 'provider_id', type: 'varchar', length: ID_LENGTH })
  providerId!: string;

  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ type: 'int' })
  position!: number;

  @ManyToOne(() => SocialProviderEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'provider_id', foreignKeyConstraintName: 'fk_social_provider_venues_provider' })
  provider?: Relation<SocialProviderEntity>;
}
