import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/columns.js';
import { VENUE_ID_MAX_LENGTH } from '../venue-rules.js';

/** A registered venue: what the v1 API knows only as an id, with how it is shown and reached. */
@Entity('venues')
export class VenueEntity {
  /** The venue id as the v1 API and the NAS registry spell it. */
  @PrimaryColumn({ type: 'varchar', length: VENUE_ID_MAX_LENGTH })
  id!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100, nullable: true })
  displayName!: string | null;

  /** An IANA time zone, e.g. Europe/Berlin. */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true })
  timeZone!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  ssid!: string | null;

  /** The captive portal's login page. */
  @Column({ name: 'portal_url', type: 'varchar', length: 2048, nullable: true })
  portalUrl!: string | null;

  /** `HH:MM` in the venue's zone; null: the default, 12:00. */
  @Column({ name: 'check_out_time', type: 'varchar', length: 5, nullable: true })
  checkOutTime!: string | null;

  /** The plan (src/plans) of a user without one of their own who logs in at this venue; null: none. */
  @Index('idx_venues_default_plan_id')
  @Column({ name: 'default_plan_id', type: 'varchar', length: 36, nullable: true })
  defaultPlanId!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;
}
