import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { IdColumn } from '../../database/columns.js';
import type { UserStatus } from './hotspot-user.entity.js';

/**
 * How many users a venue holds in each status: the list's exact total without counting the venue's
 * rows. Kept in the transaction of every change that moves a user in or out (create, delete,
 * status change, venue change, expiry).
 */
@Entity('venue_user_counts')
export class VenueUserCountEntity {
  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @PrimaryColumn({ name: 'user_status', type: 'varchar', length: 16 })
  userStatus!: UserStatus;

  @Column({ name: 'user_count', type: 'int' })
  userCount!: number;
}

/**
 * The same counts per hour of the users' creation (`bucket`: hours since 1970 UTC): a deep page of
 * the list finds the hour that holds its offset here and walks the list index from there only.
 */
@Entity('venue_user_buckets')
@Index('idx_venue_user_buckets_by_status', ['venueId', 'userStatus', 'bucket', 'userCount'])
export class VenueUserBucketEntity {
  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @PrimaryColumn({ type: 'int' })
  bucket!: number;

  @PrimaryColumn({ name: 'user_status', type: 'varchar', length: 16 })
  userStatus!: UserStatus;

  @Column({ name: 'user_count', type: 'int' })
  userCount!: number;
}

/**
 * One change of the counts above, as the transaction that moved users inserted it: writers only
 * insert here, so no counter row is locked by every write of a venue (a transaction left open by an
 * instance cut off from the database would otherwise hold up the whole venue). The counts are the
 * sums of both tables; VenueCountsFolder moves these rows into the two tables above.
 */
@Entity('venue_user_count_changes')
@Index('idx_venue_user_count_changes_by_venue', ['venueId', 'userStatus', 'bucket', 'delta'])
export class VenueUserCountChangeEntity {
  /** Time-ordered (newId), so the fold takes the oldest changes first. */
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  @Column({ name: 'user_status', type: 'varchar', length: 16 })
  userStatus!: UserStatus;

  @Column({ type: 'int' })
  bucket!: number;

  @Column({ type: 'int' })
  delta!: number;
}
