import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SESSION_FILTERS, type SessionFilter, UserSessionDto } from './hotspot-user-sessions.dto.js';
import { PaginationDto } from './hotspot-user.response.js';
import { LimitField, LIST_VENUE_DESCRIPTION, PageField, VenueIdField } from './query-fields.js';

/** `GET /sessions`: the venue rules and paging of the users list, and a status filter. */
export class ListVenueSessionsQueryDto {
  @VenueIdField(LIST_VENUE_DESCRIPTION)
  venueId?: string;

  @ApiPropertyOptional({
    enum: SESSION_FILTERS,
    description: '`active`: online now; `ended`: stopped by the NAS or ended by this service. Absent: all',
  })
  @IsOptional()
  @IsIn(SESSION_FILTERS, { message: 'status must be one of active, ended' })
  status?: SessionFilter;

  @PageField()
  page?: string;

  @LimitField()
  limit?: string;
}

/** A session of a venue: a user's session, with whose it is and whether it is stale. */
export class VenueSessionDto extends UserSessionDto {
  @ApiProperty({ example: '019a9c4e-8f00-7a11-b2c3-1d2e3f4a5b6c', description: 'The hotspot user of the session' })
  userId!: string;

  @ApiProperty({
    type: Boolean,
    example: false,
    description:
      'Active, reported by RADIUS accounting, and with no accounting update for longer than the stale window ' +
      '(RADIUS_STALE_AFTER_SECONDS), after which the stale sweep ends it',
  })
  stale!: boolean;
}

export class VenueSessionListResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: [VenueSessionDto] })
  data!: VenueSessionDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}
