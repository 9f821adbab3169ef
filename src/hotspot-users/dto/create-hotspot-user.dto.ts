import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { JsonObject } from '../entities/hotspot-user.entity.js';
import { IsDefined, IsIn, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { IsMetadata, IsOptionalNotNull, IsRefusedWhen, IsVenueIdList } from '../../common/validation/validators.js';
import {
  DATE_TIME_INPUT,
  EMAIL,
  MAC_INPUT,
  NULLABLE,
  PLAN_ID,
  PHONE,
  ROOM,
  USERNAME,
  VALID_FOR_INPUT,
  VENUE_IDS,
} from './field-schemas.js';
import {
  EmailRules,
  ExpiresAtRules,
  MacAddressRules,
  NameRules,
  PhoneRules,
  RoomRules,
  UsernameRules,
  PlanIdRules,
  ValidForRules,
} from './user-field-rules.js';

const CREATABLE_LOGIN_METHODS = ['username_password', 'guest'] as const;
export type CreatableLoginMethod = (typeof CREATABLE_LOGIN_METHODS)[number];

const needsCredentials = (dto: CreateHotspotUserDto): boolean => dto.loginMethod === 'username_password';

export class CreateHotspotUserDto {
  @ApiProperty({ example: 'Ayşe Yılmaz', minLength: 1, maxLength: 255, description: 'Trimmed; no control characters' })
  @IsDefined({ message: 'name is required' })
  @NameRules()
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
  @UsernameRules()
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
  @EmailRules()
  email?: string | null;

  @ApiPropertyOptional({ ...PHONE, ...NULLABLE })
  @IsOptional()
  @PhoneRules()
  phone?: string | null;

  @ApiPropertyOptional({ ...ROOM, ...NULLABLE, description: `${ROOM.description}; null means unset` })
  @IsOptional()
  @RoomRules()
  room?: string | null;

  @ApiPropertyOptional({ ...MAC_INPUT, ...NULLABLE })
  @IsOptional()
  @MacAddressRules()
  macAddress?: string | null;

  @ApiPropertyOptional({
    ...DATE_TIME_INPUT,
    ...NULLABLE,
    description: 'ISO 8601 with a zone, in the future, at most 9999-12-31T23:59:59.999Z; username_password users only',
  })
  @IsOptional()
  @ExpiresAtRules()
  expiresAt?: string | null;

  @ApiPropertyOptional({ ...VALID_FOR_INPUT, ...NULLABLE })
  @IsOptional()
  @ValidForRules()
  validFor?: number | null;

  @ApiPropertyOptional({
    ...PLAN_ID,
    ...NULLABLE,
    description:
      "An addition to v1: the user's service plan (offered in every venue of the user, else 422); null or absent: none, the default plan of the venue a login comes through applies",
  })
  @IsOptional()
  @PlanIdRules()
  planId?: string | null;

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
