import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { parseIsoDateTimeWithZone } from '../../common/validation/iso-date-time.js';
import {
  HasCharacters,
  IsIsoDateTimeWithZone,
  IsSafeText,
  VENUE_ID_PATTERN,
} from '../../common/validation/validators.js';
import {
  DATE_TIME_INPUT,
  NULLABLE,
  PLAN_ID,
  VALID_FOR_INPUT,
  VALID_FOR_MAX_SECONDS,
  VALID_FOR_MIN_SECONDS,
  VENUE_ID_SCHEMA,
} from '../../hotspot-users/dto/field-schemas.js';
import { PlanIdRules } from '../../hotspot-users/dto/user-field-rules.js';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  LimitField,
  LIST_VENUE_DESCRIPTION,
  PageField,
  VENUE_ID_MESSAGE,
  VenueIdField,
} from '../../hotspot-users/dto/query-fields.js';
import {
  BATCH_MAX_COUNT,
  DEFAULT_PASSWORD_LENGTH,
  DEFAULT_PREFIX,
  LABEL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PREFIX_PATTERN,
  type BatchRequest,
} from '../batch.rules.js';

export class CreateBatchDto {
  @ApiProperty({ ...VENUE_ID_SCHEMA, description: 'The one venue of every account, e.g. istanbul-lobby' })
  @IsDefined({ message: 'venueId is required' })
  @IsString({ message: 'venueId must be a single string' })
  @IsSafeText()
  @Matches(VENUE_ID_PATTERN, { message: VENUE_ID_MESSAGE })
  venueId!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: BATCH_MAX_COUNT, example: 50 })
  @IsDefined({ message: 'count is required' })
  @IsInt({ message: 'count must be an integer' })
  @Min(1, { message: `count must be from 1 to ${BATCH_MAX_COUNT}` })
  @Max(BATCH_MAX_COUNT, { message: `count must be from 1 to ${BATCH_MAX_COUNT}` })
  count!: number;

  @ApiPropertyOptional({
    type: String,
    maxLength: 16,
    pattern: PREFIX_PATTERN.source,
    default: DEFAULT_PREFIX,
    description: 'Each username is this prefix plus 6 random characters (lower case, no look-alikes)',
  })
  @IsOptional()
  @IsString({ message: 'prefix must be a string' })
  @Matches(PREFIX_PATTERN, {
    message: 'prefix must be up to 16 characters of A-Za-z0-9._- starting with a letter or digit',
  })
  prefix?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: PASSWORD_MIN_LENGTH,
    maximum: PASSWORD_MAX_LENGTH,
    default: DEFAULT_PASSWORD_LENGTH,
    description: 'Characters of each generated password (no 0/O/o, 1/l/I/i)',
  })
  @IsOptional()
  @IsInt({ message: 'passwordLength must be an integer' })
  @Min(PASSWORD_MIN_LENGTH, { message: `passwordLength must be from ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH}` })
  @Max(PASSWORD_MAX_LENGTH, { message: `passwordLength must be from ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH}` })
  passwordLength?: number;

  @ApiPropertyOptional({
    ...DATE_TIME_INPUT,
    ...NULLABLE,
    description: 'Every account expires then (in the future); give either expiresAt or validFor',
  })
  @IsOptional()
  @IsString()
  @IsIsoDateTimeWithZone()
  expiresAt?: string | null;

  @ApiPropertyOptional({
    ...VALID_FOR_INPUT,
    ...NULLABLE,
    description:
      'Instead of expiresAt: seconds of validity from each account’s first accepted login (e.g. 86400: "24 hours ' +
      'from the first login"), which sets its expiresAt',
  })
  @IsOptional()
  @IsInt({ message: 'validFor must be a whole number of seconds' })
  @Min(VALID_FOR_MIN_SECONDS, { message: `validFor must be at least ${VALID_FOR_MIN_SECONDS} seconds` })
  @Max(VALID_FOR_MAX_SECONDS, { message: `validFor must be at most ${VALID_FOR_MAX_SECONDS} seconds` })
  validFor?: number | null;

  @ApiPropertyOptional({
    type: String,
    ...NULLABLE,
    maxLength: LABEL_MAX_LENGTH,
    example: 'Conference 12 March',
    description: 'Shown in lists and on the batch page',
  })
  @IsOptional()
  @IsString({ message: 'label must be a string' })
  @IsSafeText()
  @HasCharacters(1, LABEL_MAX_LENGTH)
  label?: string | null;

  @ApiPropertyOptional({
    ...PLAN_ID,
    ...NULLABLE,
    description: 'The service plan of every account (offered in the venue, else 422); null or absent: none',
  })
  @IsOptional()
  @PlanIdRules()
  planId?: string | null;
}

export class ListBatchesQueryDto {
  @VenueIdField(LIST_VENUE_DESCRIPTION)
  venueId?: string;

  @PageField()
  page?: string;

  @LimitField()
  limit?: string;
}

export function toBatchRequest(dto: CreateBatchDto): BatchRequest {
  return {
    venueId: dto.venueId,
    count: dto.count,
    prefix: dto.prefix ?? DEFAULT_PREFIX,
    passwordLength: dto.passwordLength ?? DEFAULT_PASSWORD_LENGTH,
    expiresAt: dto.expiresAt == null ? null : parseIsoDateTimeWithZone(dto.expiresAt),
    validFor: dto.validFor ?? null,
    label: dto.label ?? null,
    planId: dto.planId ?? null,
  };
}

export function toPageQuery(dto: ListBatchesQueryDto): { page: number; limit: number } {
  return {
    page: dto.page === undefined ? DEFAULT_PAGE : Number(dto.page),
    limit: dto.limit === undefined ? DEFAULT_LIMIT : Number(dto.limit),
  };
}
