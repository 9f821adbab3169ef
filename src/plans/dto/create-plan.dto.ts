import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { IsVenueIdList } from '../../common/validation/validators.js';
import type { QuotaPeriod } from '../plan-limits.js';
import { LimitField, PLAN_NAME, PLAN_VENUE_IDS, PlanNameRules, QuotaPeriodField } from './plan-fields.js';

/** A new plan: a name, the venues that offer it, and any of the limits (absent or null: none). */
export class CreatePlanDto {
  @ApiProperty(PLAN_NAME)
  @IsDefined({ message: 'name is required' })
  @PlanNameRules()
  name!: string;

  @ApiProperty({
    ...PLAN_VENUE_IDS,
    description: 'Each 1-64 characters of A-Za-z0-9_.:-; repeats are dropped, order kept',
  })
  @IsDefined({ message: 'venueIds is required' })
  @IsVenueIdList()
  venueIds!: string[];

  @LimitField('downloadRate')
  downloadRate?: number | null;

  @LimitField('uploadRate')
  uploadRate?: number | null;

  @LimitField('quotaBytes')
  quotaBytes?: number | null;

  @QuotaPeriodField()
  quotaPeriod?: QuotaPeriod | null;

  @LimitField('dailyTimeSeconds')
  dailyTimeSeconds?: number | null;

  @LimitField('totalTimeSeconds')
  totalTimeSeconds?: number | null;

  @LimitField('idleTimeoutSeconds')
  idleTimeoutSeconds?: number | null;

  @LimitField('maxSessions')
  maxSessions?: number | null;

  @LimitField('maxDevices')
  maxDevices?: number | null;

  @LimitField('interimIntervalSeconds')
  interimIntervalSeconds?: number | null;
}
