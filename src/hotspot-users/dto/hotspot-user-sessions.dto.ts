import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SESSION_STATUSES, type SessionStatus } from '../../sessions/entities/session.entity.js';
import { UserPageQueryDto } from './hotspot-user-queries.dto.js';
import { PaginationDto } from './hotspot-user.response.js';
import { DATE_TIME_OUTPUT, MAC_OUTPUT, NULLABLE, VENUE_ID_SCHEMA } from './field-schemas.js';

export const SESSION_FILTERS = ['active', 'ended'] as const;
export type SessionFilter = (typeof SESSION_FILTERS)[number];

/** `GET /hotspot-users/:id/sessions`: the venue context of a get, a status filter and a page. */
export class ListUserSessionsQueryDto extends UserPageQueryDto {
  @ApiPropertyOptional({ enum: SESSION_FILTERS, description: '`ended`: stopped by the NAS or ended by this service' })
  @IsOptional()
  @IsIn(SESSION_FILTERS, { message: 'status must be one of active, ended' })
  status?: SessionFilter;
}

// anyOf, not oneOf: null matches both branches.
const COUNTER: ApiPropertyOptions = {
  anyOf: [
    { type: 'integer', minimum: 0, nullable: true },
    { type: 'string', pattern: '^[0-9]+$', nullable: true },
  ],
  description: 'Octets (gigawords included); a decimal string beyond 2^53',
};

export class UserSessionDto {
  @ApiProperty({ example: '019a9c4e-9b10-7d42-a1c3-5e6f7a8b9c0d' })
  id!: string;

  @ApiProperty({ ...VENUE_ID_SCHEMA, example: 'istanbul-lobby' })
  venueId!: string;

  @ApiProperty({ ...MAC_OUTPUT, ...NULLABLE })
  macAddress!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '10.5.50.23' })
  ipAddress!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'lobby-gw',
    description: 'The NAS the session was reported by',
  })
  nas!: string | null;

  @ApiProperty({ enum: SESSION_STATUSES, description: '`stopped`: ended by the NAS; `expired`: ended by this service' })
  status!: SessionStatus;

  @ApiProperty({ ...DATE_TIME_OUTPUT, example: '2026-11-22T09:30:00.000Z' })
  startedAt!: string;

  @ApiProperty({ ...DATE_TIME_OUTPUT, ...NULLABLE, example: null })
  endedAt!: string | null;

  @ApiProperty({
    ...DATE_TIME_OUTPUT,
    ...NULLABLE,
    example: '2026-11-22T09:35:00.000Z',
    description: 'Last accounting update',
  })
  lastUpdateAt!: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 300,
    description: 'Seconds, as the NAS reports it',
  })
  sessionTime!: number | null;

  @ApiProperty(COUNTER)
  inputOctets!: number | string | null;

  @ApiProperty(COUNTER)
  outputOctets!: number | string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'User-Request',
    description: 'Acct-Terminate-Cause, or `enforcement`, `stale`',
  })
  terminateCause!: string | null;
}

export class UserSessionListResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: [UserSessionDto] })
  data!: UserSessionDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}
