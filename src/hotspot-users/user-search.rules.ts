import { USERNAME_MAX_LENGTH } from '../common/validation/normalise.js';
import type { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';

/**
 * The search of a venue's users by prefix (`q` on the list): the keys a venue row keeps for it, how
 * `q` becomes the prefix of each key, and the index range a prefix reads. Pure functions; the writer
 * stores the keys, the repository reads the ranges.
 *
 * - the keys of SEARCHABLE_FIELDS, one per field, each folded by its kind: `text` (name, username,
 *   email, room) with case and accents folded (NFD with the combining marks dropped, Turkish dotless ı as
 *   i, lower case), runs of white space as one space, trimmed; `phone` as its digits alone (spaces,
 *   dashes, brackets and a leading + dropped); `q` is folded the same way for each kind;
 * - MAC (the user's own and its devices'): read from the stored `AA:BB:CC:DD:EE:FF` form, so `q`'s
 *   hex digits become that form's prefix (`aabb.c` → `AA:BB:C`) when `q` is made of hex digits and
 *   separators only and has 2 to 12 of them.
 */

/**
 * The fields `q` finds a user by, each once: the user's field it reads, the key the venue row keeps
 * for it (property and column of HotspotUserVenueEntity, and the column's length in characters), the
 * index over (venue, key) a prefix is read through, and its kind: how the key is folded from the
 * field, and which of the SearchPrefixes of `q` is looked for in it. The key type, the keys a venue
 * row is written with, the search's SQL and the `q` help are made from this list; a field added here
 * also needs its column and index on the entity and in a migration pair (tests compare them).
 */
export const SEARCHABLE_FIELDS = [
  {
    field: 'name',
    key: 'searchName',
    column: 'search_name',
    length: 255,
    index: 'idx_user_venues_search_name',
    kind: 'text',
  },
  {
    field: 'username',
    key: 'searchUsername',
    column: 'search_username',
    length: USERNAME_MAX_LENGTH,
    index: 'idx_user_venues_search_username',
    kind: 'text',
  },
  {
    field: 'email',
    key: 'searchEmail',
    column: 'search_email',
    length: 254,
    index: 'idx_user_venues_search_email',
    kind: 'text',
  },
  {
    field: 'phone',
    key: 'searchPhone',
    column: 'search_phone',
    length: 16,
    index: 'idx_user_venues_search_phone',
    kind: 'phone',
  },
  {
    field: 'room',
    key: 'searchRoom',
    column: 'search_room',
    length: 32,
    index: 'idx_user_venues_search_room',
    kind: 'text',
  },
] as const satisfies readonly SearchableField[];

/** How a kind of key is folded from its field, and how `q` is read for it (searchPrefixes). */
export type SearchKind = 'text' | 'phone';

export interface SearchableField {
  /** A text field of the user (null when unset). */
  field: {
    [F in keyof HotspotUserEntity]: HotspotUserEntity[F] extends string | null ? F : never;
  }[keyof HotspotUserEntity];
  key: keyof HotspotUserVenueEntity;
  column: string;
  length: number;
  index: string;
  kind: SearchKind;
}

type Searchable = (typeof SEARCHABLE_FIELDS)[number];

export const SEARCH_QUERY_MAX_LENGTH = 64;

/** The search keys of a venue row, one per searchable field. */
export type SearchKeys = { [F in Searchable as F['key']]: string | null };

const FOLDS: Record<SearchKind, (value: string) => string> = { text: foldedText, phone: phoneDigits };

/** What a venue row keeps to be found by: unlike the uniqueness keys, an expired user keeps them too. */
export function searchKeysOf(user: Pick<HotspotUserEntity, Searchable['field']>): SearchKeys {
  return Object.fromEntries(
    SEARCHABLE_FIELDS.map(({ field, key, length, kind }) => {
      const value = user[field];
      return [key, value === null ? null : cut(FOLDS[kind](value), length)];
    }),
  ) as SearchKeys;
}

/** The longest key of a kind: a prefix of `q` longer than that is no prefix of any key of the kind. */
function longestKey(kind: SearchKind): number {
  return Math.max(...SEARCHABLE_FIELDS.filter((searchable) => searchable.kind === kind).map(({ length }) => length));
}

/** Case, accents and white space folded: `  İstanbul   Şube ` → `istanbul sube`. */
export function foldedText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** The prefix `q` means for each kind of key; null where `q` cannot be one (letters are no phone). */
export type SearchPrefixes = Record<SearchKind | 'mac', string | null>;

const PHONE_QUERY = /^\+?[0-9 ()-]+$/;
const MAC_QUERY = /^[0-9A-Fa-f:.-]+$/;

export function searchPrefixes(q: string): SearchPrefixes {
  const text = cut(foldedText(q), longestKey('text'));
  const trimmed = q.trim();
  const digits = PHONE_QUERY.test(trimmed) ? phoneDigits(trimmed) : '';
  const hex = MAC_QUERY.test(trimmed) ? trimmed.replace(/[^0-9A-Fa-f]/g, '').toUpperCase() : '';
  return {
    text: text === '' ? null : text,
    phone: digits === '' || digits.length > longestKey('phone') ? null : digits,
    mac: hex.length < 2 || hex.length > 12 ? null : (hex.match(/.{1,2}/g) ?? []).join(':'),
  };
}

/**
 * The rows whose key starts with `prefix`: `key >= from AND key < to` (to null: no upper bound) is
 * the index range, `key LIKE like ESCAPE '!'` keeps it exact whatever the column's collation pads;
 * `%`, `_` and `!` in the prefix are escaped, so they match themselves.
 */
export interface PrefixRange {
  from: string;
  to: string | null;
  like: string;
}

export const LIKE_ESCAPE = '!';

export function prefixRange(prefix: string): PrefixRange {
  return { from: prefix, to: successor(prefix), like: `${prefix.replace(/[%_!]/g, (c) => `!${c}`)}%` };
}

/** The least string greater than every string starting with `prefix`, in code point order; null if none. */
export function successor(prefix: string): string | null {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return String.fromCodePoint(...points, next);
    }
  }
  return null;
}

/** At most `length` code points, as the key's column counts them. */
function cut(text: string, length: number): string {
  const points = [...text];
  return points.length <= length ? text : points.slice(0, length).join('');
}
