import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ID_LENGTH } from '../../database/columns.js';

/** A 64-bit counter as a decimal string (mysql2 returns BIGINT as one; see SessionEntity). */
const BIGINT_AS_STRING = {
  to: (value: string | null | undefined) => value,
  from: (value: string | number) => String(value),
};

/**
 * What a user used in one period, as accounting reported it: `total` since the user began, or a
 * day (`YYYY-MM-DD`) in the time zone of the venue where the sessions were. Only ever raised, by
 * UsageService.fold, from the sessions' totals (their rise since the last fold); a day's row is
 * deleted DAY_USAGE_KEPT_DAYS after it (the index on period finds them).
 */
@Entity('hotspot_user_usage')
@Index('idx_hotspot_user_usage_period', ['period'])
export class UserUsageEntity {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: ID_LENGTH })
  userId!: string;

  /** `total`, or a day `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  period!: string;

  @Column({ name: 'input_octets', type: 'bigint', default: 0, transformer: BIGINT_AS_STRING })
  inputOctets!: string;

  @Column({ name: 'output_octets', type: 'bigint', default: 0, transformer: BIGINT_AS_STRING })
  outputOctets!: string;

  @Column({ name: 'session_seconds', type: 'bigint', default: 0, transformer: BIGINT_AS_STRING })
  sessionSeconds!: string;

  /** Named by string: usage/ sits above hotspot-users/, but the entity is for the mapping alone. */
  @ManyToOne('HotspotUserEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_hotspot_user_usage_user' })
  user?: object;
}
