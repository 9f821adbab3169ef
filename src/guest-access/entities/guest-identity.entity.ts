import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DateTimeColumn, IdColumn, ID_LENGTH } from '../../database/columns.js';

export const IDENTITY_KINDS = ['phone', 'social', 'device'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/**
 * Who a portal user is to its venue: a verified phone (E.164), a social sign-in (issuer and `sub`) or
 * a device (its MAC, for terms only). One row per venue and identity (the unique key): two admissions
 * of the same identity at once make one user.
 */
@Entity('guest_identities')
@Index('uq_guest_identities_key', ['venueId', 'kind', 'issuer', 'subject'], { unique: true })
@Index('idx_guest_identities_user', ['userId'])
export class GuestIdentityEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: IdentityKind;

  /** The OpenID issuer of a social identity; '' for the others. */
  @Column({ type: 'varchar', length: 255 })
  issuer!: string;

  /** The E.164 phone, the OpenID `sub`, or the MAC (AA:BB:CC:DD:EE:FF). */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The social e-mail address, only when the venue keeps it. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('last_used_at')
  lastUsedAt!: Date;

  /** Named by string: the entity is for the mapping alone (guest-access sits above hotspot-users). */
  @ManyToOne('HotspotUserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_guest_identities_user' })
  user?: object;
}
