import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { JsonObject } from '../entities/hotspot-user.entity.js';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { EMAIL_MAX_LENGTH, emailKey } from '../../common/validation/normalise.js';
import {
  HasCharacters,
  IsEmailAddress,
  IsIsoDateTimeWithZone,
  IsMacAddress,
  IsMetadata,
  IsOptionalNotNull,
  IsPhone,
  IsRefusedWhen,
  IsSafeText,
  IsVenueIdList,
  USERNAME_PATTERN,
} from '../../common/validation/validators.js';
import {
  DATE_TIME_INPUT,
  EMAIL,
  MAC_INPUT,
  NULLABLE,
  PHONE,
  USERNAME,
  VALID_FOR_INPUT,
  VALID_FOR_MAX_SECONDS,
  VALID_FOR_MIN_SECONDS,
  VENUE_IDS,
} from './field-schemas.js';

const CREATABLE_LOGIN_METHODS = ['username_password', 'guest'] as const;
export type CreatableLoginMethod = (typeof CREATABLE_LOGIN_METHODS)[number];

/** The uniqueness key must fit its column too: lower-casing can lengthen an address (`İ`). */
const EMAIL_KEY = { of: emailKey, described: 'lower-cased' };
const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
const needsCredentials = (dto: CreateHotspotUserDto): boolean => dto.loginMethod === 'username_password';

export class CreateHotspotUserDto {
  @ApiProperty({ example: 'Ayşe Yılmaz', minLength: 1, maxLength: 255, description: 'Trimmed; no control characters' })
  @IsDefined({ message: 'name is required' })
  @IsString()
  @IsSafeText()
  @Transform(trim)
  @HasCharacters(1, 255)
  name!: string;

  @ApiProperty({
    enum: CREATABLE_LOGIN_METHODS,
    example: 'username_password',
    description: '`social` and `sms` (read-only methods a record may show) are refused with 400',
  })
  @IsDefined({ message: 'loginMethod is required' })
  @IsIn(CREATABLE_LOGIN_METHODS, { message: 'loginMethod must be username_password or guest' })
  loginMethod!: CreatableLoginMethod;

  @ApiProperty({ ...VENUE_IDS, description: 'Each 1-64 characters of A-Za-z0-9_.:-; repeats are dropped, order kept' })
  @IsDefined({ message: 'venueIds is required' })
  @IsVenueIdList()
  venueIds!: string[];

  @ApiPropertyOptional({
    ...USERNAME,
    ...NULLABLE,
    description: 'Required for username_password; unique per venue, case-insensitively; null means unset',
  })
  @ValidateIf(
    (dto: CreateHotspotUserDto) => needsCredentials(dto) || (dto.username !== undefined && dto.username !== null),
  )
  @IsDefined({ message: 'username is required when loginMethod is username_password' })
  @IsString()
  @IsSafeText()
  @Matches(USERNAME_PATTERN, { message: 'username must be 1-64 characters of letters, digits and ._@+-' })
  username?: string | null;

  @ApiPropertyOptional({
    example: 'sunrise42',
    minLength: 4,
    maxLength: 128,
    writeOnly: true,
    description: 'Required for username_password, refused for guest; stored only as an argon2id hash',
  })
  @ValidateIf((dto: CreateHotspotUserDto) => needsCredentials(dto) || dto.password !== undefined)
  @IsDefined({ message: 'password is required when loginMethod is username_password' })
  @IsRefusedWhen(
    (dto: CreateHotspotUserDto) => dto.loginMethod === 'guest',
    'password is only accepted for username_password users',
  )
  @IsString()
  @Length(4, 128)
  password?: string;

  @ApiPropertyOptional({ ...EMAIL, ...NULLABLE, description: 'Unique per venue, case-insensitively; null means unset' })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @HasCharacters(0, EMAIL_MAX_LENGTH, EMAIL_KEY)
  @IsEmailAddress()
  email?: string | null;

  @ApiPropertyOptional({ ...PHONE, ...NULLABLE })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @IsPhone()
  phone?: string | null;

  @ApiPropertyOptional({ ...MAC_INPUT, ...NULLABLE })
  @IsOptional()
  @IsString()
  @IsSafeText()
  @IsMacAddress()
  macAddress?: string | null;

  @ApiPropertyOptional({
    ...DATE_TIME_INPUT,
    ...NULLABLE,
    description: 'ISO 8601 with a zone, in the future, at most 9999-12-31T23:59:59.999Z; username_password users only',
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
    type: 'object',
    additionalProperties: true,
    example: { roomNumber: '1204' },
    description:
      'A JSON object of at most 16 KiB and 8 levels; keys __proto__, constructor, prototype refused. Numbers are ' +
      'doubles: an integer beyond ±9007199254740991 (up to 64 bits) is refused, send it as a string',
  })
  @IsOptionalNotNull()
  @IsMetadata()
  metadata?: JsonObject;
}
