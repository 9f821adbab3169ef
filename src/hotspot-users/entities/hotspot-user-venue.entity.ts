import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DateTimeColumn, ID_LENGTH } from '../../database/columns.js';
import { USERNAME_MAX_LENGTH } from '../../common/validation/normalise.js';
import { HotspotUserEntity, type UserStatus } from './hotspot-user.entity.js';

/**
 * One row per user and venue. It carries copies of the user's status and creation time so a venue's
 * list is one index range scan, and the per-venue uniqueness keys, which the database enforces.
 * The keys are null while the user is expired, so expired users never block a name.
 */
@Entity('hotspot_user_venues')
@Index('idx_user_venues_list', ['venueId', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_list_by_status', ['venueId', 'userStatus', 'userCreatedAt', 'userId'])
/** The list without a batch's accounts (vouchers): one range of these, as the whole list is one of the two above. */
@Index('idx_user_venues_guests', ['venueId', 'inBatch', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_guests_by_status', ['venueId', 'inBatch', 'userStatus', 'userCreatedAt', 'userId'])
@Index('uq_user_venues_username', ['venueId', 'usernameKey'], { unique: true })
/** A RADIUS login whose name is not in the NAS's venue finds the venue that holds it. */
@Index('idx_user_venues_username_key', ['usernameKey', 'userId'])
@Index('uq_user_venues_email', ['venueId', 'emailKey'], { unique: true })
@Index('uq_user_venues_phone', ['venueId', 'phoneKey'], { unique: true })
/**
 * The list's search (`q`): a prefix of each key within a venue (see user-search.rules.ts); with the
 * status, creation time and id, each search range is read from its index alone.
 */
@Index('idx_user_venues_search_name', ['venueId', 'searchName', 'userStatus', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_search_username', ['venueId', 'searchUsername', 'userStatus', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_search_email', ['venueId', 'searchEmail', 'userStatus', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_search_phone', ['venueId', 'searchPhone', 'userStatus', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_search_phone_suffix', ['venueId', 'searchPhoneSuffix', 'userStatus', 'userCreatedAt', 'userId'])
@Index('idx_user_venues_search_room', ['venueId', 'searchRoom', 'userStatus', 'userCreatedAt', 'userId'])
export class HotspotUserVenueEntity {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** Keeps the order of the user's venueIds. */
  @Column({ type: 'int' })
  position!: number;

  @Column({ name: 'user_status', type: 'varchar', length: 16 })
  userStatus!: UserStatus;

  @DateTimeColumn('user_created_at')
  userCreatedAt!: Date;

  /** Whether the user is a batch's account (a voucher): a copy of `batchId !== null`, which never changes. */
  @Column({ name: 'in_batch', type: 'boolean', default: false })
  inBatch!: boolean;

  @Column({ name: 'username_key', type: 'varchar', length: USERNAME_MAX_LENGTH, nullable: true })
  usernameKey!: string | null;

  @Column({ name: 'email_key', type: 'varchar', length: 254, nullable: true })
  emailKey!: string | null;

  @Column({ name: 'phone_key', type: 'varchar', length: 16, nullable: true })
  phoneKey!: string | null;

  /** Search keys: kept whatever the status (user-search.rules.ts says how each is folded). */
  @Column({ name: 'search_name', type: 'varchar', length: 255, nullable: true })
  searchName!: string | null;

  @Column({ name: 'search_username', type: 'varchar', length: USERNAME_MAX_LENGTH, nullable: true })
  searchUsername!: string | null;

  @Column({ name: 'search_email', type: 'varchar', length: 254, nullable: true })
  searchEmail!: string | null;

  @Column({ name: 'search_phone', type: 'varchar', length: 16, nullable: true })
  searchPhone!: string | null;

  /** The phone's digits backwards: its end (the last digits, a national form) is a prefix of this. */
  @Column({ name: 'search_phone_suffix', type: 'varchar', length: 16, nullable: true })
  searchPhoneSuffix!: string | null;

  @Column({ name: 'search_room', type: 'varchar', length: 32, nullable: true })
  searchRoom!: string | null;

  @ManyToOne(() => HotspotUserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_user_venues_user' })
  user?: Relation<HotspotUserEntity>;
}
