import { Column, Entity, Index } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';

/** A venue's day of records, sealed: its file's hash and signature; its lines are AccessRecordDayLineEntity. */
@Entity('access_record_days')
@Index('uq_access_record_days_venue_day', ['venueId', 'day'], { unique: true })
@Index('idx_access_record_days_day', ['day'])
export class AccessRecordDayEntity {
  @IdColumn()
  id!: string;

  @Column({ name: 'venue_id', type: 'varchar', length: 64 })
  venueId!: string;

  /** YYYY-MM-DD in `timeZone`. */
  @Column({ type: 'varchar', length: 10 })
  day!: string;

  @Column({ name: 'time_zone', type: 'varchar', length: 64 })
  timeZone!: string;

  @Column({ type: 'int' })
  records!: number;

  /** SHA-256 of the file's bytes, in hexadecimal: the next day's file names it. */
  @Column({ type: 'varchar', length: 64 })
  sha256!: string;

  /** The Ed25519 signature of the file's bytes, in base64. */
  @Column({ type: 'varchar', length: 88 })
  signature!: string;

  @DateTimeColumn('sealed_at')
  sealedAt!: Date;
}
