import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, ValidateIf } from 'class-validator';
import { USER_STATUSES, type JsonObject, type UserStatus } from '../entities/hotspot-user.entity.js';
import { IsMetadata, IsOptionalNotNull, IsRefused, IsVenueIdList } from '../../common/validation/validators.js';
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

/** Every field is optional; send only what changes. `null` clears email, phone, room, macAddress, expiresAt (and a guest's username). */
export class UpdateHotspotUserDto {
  @ApiPropertyOptional({
    example: 'Ayşe Yılmaz',
    minLength: 1,
    maxLength: 255,
    description: 'Trimmed; no control characters',
  })
  @IsOptionalNotNull()
  @NameRules()
  name?: string;

  @ApiPropertyOptional({
    ...USERNAME,
    ...NULLABLE,
    minLength: 0,
    pattern: '^[A-Za-z0-9._@+-]{0,64}$',
    description: 'null or "" clears a guest\'s username and is refused for username_password users',
  })
  @IsOptional()
  @ValidateIf((_dto, value) => value !== '')
  @UsernameRules()
  username?: string | null;

  @ApiPropertyOptional({ ...EMAIL, ...NULLABLE, description: 'null clears it' })
  @IsOptional()
  @EmailRules()
  email?: string | null;

  @ApiPropertyOptional({ ...PHONE, ...NULLABLE, description: `${PHONE.description}; null clears it` })
  @IsOptional()
  @PhoneRules()
  phone?: string | null;

  @ApiPropertyOptional({ ...ROOM, ...NULLABLE, description: `${ROOM.description}; null clears it` })
  @IsOptional()
  @RoomRules()
  room?: string | null;

  @ApiPropertyOptional({
    ...MAC_INPUT,
    ...NULLABLE,
    description: `An addition to v1: replaces the user's own MAC address (not its devices'); null clears it. ${MAC_INPUT.description}`,
  })
  @IsOptional()
  @MacAddressRules()
  macAddress?: string | null;

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
  @ExpiresAtRules()
  expiresAt?: string | null;

  @ApiPropertyOptional({ ...VALID_FOR_INPUT, ...NULLABLE })
  @IsOptional()
  @ValidForRules()
  validFor?: number | null;

  @ApiPropertyOptional({
    ...PLAN_ID,
    ...NULLABLE,
    description: "The user's service plan (offered in every venue of the user, else 422); null: none",
  })
  @IsOptional()
  @PlanIdRules()
  planId?: string | null;

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
