import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsVenueIdList, IsOptionalNotNull } from '../../common/validation/validators.js';
import type { QuotaPeriod } from '../plan-limits.js';
import { LimitField, PLAN_NAME, PLAN_VENUE_IDS, PlanNameRules, QuotaPeriodField } from './plan-fields.js';

/** Every field is optional; send only what changes. null clears a limit. */
export class UpdatePlanDto {
  @ApiPropertyOptional(PLAN_NAME)
  @IsOptionalNotNull()
  @PlanNameRules()
  name?: string;

  @ApiPropertyOptional({
    ...PLAN_VENUE_IDS,
    description:
      'Replaces the venues that offer the plan; a venue taken away must have no user or batch on the plan and ' +
      'not have it as its default plan (409)',
  })
  @IsOptionalNotNull()
  @IsVenueIdList()
  venueIds?: string[];

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
