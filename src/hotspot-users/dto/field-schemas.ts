import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ISO_DATE_TIME_WITH_ZONE } from '../../common/validation/iso-date-time.js';
import { EMAIL_MAX_LENGTH, MAC_FORMS, PHONE_CHARACTERS, PHONE_MAX_LENGTH } from '../../common/validation/normalise.js';
import { MAX_VENUES_PER_USER, USERNAME_PATTERN, VENUE_ID_PATTERN } from '../../common/validation/validators.js';

/*
 * OpenAPI schemas of the user's fields, as the validators accept them and the API returns them.
 * A `string | null` property is reflected as an object by @nestjs/swagger: each says `type: String`.
 */

/** One value of venueIds or a venueId parameter. */
export const VENUE_ID_SCHEMA = {
  type: 'string',
  pattern: VENUE_ID_PATTERN.source,
  minLength: 1,
  maxLength: 64,
} as const;

export const VENUE_IDS: ApiPropertyOptions = {
  type: 'array',
  items: VENUE_ID_SCHEMA,
  minItems: 1,
  maxItems: MAX_VENUES_PER_USER,
  example: ['istanbul-lobby'],
};

export const USERNAME: ApiPropertyOptions = {
  type: String,
  pattern: USERNAME_PATTERN.source,
  minLength: 1,
  maxLength: 64,
  example: 'room-1204',
};

/** Internationalised local parts are accepted (`İlkay@example.com`), so the format is idn-email. */
export const EMAIL: ApiPropertyOptions = {
  type: String,
  format: 'idn-email',
  maxLength: EMAIL_MAX_LENGTH,
  example: 'ayse@example.com',
};

export const PHONE: ApiPropertyOptions = {
  type: String,
  pattern: PHONE_CHARACTERS.source,
  maxLength: PHONE_MAX_LENGTH,
  example: '+90 532 123 45 67',
  description: '7-15 digits, optionally a leading +, spaces, -, ( and ); uniqueness compares the digits',
};

/** Any of the four accepted forms, in either case. */
export const MAC_INPUT: ApiPropertyOptions = {
  type: String,
  pattern: `^(?:${MAC_FORMS.map((form) => form.source.slice(1, -1).replace(/[()]/g, '')).join('|')})$`,
  example: 'aa-bb-cc-dd-ee-ff',
  description: 'AA:BB:CC:DD:EE:FF, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff or aabbccddeeff; returned as AA:BB:CC:DD:EE:FF',
};

/** As stored and returned. */
export const MAC_OUTPUT: ApiPropertyOptions = {
  type: String,
  pattern: '^[0-9A-F]{2}(?::[0-9A-F]{2}){5}$',
  example: 'AA:BB:CC:DD:EE:FF',
};

/** ISO 8601 with a zone: seconds optional, an offset with or without its colon (wider than RFC 3339's date-time). */
export const DATE_TIME_INPUT: ApiPropertyOptions = {
  type: String,
  pattern: ISO_DATE_TIME_WITH_ZONE.source,
  example: '2030-01-31T12:00:00Z',
};

/** Every timestamp the API returns: UTC with milliseconds. */
export const DATE_TIME_OUTPUT: ApiPropertyOptions = {
  type: String,
  format: 'date-time',
  example: '2026-11-22T09:00:00.000Z',
};

export const NULLABLE = { nullable: true } as const;

/** A plan's `_id` (GET /api/v1/plans). */
export const PLAN_ID: ApiPropertyOptions = {
  type: String,
  pattern: '^[0-9A-Za-z-]{1,36}$',
  example: '019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b49',
};

export const ROOM_MAX_LENGTH = 32;

/** Where the guest stays; the desk's own spelling, found by `q`. */
export const ROOM: ApiPropertyOptions = {
  type: String,
  minLength: 1,
  maxLength: ROOM_MAX_LENGTH,
  example: '1204',
  description: 'Trimmed; 1-32 characters, no control characters',
};

/** validFor: a minute to a leap year, in whole seconds. */
export const VALID_FOR_MIN_SECONDS = 60;
export const VALID_FOR_MAX_SECONDS = 366 * 86_400;

export const VALID_FOR_INPUT: ApiPropertyOptions = {
  type: 'integer',
  minimum: VALID_FOR_MIN_SECONDS,
  maximum: VALID_FOR_MAX_SECONDS,
  example: 86_400,
  description:
    'Seconds of validity counted from the first accepted RADIUS login (an addition to v1), e.g. 86400 for ' +
    '"24 hours from the first login": that login sets expiresAt to its time plus validFor, or keeps an earlier ' +
    'expiresAt. Once the first login happened, a new validFor changes nothing. username_password users only',
};
