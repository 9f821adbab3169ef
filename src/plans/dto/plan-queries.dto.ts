import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { IsSafeText, VENUE_ID_PATTERN } from '../../common/validation/validators.js';
import { VENUE_ID_SCHEMA } from './plan-fields.js';

export class ListPlansQueryDto {
  @ApiPropertyOptional({ ...VENUE_ID_SCHEMA, description: 'Only the plans this venue offers' })
  @IsOptional()
  @IsString({ message: 'venueId must be a single string' })
  @IsSafeText()
  @Matches(VENUE_ID_PATTERN, { message: 'venueId must be 1-64 characters of A-Za-z0-9_.:-' })
  venueId?: string;
}
