import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { USER_STATUSES, type JsonObject, type UserStatus } from '../entities/hotspot-user.entity.js';
import { EMAIL_MAX_LENGTH, emailKey, PHONE_MAX_LENGTH } from '../../common/validation/normalise.js';
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
    example: 'room-1204',
    nullable: true,
    pattern: USERNAME_PATTERN.source,
    description: 'null or "" is refused for username_password users',
  })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @ValidateIf((_dto, value) => value !== '')
  @Matches(USERNAME_PATTERN, { message: 'username must be 1-64 characters of letters, digits and ._@+-' })
  username?: string | null;

  @ApiPropertyOptional({ example: 'ayse@example.com', nullable: true, maxLength: EMAIL_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @HasCharacters(0, EMAIL_MAX_LENGTH, EMAIL_KEY)
  @IsEmailAddress()
  email?: string | null;

  @ApiPropertyOptional({
    example: '+90 532 123 45 67',
    nullable: true,
    maxLength: PHONE_MAX_LENGTH,
    description: '7-15 digits; uniqueness compares the digits',
  })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @IsPhone()
  phone?: string | null;

  @ApiPropertyOptional({ type: [String], example: ['istanbul-lobby'], minItems: 1, maxItems: 50 })
  @IsOptionalNotNull()
  @IsVenueIdList()
  venueIds?: string[];

  @ApiPropertyOptional({
    example: '2030-01-31T12:00:00Z',
    nullable: true,
    description: 'null means no expiry; a date must lie in the future; username_password users only',
  })
  @IsOptional()
  @IsString()
  @IsIsoDateTimeWithZone()
  expiresAt?: string | null;

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
    description: 'Replaces the stored metadata whole',
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
