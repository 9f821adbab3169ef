import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';
import type { Permission } from '../permissions.js';

@Entity('api_tokens')
export class ApiTokenEntity {
  @IdColumn()
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /**
   * What listings show to tell the token apart (see visiblePrefix): its public prefix and the first
   * 6 characters of its secret part (`hsp_AbC12x`); `hsp_` alone for tokens stored before.
   */
  @Column({ type: 'varchar', length: 16 })
  prefix!: string;

  /** Hex SHA-256 of the whole token value; the value itself is never stored. */
  @Index('uq_api_tokens_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ type: 'simple-json' })
  permissions!: Permission[];

  /** null: the token may act on every venue. */
  @Column({ name: 'venue_ids', type: 'simple-json', nullable: true })
  venueIds!: string[] | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('last_used_at', { nullable: true })
  lastUsedAt!: Date | null;

  @DateTimeColumn('revoked_at', { nullable: true })
  revokedAt!: Date | null;

  @DateTimeColumn('expires_at', { nullable: true })
  expiresAt!: Date | null;
}
