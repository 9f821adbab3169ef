import { Column, Entity } from 'typeorm';
import { DateTimeColumn, IdColumn } from '../../database/columns.js';
import type { QuotaPeriod } from '../plan-limits.js';
import { PLAN_NAME_MAX_LENGTH } from '../plan.rules.js';

/** bigint columns come back as strings from both drivers' defaults; the limits are well within 2^53. */
const bigintAsNumber = {
  to: (value: number | null) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};

/**
 * A service plan: the limits a user on it gets (see plan-limits.ts for their units); null is no
 * limit. The venues that offer it are rows of plan_venues.
 */
@Entity('plans')
export class PlanEntity {
  @IdColumn()
  id!: string;

  @Column({ type: 'varchar', length: PLAN_NAME_MAX_LENGTH })
  name!: string;

  @Column({ name: 'download_rate', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  downloadRate!: number | null;

  @Column({ name: 'upload_rate', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  uploadRate!: number | null;

  @Column({ name: 'quota_bytes', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  quotaBytes!: number | null;

  @Column({ name: 'quota_period', type: 'varchar', length: 8, nullable: true })
  quotaPeriod!: QuotaPeriod | null;

  @Column({ name: 'daily_time_seconds', type: 'int', nullable: true })
  dailyTimeSeconds!: number | null;

  @Column({ name: 'total_time_seconds', type: 'int', nullable: true })
  totalTimeSeconds!: number | null;

  @Column({ name: 'idle_timeout_seconds', type: 'int', nullable: true })
  idleTimeoutSeconds!: number | null;

  @Column({ name: 'max_sessions', type: 'int', nullable: true })
  maxSessions!: number | null;

  @Column({ name: 'max_devices', type: 'int', nullable: true })
  maxDevices!: number | null;

  @Column({ name: 'interim_interval_seconds', type: 'int', nullable: true })
  interimIntervalSeconds!: number | null;

  @DateTimeColumn('created_at')
  createdAt!: Date;

  @DateTimeColumn('updated_at')
  updatedAt!: Date;
}
