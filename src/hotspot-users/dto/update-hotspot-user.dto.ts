import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { USER_STATUSES, type JsonObject, type UserStatus } from '../entities/hotspot-user.entity.js';
import { EMAIL_MAX_LENGTH, emailKey } from '../../common/validation/normalise.js';
import {
  HasCharacters,
  IsEmailAddress,
  IsIsoDateTimeWithZone,
  IsMetadata,
  IsOptionalNotNull,
  IsPhone,
  IsRefused,
  IsSafeText,
  IsVenueIdList,
  USERNAME_PATTERN,
} from '../../common/validation/validators.js';
import {
  DATE_TIME_INPUT,
  EMAIL,
  NULLABLE,
  PHONE,
  USERNAME,
  VALID_FOR_INPUT,
  VALID_FOR_MAX_SECONDS,
  VALID_FOR_MIN_SECONDS,
  VENUE_IDS,
} from './field-schemas.js';

/** The uniqueness key must fit its column too: lower-casing can lengthen an address (`İ`). */
const EMAIL_KEY = { of: emailKey, described: 'lower-cased' };
const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

/** Every field is optional; send only what changes. `null` clears email, phone, expiresAt (and a guest's username). */
export class UpdateHotspotUserDto {
  @ApiPropertyOptional({
    example: 'Ayşe Yılmaz',
    minLength: 1,
    maxLength: 255,
    description: 'Trimmed; no control characters',
  })
  @IsOptionalNotNull()
  @IsString()
  @IsSafeText()
  @Transform(trim)
  @HasCharacters(1, 255)
  name?: string;

  @ApiPropertyOptional({
    ...USERNAME,
    ...NULLABLE,
    minLength: 0,
    pattern: '^[A-Za-z0-9._@+-]{0,64}$',
    description: 'null or "" clears a guest\'s username and is refused for username_password users',
  })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @ValidateIf((_dto, value) => value !== '')
  @Matches(USERNAME_PATTERN, { message: 'username must be 1-64 characters of letters, digits and ._@+-' })
  username?: string | null;

  @ApiPropertyOptional({ ...EMAIL, ...NULLABLE, description: 'null clears it' })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @HasCharacters(0, EMAIL_MAX_LENGTH, EMAIL_KEY)
  @IsEmailAddress()
  email?: string | null;

  @ApiPropertyOptional({ ...PHONE, ...NULLABLE, description: `${PHONE.description}; null clears it` })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @IsPhone()
  phone?: string | null;

  @ApiPropertyOptional({ ...VENUE_IDS, description: 'Replaces the venues; repeats are dropped, order kept' })
  @IsOptionalNotNull()
  @IsVenueIdList()
  venueIds?: string[];

  @ApiPropertyOptional({
    ...DATE_TIME_INPUT,
    ...NULLABLE,
    description: 'null means no expiry; a date must lie in the future; username_password users only',
  })
  @IsOptional()
  @IsString()
  @IsIsoDateTimeWithZone()
  expiresAt?: string | null;

  @ApiPropertyOptional({ ...VALID_FOR_INPUT, ...NULLABLE })
  @IsOptional()
  @IsInt({ message: 'validFor must be a whole number of seconds' })
  @Min(VALID_FOR_MIN_SECONDS, { message: `validFor must be at least ${VALID_FOR_MIN_SECONDS} seconds` })
  @Max(VALID_FOR_MAX_SECONDS, { message: `validFor must be at most ${VALID_FOR_MAX_SECONDS} seconds` })
  validFor?: number | null;

  @ApiPropertyOptional({
    enum: USER_STATUSES,
    description: 'active → blocked/expired, blocked → active/expired; expired is final',
  })
  @IsOptionalNotNull()
  @IsIn(USER_STATUSES, { message: 'status must be one of active, blocked, expired' })
  status?: UserStatus;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { roomNumber: '1204' },
    description: 'Replaces the stored metadata whole; the same rules as on create',
  })
  @IsOptionalNotNull()
  @IsMetadata()
  metadata?: JsonObject;

  /** Declared only to answer with a precise message instead of "not an allowed field". */
  @ApiHideProperty()
  @ValidateIf((dto: object) => Object.prototype.hasOwnProperty.call(dto, 'loginMethod'))
  @IsRefused('loginMethod cannot be changed')
  loginMethod?: never;
}
