import { ApiProperty } from '@nestjs/swagger';
import { DATE_TIME_OUTPUT, NULLABLE, VENUE_ID_SCHEMA } from '../../hotspot-users/dto/field-schemas.js';

const PERIODS = ['session', 'day', 'total'] as const;

/** What one period's counters hold: octets in (from the user) and out (to it), seconds online. */
export class UsageCountersDto {
  @ApiProperty({ example: 52_428_800, description: 'Octets from the user (Acct-Input-Octets with Gigawords)' })
  inputOctets!: number;

  @ApiProperty({ example: 734_003_200, description: 'Octets to the user (Acct-Output-Octets with Gigawords)' })
  outputOctets!: number;

  @ApiProperty({ example: 5400, description: 'Seconds online (Acct-Session-Time)' })
  sessionSeconds!: number;
}

/** Today's counters, with the day's bounds in the venue's time zone. */
export class UsageDayDto extends UsageCountersDto {
  @ApiProperty({ ...DATE_TIME_OUTPUT, description: "The day's start (midnight in the venue's time zone)" })
  start!: string;

  @ApiProperty({ ...DATE_TIME_OUTPUT, description: "The day's end: the next day's start" })
  end!: string;
}

/** One limit of the plan against the usage. */
export class UsageLimitDto {
  @ApiProperty({
    enum: PERIODS,
    example: 'day',
    description:
      'What the limit counts over: `session` (each session on its own: `used` is the largest active one), `day` ' +
      "(in the venue's time zone) or `total`",
  })
  period!: (typeof PERIODS)[number];

  @ApiProperty({
    ...DATE_TIME_OUTPUT,
    ...NULLABLE,
    description: "The period's start: midnight for a day, the session's start; null for total (or no session)",
  })
  periodStart!: string | null;

  @ApiProperty({
    ...DATE_TIME_OUTPUT,
    ...NULLABLE,
    description: "The period's end, when the limit resets: the next midnight for a day; null otherwise",
  })
  periodEnd!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1_073_741_824,
    description: 'What the plan allows (octets in and out together, or seconds); null: no limit',
  })
  allowed!: number | null;

  @ApiProperty({ example: 786_432_000, description: 'What was used in the period' })
  used!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 287_309_824,
    description: 'What is left (0 when used up: logins are refused, sessions ended); null: no limit',
  })
  left!: number | null;
}

export class UsageLimitsDto {
  @ApiProperty({ type: UsageLimitDto, description: 'The data quota (quotaBytes over quotaPeriod), octets' })
  data!: UsageLimitDto;

  @ApiProperty({ type: UsageLimitDto, description: 'The time allowance per day (dailyTimeSeconds), seconds' })
  dailyTime!: UsageLimitDto;

  @ApiProperty({ type: UsageLimitDto, description: 'The time allowance in total (totalTimeSeconds), seconds' })
  totalTime!: UsageLimitDto;
}

/** The plan a usage is counted against. */
export interface UsagePlanDto {
  _id: string;
  name: string;
}

export class UserUsageDto {
  @ApiProperty({ example: '019a9c4e-9b10-7d42-a1c3-5e6f7a8b9c0d' })
  userId!: string;

  @ApiProperty({
    ...VENUE_ID_SCHEMA,
    ...NULLABLE,
    example: 'istanbul-lobby',
    description: "The venue whose plan and day are shown: `venueId` of the query, else the user's first in the token's",
  })
  venueId!: string | null;

  @ApiProperty({ example: 'Europe/Istanbul', description: "The venue's time zone (UTC when it has none)" })
  timeZone!: string;

  // Inline: beside a $ref, OpenAPI 3.0 ignores `nullable`, and with allOf the null fails the $ref.
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['_id', 'name'],
    properties: {
      _id: { type: 'string', example: '019a9c4e-9b10-7d42-a1c3-5e6f7a8b9c0d' },
      name: { type: 'string', example: 'Free 5 Mbit' },
    },
    description: "The plan the user is on there: its own, else the venue's default; null: none",
  })
  plan!: UsagePlanDto | null;

  @ApiProperty({ type: UsageDayDto })
  day!: UsageDayDto;

  @ApiProperty({ type: UsageCountersDto })
  total!: UsageCountersDto;

  @ApiProperty({ type: UsageLimitsDto })
  limits!: UsageLimitsDto;
}

export class UserUsageResponseDto {
  @ApiProperty({ example: true })
  success!: true;

  @ApiProperty({ type: UserUsageDto })
  data!: UserUsageDto;
}
