import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { IsIntegerString, IsSafeText, VENUE_ID_PATTERN } from '../../common/validation/validators.js';
import { VENUE_ID_SCHEMA } from './field-schemas.js';

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_PAGE = 1_000_000;

export const VENUE_ID_MESSAGE = 'venueId must be 1-64 characters of A-Za-z0-9_.:-';

/** The description of `?venueId=` on a list: which venue's rows. */
export const LIST_VENUE_DESCRIPTION =
  'Required unless the token is restricted to exactly one venue, e.g. istanbul-lobby';
/** The description of `?venueId=` on a user's get, change or page: the venue context. */
export const CONTEXT_VENUE_DESCRIPTION = "Must be one of the token's venues and of the user's, e.g. istanbul-lobby";

/** An optional `venueId` of a query or body: one string of the venue id pattern, described as `description` says. */
export function VenueIdField(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ ...VENUE_ID_SCHEMA, description }),
    IsOptional(),
    IsString({ message: 'venueId must be a single string' }),
    IsSafeText(),
    Matches(VENUE_ID_PATTERN, { message: VENUE_ID_MESSAGE }),
  );
}

/** `?page=`: 1 to MAX_PAGE, default 1. */
export function PageField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE }),
    IsOptional(),
    IsIntegerString(1, MAX_PAGE),
  );
}

/** `?limit=`: 1 to MAX_LIMIT, default 20. */
export function LimitField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
    IsOptional(),
    IsIntegerString(1, MAX_LIMIT),
  );
}
