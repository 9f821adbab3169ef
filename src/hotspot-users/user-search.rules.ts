import { foldedText, reversedMac } from '../common/search/search-folds.js';
import { USERNAME_MAX_LENGTH } from '../common/validation/normalise.js';
import type { HotspotUserNameWordEntity } from './entities/hotspot-user-name-word.entity.js';
import type { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';

/**
 * The search of a venue's users as a front desk types it (`q` on the list): the keys a venue row
 * keeps for it, how `q` becomes the prefix of each key, and the index range a prefix reads. Every
 * search is a prefix of some indexed key; a suffix is a prefix of a key stored backwards. Pure
 * functions; the writer stores the keys, the repository reads the ranges.
 *
 * - the keys of SEARCHABLE_FIELDS, each folded by its kind: `text` (name, username, email, room)
 *   with case and accents folded (NFD with the combining marks dropped, Turkish dotless ı as i, lower
 *   case), runs of white space as one space, trimmed; `phone` as its digits alone (spaces, dashes,
 *   brackets and a leading + dropped); `phoneSuffix` as those digits backwards, so the last digits or
 *   the national form of a number (`0532 111 22 33`: its leading zeros dropped while at least
 *   PHONE_SUFFIX_MIN_DIGITS digits remain) find it; `q` is folded the same way for each kind;
 * - the name's other words (nameWordsOf): the name from each word after the first on, so a surname
 *   alone (`yilmaz`) or a middle and last name find it, kept in a table of their own (one row per word);
 * - MAC (the user's own and its devices'): read from the stored `AA:BB:CC:DD:EE:FF` form, so `q`'s
 *   hex digits become that form's prefix (`aabb.c` → `AA:BB:C`) when `q` is made of hex digits and
 *   separators only and has 2 to 12 of them; and with 4 to 12 of them, its suffix, read from the
 *   MAC stored backwards (reversedMac: `4e5f` → `F5:E4`).
 */

/**
 * The keys `q` finds a user by: the user's field each reads (the phone twice: by its start and by its end), the key the venue row keeps
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
    field: 'phone',
    key: 'searchPhoneSuffix',
    column: 'search_phone_suffix',
    length: 16,
    index: 'idx_user_venues_search_phone_suffix',
    kind: 'phoneSuffix',
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
export type SearchKind = 'text' | 'phone' | 'phoneSuffix';

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

/** The fewest digits a phone's end is searched by: fewer would find too many numbers to be useful. */
export const PHONE_SUFFIX_MIN_DIGITS = 4;
/** The fewest hex digits a MAC's end is searched by. */
export const MAC_SUFFIX_MIN_DIGITS = 4;
/** A name word's key is cut to `q`'s longest: a longer key could never be told from its start. */
export const NAME_WORD_LENGTH = SEARCH_QUERY_MAX_LENGTH;
/** Words of a name after the first that are kept as keys; further words are found only from an earlier one. */
export const NAME_WORDS_MAX = 16;

/** The search keys of a venue row, one per searchable field. */
export type SearchKeys = { [F in Searchable as F['key']]: string | null };

const FOLDS: Record<SearchKind, (value: string) => string> = {
  text: foldedText,
  phone: phoneDigits,
  phoneSuffix: (phone) => reversed(phoneDigits(phone)),
};

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

export { foldedText };

/** The name word rows of a user in each of its venues, with its status and creation time. */
export function nameWordRowsOf(
  user: Pick<HotspotUserEntity, 'id' | 'name' | 'status' | 'createdAt'>,
  venueIds: readonly string[],
): HotspotUserNameWordEntity[] {
  const words = nameWordsOf(user.name);
  const initials = words.map(initialOf);
  return venueIds.flatMap((venueId) =>
    words.map((word, i) => ({
      userId: user.id,
      venueId,
      word,
      userStatus: user.status,
      userCreatedAt: user.createdAt,
      sharesInitial: initials.some((initial, j) => j !== i && initial === initials[i]),
    })),
  );
}

/** A word's first character (code point), as SQL's one-character SUBSTR reads it. */
function initialOf(word: string): string {
  return String.fromCodePoint(word.codePointAt(0)!);
}

/**
 * Whether a page of a name word's `matches` (users) is read by walking the venue's words newest first
 * rather than sorting the matches: the walk reads about (offset + limit) x venueUsers / matches
 * rows before its page is complete, the sort reads and sorts every match; the walk is taken only
 * when it reads at most half as many rows, so a rare word (a walk through the whole venue) never is.
 */
export function walksNewestFirst(
  matches: number,
  venueUsers: number,
  page: { offset: number; limit: number },
): boolean {
  return matches > 0 && 2 * (page.offset + page.limit) * venueUsers <= matches * matches;
}

/**
 * The name word rows to delete and to write to go from `before` to `after` (nameWordRowsOf): a row
 * whose status, creation time or shared initial changed is in both (deleted, then written again).
 */
export function nameWordChanges(
  before: readonly HotspotUserNameWordEntity[],
  after: readonly HotspotUserNameWordEntity[],
): { removed: HotspotUserNameWordEntity[]; added: HotspotUserNameWordEntity[] } {
  const identity = (row: HotspotUserNameWordEntity) =>
    JSON.stringify([row.venueId, row.word, row.userStatus, row.userCreatedAt.getTime(), row.sharesInitial]);
  const was = new Set(before.map(identity));
  const is = new Set(after.map(identity));
  return {
    removed: before.filter((row) => !is.has(identity(row))),
    added: after.filter((row) => !was.has(identity(row))),
  };
}

/**
 * The keys of a name's words after the first (the first is the name's own key): the folded name from
 * each letter or digit that follows another character on (`Ayşe Nur Yılmaz-Demir` → `nur yilmaz-demir`,
 * `yilmaz-demir`, `demir`), each cut to NAME_WORD_LENGTH, without repeats, at most NAME_WORDS_MAX.
 */
export function nameWordsOf(name: string): string[] {
  const folded = foldedText(name);
  const words = new Set<string>();
  for (const match of folded.matchAll(/(?<=[^\p{L}\p{N}])[\p{L}\p{N}]/gu)) {
    if (words.size === NAME_WORDS_MAX) break;
    words.add(cut(folded.slice(match.index), NAME_WORD_LENGTH));
  }
  return [...words];
}

export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/**
 * The prefix `q` means for each kind of key; null where `q` cannot be one (letters are no phone):
 * `word` for the name's words, `mac` and `macSuffix` for the stored MAC and the MAC backwards.
 */
export type SearchPrefixes = Record<SearchKind | 'word' | 'mac' | 'macSuffix', string | null>;

const PHONE_QUERY = /^\+?[0-9 ()-]+$/;
const MAC_QUERY = /^[0-9A-Fa-f:.-]+$/;

export function searchPrefixes(q: string): SearchPrefixes {
  const text = cut(foldedText(q), longestKey('text'));
  const trimmed = q.trim();
  const digits = PHONE_QUERY.test(trimmed) ? phoneDigits(trimmed) : '';
  // A national form's trunk 0 (any leading zeros) is dropped while 4 digits remain: the rest ends the
  // number, and so does what was typed (`0007` stays, as the last digits it is).
  const stripped = digits.replace(/^0+/, '');
  const national = stripped.length >= PHONE_SUFFIX_MIN_DIGITS ? stripped : digits;
  const hex = MAC_QUERY.test(trimmed) ? trimmed.replace(/[^0-9A-Fa-f]/g, '').toUpperCase() : '';
  return {
    text: text === '' ? null : text,
    phone: digits === '' || digits.length > longestKey('phone') ? null : digits,
    phoneSuffix:
      national.length < PHONE_SUFFIX_MIN_DIGITS || national.length > longestKey('phoneSuffix')
        ? null
        : reversed(national),
    word: text === '' || [...text].length > NAME_WORD_LENGTH ? null : text,
    mac: hex.length < 2 || hex.length > 12 ? null : pairs(hex),
    macSuffix: hex.length < MAC_SUFFIX_MIN_DIGITS || hex.length > 12 ? null : pairs(reversed(hex)),
  };
}

/** What a user is read for to tell why a search found it (its own and its devices' MACs). */
export type SearchedUser = Pick<HotspotUserEntity, Searchable['field'] | 'macAddress'> & {
  deviceMacs: readonly string[];
};

/** The fields a search match names, in the order searchMatchOf tries them. */
export const SEARCH_MATCH_FIELDS = [...new Set(SEARCHABLE_FIELDS.map(({ field }) => field)), 'mac'] as const;

/** Why `search` found a user: the first field (in the list's order) that matches, with its value as stored. */
export interface SearchMatch {
  field: Searchable['field'] | 'mac';
  value: string;
}

/** The field that made `search` find `user`, as the repository's SQL would; null if none (it was not found). */
export function searchMatchOf(search: SearchPrefixes, user: SearchedUser): SearchMatch | null {
  const starts = (key: string, prefix: string | null) => prefix !== null && key.startsWith(prefix);
  for (const { field, kind, length } of SEARCHABLE_FIELDS) {
    const value = user[field];
    if (value === null) continue;
    const key = cut(FOLDS[kind](value), length);
    if (starts(key, search[kind])) return { field, value };
    if (field === 'name' && nameWordsOf(value).some((word) => starts(word, search.word))) return { field, value };
  }
  for (const mac of [user.macAddress, ...user.deviceMacs]) {
    if (mac !== null && (starts(mac, search.mac) || starts(reversedMac(mac), search.macSuffix))) {
      return { field: 'mac', value: mac };
    }
  }
  return null;
}

function reversed(text: string): string {
  return [...text].reverse().join('');
}

/** Hex digits in pairs, as a MAC's stored form writes them: `AABBC` → `AA:BB:C`. */
function pairs(hex: string): string {
  return (hex.match(/.{1,2}/g) ?? []).join(':');
}

/**
 * The rows whose key starts with `prefix`: `key >= from AND key < to` (to null: no upper bound) is
 * the index range. The range alone is exact in code point order, and under a collation that pads
 * with spaces too (MariaDB's utf8mb4_bin), unless the prefix holds a character below the space or
 * ends with one: only then (or without an upper bound) `key LIKE like ESCAPE '!'` keeps it exact.
 * Left out otherwise: SQLite compiles a statement whose LIKE pattern is a parameter again on every
 * run. `%`, `_` and `!` in the prefix are escaped, so they match themselves.
 */
export interface PrefixRange {
  from: string;
  to: string | null;
  like: string | null;
}

export const LIKE_ESCAPE = '!';

export function prefixRange(prefix: string): PrefixRange {
  const to = successor(prefix);
  const rangeIsExact = to !== null && !prefix.endsWith(' ') && [...prefix].every((character) => character >= ' ');
  return { from: prefix, to, like: rangeIsExact ? null : `${prefix.replace(/[%_!]/g, (c) => `!${c}`)}%` };
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
