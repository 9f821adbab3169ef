import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DateTimeColumn, ID_LENGTH } from '../../database/columns.js';
import { HotspotUserEntity, type UserStatus } from './hotspot-user.entity.js';

/**
 * The words of a user's name after the first, one row per venue of the user and word (nameWordsOf in
 * user-search.rules.ts): the list's search (`q`) finds a user by any word of the name through them.
 * Like the venue rows, each copies the user's status and creation time, so a word's range is read from
 * its index alone; the writer rewrites them with the venue rows. A common word's page is read from
 * the venue's words newest first (idx_user_name_words_newest) instead of sorting its matches.
 */
@Entity('hotspot_user_name_words')
@Index('idx_user_name_words_search', ['venueId', 'word', 'userStatus', 'userCreatedAt', 'userId', 'sharesInitial'])
@Index('idx_user_name_words_newest', ['venueId', 'userCreatedAt', 'userId', 'word', 'userStatus'])
export class HotspotUserNameWordEntity {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  @PrimaryColumn({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** The folded name from the word on, cut to NAME_WORD_LENGTH (64) characters. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  word!: string;

  @Column({ name: 'user_status', type: 'varchar', length: 16 })
  userStatus!: UserStatus;

  @DateTimeColumn('user_created_at')
  userCreatedAt!: Date;

  /**
   * Whether another word of the user's name starts with the same character: only then can one prefix
   * match two rows of the user, so a search counts the other rows without setting users apart.
   */
  @Column({ name: 'shares_initial', type: 'boolean', default: false })
  sharesInitial!: boolean;

  @ManyToOne(() => HotspotUserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_user_name_words_user' })
  user?: Relation<HotspotUserEntity>;
}
