import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { USER_STATUSES, type UserStatus } from '../entities/hotspot-user.entity.js';
import { MAC_INPUT, VENUE_ID_SCHEMA } from './field-schemas.js';
import { HasCharacters, IsMacAddress, IsSafeText } from '../../common/validation/validators.js';
import {
  MAC_SUFFIX_MIN_DIGITS,
  PHONE_SUFFIX_MIN_DIGITS,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCHABLE_FIELDS,
  type SearchKind,
} from '../user-search.rules.js';

import {
  CONTEXT_VENUE_DESCRIPTION,
  LimitField,
  LIST_VENUE_DESCRIPTION,
  PageField,
  VenueIdField,
} from './query-fields.js';

export { DEFAULT_LIMIT, DEFAULT_PAGE, MAX_LIMIT, MAX_PAGE, VENUE_ID_MESSAGE } from './query-fields.js';

/** `?venueId=` on get, update and delete; the body of POST expire. */
export class VenueContextDto {
  @VenueIdField(CONTEXT_VENUE_DESCRIPTION)
  venueId?: string;
}

/** A page of what belongs to one user (its sessions, its unauth jobs), with the venue context of a get. */
export class UserPageQueryDto {
  @VenueIdField(CONTEXT_VENUE_DESCRIPTION)
  venueId?: string;

  @PageField()
  page?: string;

  @LimitField()
  limit?: string;
}

/** The body of POST expire: the venue context, where null means unset, as on create. */
export class ExpireHotspotUserDto extends VenueContextDto {
  @ApiPropertyOptional({
    ...VENUE_ID_SCHEMA,
    nullable: true,
    description:
      "Must be one of the token's venues and of the user's, e.g. istanbul-lobby. Absent or null: the first of " +
      "the user's venues within the token's",
  })
  @Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))
  declare venueId?: string;
}

/** `a`, `a or b`, `a, b or c` (with `and`: `a, b and c`). */
function listed(words: readonly string[], last: 'or' | 'and'): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** What `q`'s help says of each kind of key, given the fields of that kind. */
const KIND_HELP: Record<SearchKind, (fields: string[]) => string> = {
  text: (fields) =>
    `${listed(fields, 'and')} ignore${fields.length === 1 ? 's' : ''} case, accents and repeated spaces`,
  phone: (fields) => `a ${listed(fields, 'or')} prefix ignores spaces, dashes, brackets and a leading +`,
  phoneSuffix: (fields) =>
    `a ${listed(fields, 'or')} is also found by its last ${PHONE_SUFFIX_MIN_DIGITS} or more digits or its national ` +
    'form (leading zeros dropped: 0532 111 22 33)',
};

/** Each searchable field once (the phone has two keys). */
const SEARCHED_FIELDS = [...new Set(SEARCHABLE_FIELDS.map(({ field }) => field))];

const SEARCH_KINDS = [...new Set(SEARCHABLE_FIELDS.map(({ kind }) => kind))];

function fieldsOfKind(kind: SearchKind): string[] {
  return SEARCHABLE_FIELDS.filter((searchable) => searchable.kind === kind).map(({ field }) => field);
}

const KINDS_HELP = SEARCH_KINDS.map((kind) => KIND_HELP[kind](fieldsOfKind(kind))).join('; ');

/** `q`'s help, naming the searchable fields from their list (user-search.rules.ts). */
const SEARCH_DESCRIPTION =
  'Search (an addition to v1), e.g. +90 532: users whose ' +
  `${listed([...SEARCHED_FIELDS, 'MAC'], 'or')} (their own or a device's) starts with ` +
  'this, within the venue and the other filters; any word of the name counts (a surname alone finds it). ' +
  `${KINDS_HELP.charAt(0).toUpperCase()}${KINDS_HELP.slice(1)}; a MAC prefix of 2-12 hex digits matches in any ` +
  `separator form, and ${MAC_SUFFIX_MIN_DIGITS}-12 hex digits match a MAC's end too. % and _ match themselves.`;

/** `batchAccounts`: whether the list holds the batches' accounts. */
export const BATCH_ACCOUNTS = ['include', 'exclude'] as const;

export class ListHotspotUsersQueryDto {
  @VenueIdField(LIST_VENUE_DESCRIPTION)
  venueId?: string;

  @ApiPropertyOptional({ enum: USER_STATUSES })
  @IsOptional()
  @IsIn(USER_STATUSES, { message: 'status must be one of active, blocked, expired' })
  status?: UserStatus;

  @ApiPropertyOptional({
    type: String,
    pattern: MAC_INPUT.pattern,
    description: 'Any accepted MAC form, e.g. AA:BB:CC:DD:EE:FF; matches the user or its devices',
  })
  @IsOptional()
  @IsString({ message: 'macAddress must be a single string' })
  @IsSafeText()
  @IsMacAddress()
  macAddress?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: SEARCH_QUERY_MAX_LENGTH,
    // No `example`: the docs page would type it into the filter; the description gives one.
    description: SEARCH_DESCRIPTION,
  })
  @IsOptional()
  @IsString({ message: 'q must be a single string' })
  @IsSafeText()
  @HasCharacters(1, SEARCH_QUERY_MAX_LENGTH)
  q?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 36,
    description:
      'An addition to v1: only the accounts of this batch (POST /api/v1/hotspot-user-batches), within the venue and ' +
      'the status and macAddress filters, e.g. 019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b48; not combined with q (400). An ' +
      'unknown batch id lists nothing.',
  })
  @IsOptional()
  @IsString({ message: 'batchId must be a single string' })
  @IsSafeText()
  @HasCharacters(1, 36)
  batchId?: string;

  @ApiPropertyOptional({
    enum: BATCH_ACCOUNTS,
    description:
      "An addition to v1: `exclude` leaves out every batch's accounts (vouchers), with the total counted without " +
      'them; absent or `include`: every user, as v1 lists them. `exclude` is not combined with q or batchId (400).',
  })
  @IsOptional()
  @IsIn(BATCH_ACCOUNTS, { message: 'batchAccounts must be one of include, exclude' })
  batchAccounts?: (typeof BATCH_ACCOUNTS)[number];

  @PageField()
  page?: string;

  @LimitField()
  limit?: string;
}
