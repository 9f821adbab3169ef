import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/columns.js';
import type { LimitScope } from '../phone-verification.rules.js';

/** Codes sent per scope (phone, device, venue, country prefix) and subject in one fixed window. */
@Entity('phone_code_counters')
@Index('idx_phone_code_counters_window', ['windowEnd'])
export class PhoneCodeCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 8 })
  scope!: LimitScope;

  @PrimaryColumn({ type: 'varchar', length: 80 })
  subject!: string;

  @PrimaryColumn({ name: 'window_start', type: 'datetime', precision: 3 })
  windowStart!: Date;

  @DateTimeColumn('window_end')
  windowEnd!: Date;

  @Column({ type: 'int' })
  sends!: number;
}
