import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  HasCharacters,
  HasNoBidiControls,
  IsSafeText,
  MAX_VENUES_PER_USER,
  VENUE_ID_PATTERN,
} from '../../common/validation/validators.js';
import { QUOTA_PERIODS } from '../plan-limits.js';
import { LIMIT_RANGES, PLAN_NAME_MAX_LENGTH, type NumericPlanLimit } from '../plan.rules.js';

/*
 * The validators and OpenAPI schemas of a plan's fields, once each: the create and update DTOs put
 * them under their own presence rule.
 */

/** Decorators applied as if stacked on the property in this order, so messages keep their order. */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export const PlanNameRules = (): PropertyDecorator =>
  stacked(IsString(), IsSafeText(), HasNoBidiControls(), Transform(trim), HasCharacters(1, PLAN_NAME_MAX_LENGTH));

export const PLAN_NAME: ApiPropertyOptions = {
  type: String,
  minLength: 1,
  maxLength: PLAN_NAME_MAX_LENGTH,
  example: 'Free 5 Mbit',
  description: 'Trimmed; no control characters',
};

/** One value of a plan's venueIds or a venueId parameter. */
export const VENUE_ID_SCHEMA = {
  type: 'string',
  pattern: VENUE_ID_PATTERN.source,
  minLength: 1,
  maxLength: 64,
} as const;

export const PLAN_VENUE_IDS: ApiPropertyOptions = {
  type: 'array',
  items: VENUE_ID_SCHEMA,
  minItems: 1,
  maxItems: MAX_VENUES_PER_USER,
  example: ['hotel-a'],
};

const LIMIT_DESCRIPTIONS: Record<NumericPlanLimit, string> = {
  downloadRate: 'Bits per second towards the user',
  uploadRate: 'Bits per second from the user',
  quotaBytes: 'Octets in and out together per quotaPeriod (required with it)',
  dailyTimeSeconds: "Seconds online per day, counted in the venue's time zone",
  totalTimeSeconds: 'Seconds online in total',
  idleTimeoutSeconds: 'A session without traffic this long ends (Idle-Timeout)',
  maxSessions: 'Sessions at the same time',
  maxDevices: 'Distinct devices (MAC addresses) the user may log in from',
  interimIntervalSeconds: 'How often the NAS sends interim accounting (Acct-Interim-Interval)',
};

const LIMIT_EXAMPLES: Record<NumericPlanLimit, number> = {
  downloadRate: 5_000_000,
  uploadRate: 1_000_000,
  quotaBytes: 1_073_741_824,
  dailyTimeSeconds: 7200,
  totalTimeSeconds: 36_000,
  idleTimeoutSeconds: 600,
  maxSessions: 2,
  maxDevices: 3,
  interimIntervalSeconds: 300,
};

/** A numeric limit: a whole number in its range, or null (no limit). */
export function LimitField(limit: NumericPlanLimit): PropertyDecorator {
  const { min, max, unit } = LIMIT_RANGES[limit];
  const range = `${limit} must be a whole number of ${unit} from ${min} to ${max}, or null`;
  return stacked(
    ApiPropertyOptional(limitSchema(limit)),
    IsOptional(),
    IsInt({ message: range }),
    Min(min, { message: range }),
    Max(max, { message: range }),
  );
}

export function limitSchema(limit: NumericPlanLimit): ApiPropertyOptions {
  const { min, max, unit } = LIMIT_RANGES[limit];
  return {
    type: 'integer',
    nullable: true,
    minimum: min,
    maximum: max,
    example: LIMIT_EXAMPLES[limit],
    description: `${LIMIT_DESCRIPTIONS[limit]} (${unit}); null: no limit`,
  };
}

export const QUOTA_PERIOD: ApiPropertyOptions = {
  type: String,
  enum: [...QUOTA_PERIODS, null],
  nullable: true,
  example: 'day',
  description:
    "What quotaBytes is counted over: one session, a day in the venue's time zone, or in total; " +
    'required with quotaBytes and refused without it',
};

export const QuotaPeriodField = (): PropertyDecorator =>
  stacked(
    ApiPropertyOptional(QUOTA_PERIOD),
    IsOptional(),
    IsIn(QUOTA_PERIODS, { message: `quotaPeriod must be one of ${QUOTA_PERIODS.join(', ')}, or null` }),
  );
