import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/columns.js';

/** A venue's captive portal (/portal/:venueId): the ways in it offers, its look, texts and what a portal user gets. */
@Entity('venue_portals')
export class VenuePortalEntity {
  /** The venue id as the v1 API and the NAS registry spell it. */
  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** The ways in offered, comma-separated in the order shown (voucher, sms, terms, social); '' offers none. */
  @Column({ type: 'varchar', length: 64 })
  ways!: string;

  /** The name the portal shows; null: the venue registry's display name, else the venue id. */
  @Column({ name: 'display_name', type: 'varchar', length: 100, nullable: true })
  displayName!: string | null;

  /** An https URL of the venue's logo (the gateway must let guests reach its host before they sign in). */
  @Column({ name: 'logo_url', type: 'varchar', length: 2048, nullable: true })
  logoUrl!: string | null;

  /** `#rrggbb` colours of buttons and links, the page's background and its text; null: the portal's own. */
  @Column({ name: 'colour_accent', type: 'varchar', length: 7, nullable: true })
  colourAccent!: string | null;

  @Column({ name: 'colour_background', type: 'varchar', length: 7, nullable: true })
  colourBackground!: string | null;

  @Column({ name: 'colour_text', type: 'varchar', length: 7, nullable: true })
  colourText!: string | null;

  @Column({ name: 'terms_text', type: 'text', nullable: true })
  termsText!: string | null;

  /** Derived from the terms' text (see termsVersionOf): a new text is a new version. Null without terms. */
  @Column({ name: 'terms_version', type: 'varchar', length: 64, nullable: true })
  termsVersion!: string | null;

  @Column({ name: 'privacy_text', type: 'text', nullable: true })
  privacyText!: string | null;

  /** The plan of the users the portal makes; null: none of their own (the venue's default plan applies). */
  @Column({ name: 'plan_id', type: 'varchar', length: 36, nullable: true })
  planId!: string | null;

  /** How long a portal user stays valid after each sign-in, in seconds. */
  @Column({ name: 'validity_seconds', type: 'int' })
  validitySeconds!: number;

  /** Whether social sign-in keeps the e-mail address the provider gives. */
  @Column({ name: 'keep_social_email', type: 'boolean', default: false })
  keepSocialEmail!: boolean;

  /** openNDS's faskey, sealed with SECRETS_KEY (nas/secret-box: venue id as associated data); null: none. */
  @Column({ name: 'faskey_sealed', type: 'text', nullable: true })
  faskeySealed!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;
}
