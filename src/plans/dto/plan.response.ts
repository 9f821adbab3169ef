import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import type { QuotaPeriod } from '../plan-limits.js';
import { limitSchema, PLAN_NAME, PLAN_VENUE_IDS, QUOTA_PERIOD } from './plan-fields.js';

const DATE_TIME: ApiPropertyOptions = { type: String, format: 'date-time', example: '2026-11-22T09:00:00.000Z' };

/** A service plan as the v1 API shows it (an addition to v1); every limit null when not set. */
export class PlanDto {
  @ApiProperty({ example: '019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b47', description: 'Opaque, time-ordered' })
  _id!: string;

  @ApiProperty(PLAN_NAME)
  name!: string;

  @ApiProperty({ ...PLAN_VENUE_IDS, description: 'The venues that offer the plan, in the order given' })
  venueIds!: string[];

  @ApiProperty(limitSchema('downloadRate'))
  downloadRate!: number | null;

  @ApiProperty(limitSchema('uploadRate'))
  uploadRate!: number | null;

  @ApiProperty(limitSchema('quotaBytes'))
  quotaBytes!: number | null;

  @ApiProperty(QUOTA_PERIOD)
  quotaPeriod!: QuotaPeriod | null;

  @ApiProperty(limitSchema('dailyTimeSeconds'))
  dailyTimeSeconds!: number | null;

  @ApiProperty(limitSchema('totalTimeSeconds'))
  totalTimeSeconds!: number | null;

  @ApiProperty(limitSchema('idleTimeoutSeconds'))
  idleTimeoutSeconds!: number | null;

  @ApiProperty(limitSchema('maxSessions'))
  maxSessions!: number | null;

  @ApiProperty(limitSchema('maxDevices'))
  maxDevices!: number | null;

  @ApiProperty(limitSchema('interimIntervalSeconds'))
  interimIntervalSeconds!: number | null;

  @ApiProperty(DATE_TIME)
  createdAt!: string;

  @ApiProperty(DATE_TIME)
  updatedAt!: string;
}

export class PlanResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: PlanDto })
  data!: PlanDto;
}

export class PlanListResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: [PlanDto] })
  data!: PlanDto[];
}

export class PlanDeletedResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ example: 'Plan deleted' })
  message!: string;
}
