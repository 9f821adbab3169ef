import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn, ID_LENGTH } from '../../database/columns.js';

/**
 * A guest accepted a venue's terms: which version, when, from which device and address, as which user.
 * Kept when the user is deleted (no foreign key): it is the venue's evidence.
 */
@Entity('terms_acceptances')
@Index('idx_terms_acceptances_venue', ['venueId', 'acceptedAt'])
@Index('idx_terms_acceptances_user', ['userId'])
export class TermsAcceptanceEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @Column({ name: 'terms_version', type: 'varchar', length: 64 })
  termsVersion!: string;

  @Column({ name: 'mac_address', type: 'varchar', length: 17, nullable: true })
  macAddress!: string | null;

  @Column({ name: 'ip_address', type: 'varchar', length: 45, nullable: true })
  ipAddress!: string | null;

  @DateTimeColumn('accepted_at')
  acceptedAt!: Date;
}
