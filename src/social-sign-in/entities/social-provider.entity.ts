import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

/**
 * An OpenID provider an operator registered: found by discovery at its issuer, signed in to as the
 * client `client_id`. The client secret is sealed under SECRETS_KEY (secret-box, the id as associated
 * data). The venues that offer it are rows of social_provider_venues.
 */
@Entity('social_providers')
@Index('uq_social_providers_name', ['name'], { unique: true })
export class SocialProviderEntity {
  @IdColumn()
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100 })
  displayName!: string;

  @Column({ type: 'varchar', length: 255 })
  issuer!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  @Column({ name: 'stored_client_secret', type: 'text' })
  storedClientSecret!: string;

  /** Space-separated, `openid` first. */
  @Column({ type: 'varchar', length: 255 })
  scopes!: string;

  @DateTimeColumn('created_at')
  createdAt!: Date;
}
