import { ApiProperty } from '@nestjs/swagger';
import { DEVICE_STATUSES, type DeviceStatus } from '../../sessions/entities/device.entity.js';
import {
  LOGIN_METHODS,
  USER_STATUSES,
  type JsonObject,
  type LoginMethod,
  type UserStatus,
} from '../entities/hotspot-user.entity.js';
import {
  DATE_TIME_OUTPUT,
  EMAIL,
  MAC_OUTPUT,
  NULLABLE,
  PHONE,
  PLAN_ID,
  ROOM,
  USERNAME,
  VENUE_IDS,
} from './field-schemas.js';

export class DeviceDto {
  @ApiProperty(MAC_OUTPUT)
  macAddress!: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  name!: string | null;

  @ApiProperty({ enum: DEVICE_STATUSES })
  status!: DeviceStatus;

  @ApiProperty({ ...DATE_TIME_OUTPUT, example: '2026-11-22T09:30:00.000Z' })
  firstSeenAt!: string;

  @ApiProperty({ ...DATE_TIME_OUTPUT, example: '2026-11-22T10:15:00.000Z' })
  lastSeenAt!: string;
}

/** The v1 API's HotspotUser (docs/api.md, "Fields and validation"), plus `macAddress`. Unset optional fields are null; the password never appears. */
export class HotspotUserDto {
  @ApiProperty({ example: '019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b47', description: 'Opaque, time-ordered' })
  _id!: string;

  @ApiProperty({ example: 'Ayşe Yılmaz', minLength: 1, maxLength: 255 })
  name!: string;

  @ApiProperty({ ...USERNAME, ...NULLABLE })
  username!: string | null;

  @ApiProperty({ ...EMAIL, ...NULLABLE })
  email!: string | null;

  @ApiProperty({ ...PHONE, ...NULLABLE, description: 'As given' })
  phone!: string | null;

  @ApiProperty({ ...ROOM, ...NULLABLE })
  room!: string | null;

  @ApiProperty({ ...MAC_OUTPUT, ...NULLABLE, description: 'Given at creation' })
  macAddress!: string | null;

  @ApiProperty({
    enum: LOGIN_METHODS,
    description:
      'How the user logs in. `social` and `sms` are read-only: a record may show them, but creation refuses ' +
      'them (it takes `username_password` or `guest`) and no update can set or change a login method.',
  })
  loginMethod!: LoginMethod;

  @ApiProperty(VENUE_IDS)
  venueIds!: string[];

  @ApiProperty({ enum: USER_STATUSES })
  status!: UserStatus;

  @ApiProperty({ ...DATE_TIME_OUTPUT, ...NULLABLE, example: '2030-01-31T12:00:00.000Z' })
  expiresAt!: string | null;

  @ApiProperty({
    type: 'integer',
    ...NULLABLE,
    example: null,
    description:
      'Seconds of validity from the first accepted RADIUS login (an addition to v1): at that login expiresAt ' +
      'becomes its time plus validFor, or stays when it is earlier. null: none',
  })
  validFor!: number | null;

  @ApiProperty({
    ...DATE_TIME_OUTPUT,
    ...NULLABLE,
    example: null,
    description: 'The first accepted RADIUS login of a user with validFor (an addition to v1); null until then',
  })
  firstLoginAt!: string | null;

  @ApiProperty({ type: [DeviceDto], description: 'Newest lastSeenAt first' })
  devices!: DeviceDto[];

  @ApiProperty({ type: 'object', additionalProperties: true, example: { roomNumber: '1204' } })
  metadata!: JsonObject;

  @ApiProperty(DATE_TIME_OUTPUT)
  createdAt!: string;

  @ApiProperty(DATE_TIME_OUTPUT)
  updatedAt!: string;

  @ApiProperty({
    type: String,
    ...NULLABLE,
    example: '019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b48',
    description:
      'An addition to v1: the batch that generated this account (GET /api/v1/hotspot-user-batches/{id} has its ' +
      'label); null for the other users',
  })
  batchId!: string | null;

  @ApiProperty({
    ...PLAN_ID,
    ...NULLABLE,
    description:
      "An addition to v1: the user's service plan (GET /api/v1/plans/{id}); null: none of its own, the default " +
      'plan of the venue a login comes through applies',
  })
  planId!: string | null;
}

export class PaginationDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  limit!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 45, description: 'Records matching the filters' })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 3, description: 'ceil(total / limit); 0 when total is 0' })
  pages!: number;
}

export class HotspotUserListResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: [HotspotUserDto] })
  data!: HotspotUserDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}

export class HotspotUserResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: HotspotUserDto })
  data!: HotspotUserDto;
}

export class HotspotUserMessageResponseDto extends HotspotUserResponseDto {
  @ApiProperty({
    example: 'Kullanıcı başarıyla güncellendi',
    description: 'Hotspot kullanıcısı başarıyla oluşturuldu on create',
  })
  message!: string;
}

export class DeleteResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ example: 'Kullanıcı başarıyla silindi' })
  message!: string;
}

export class ExpireResultDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 2, description: 'Active sessions this call ended' })
  expiredSessions!: number;

  @ApiProperty({ type: HotspotUserDto })
  user!: HotspotUserDto;
}

export class ExpireResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ example: "Kullanıcı ve session'lar başarıyla expire edildi" })
  message!: string;

  @ApiProperty({ type: ExpireResultDto })
  data!: ExpireResultDto;
}
