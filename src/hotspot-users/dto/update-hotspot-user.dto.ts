import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { USER_STATUSES, type JsonObject, type UserStatus } from '../entities/hotspot-user.entity.js';
import {
  IsIsoDateTimeWithZone,
  IsMetadata,
  IsOptionalNotNull,
  IsPhone,
  IsRefused,
  IsVenueIdList,
  USERNAME_PATTERN,
} from '../../common/validation/validators.js';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

/** Every field is optional; send only what changes. `null` clears email, phone, expiresAt (and a guest's username). */
export class UpdateHotspotUserDto {
  @ApiPropertyOptional({ example: 'Ayşe Yılmaz', minLength: 1, maxLength: 255 })
  @IsOptionalNotNull()
  @IsString()
  @Transform(trim)
  @Length(1, 255)
  name?: string;

  @ApiPropertyOptional({
    example: 'room-1204',
    nullable: true,
    pattern: USERNAME_PATTERN.source,
    description: 'null or "" is refused for username_password users',
  })
  @IsOptional()
  @IsString()
  @ValidateIf((_dto, value) => value !== '')
  @Matches(USERNAME_PATTERN, { message: 'username must be 1-64 characters of letters, digits and ._@+-' })
  username?: string | null;

  @ApiPropertyOptional({ example: 'ayse@example.com', nullable: true, maxLength: 254 })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email?: string | null;

  @ApiPropertyOptional({ example: '+90 532 123 45 67', nullable: true })
  @IsOptional()
  @IsString()
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
