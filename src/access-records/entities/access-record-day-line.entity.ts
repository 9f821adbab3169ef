import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ID_LENGTH } from '../../database/columns.js';
import { AccessRecordDayEntity } from './access-record-day.entity.js';

/** One line of a sealed day's file (0: the header), kept so that every export writes the same bytes. */
@Entity('access_record_day_lines')
export class AccessRecordDayLineEntity {
  @PrimaryColumn({ name: 'day_id', type: 'varchar', length: ID_LENGTH })
  dayId!: string;

  @PrimaryColumn({ type: 'int' })
  position!: number;

  @Column({ type: 'varchar', length: 4000 })
  line!: string;

  /** The foreign key to the day; for the mapping alone, never loaded. */
  @ManyToOne(() => AccessRecordDayEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'day_id', foreignKeyConstraintName: 'fk_access_record_day_lines_day' })
  day?: AccessRecordDayEntity;
}
