import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DateTimeColumn, ReferenceColumn } from '../../database/columns.js';
import { SocialProviderEntity } from './social-provider.entity.js';

/**
 * A sign-in under way: the guest left for the provider and has not come back. Keyed by the SHA-256 of
 * the `state` the provider hands back (the state itself is only in the guest's browser), bound to the
 * browser by the SHA-256 of a cookie's value. The nonce and the PKCE verifier never leave the server.
 * Taken (deleted) by the callback, so a state works once; expired rows are swept.
 */
@Entity('social_sign_in_states')
@Index('idx_social_sign_in_states_expires', ['expiresAt'])
export class SocialSignInStateEntity {
  @PrimaryColumn({ name: 'state_hash', type: 'varchar', length: 64 })
  stateHash!: string;

  @Column({ name: 'binding_hash', type: 'varchar', length: 64 })
  bindingHash!: string;

  @ReferenceColumn('provider_id')
  providerId!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** The version of the venue's terms the guest accepted before leaving; null: the venue has none. */
  @Column({ name: 'terms_version', type: 'varchar', length: 64, nullable: true })
  termsVersion!: string | null;

  @Column({ type: 'varchar', length: 64 })
  nonce!: string;

  @Column({ name: 'code_verifier', type: 'varchar', length: 128 })
  codeVerifier!: string;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('expires_at')
  expiresAt!: Date;

  @ManyToOne(() => SocialProviderEntity, { onDelete: 'CASCADE', createForeignKeyConstraints: true })
  @JoinColumn({ name: 'provider_id', foreignKeyConstraintName: 'fk_social_sign_in_states_provider' })
  provider?: Relation<SocialProviderEntity>;
}
