import type { HotspotUserEntity } from './entities/hotspot-user.entity.js';

/**
 * The search of a venue's users by prefix (`q` on the list): the keys a venue row keeps for it, how
 * `q` becomes the prefix of each key, and the index range a prefix reads. Pure functions; the writer
 * stores the keys, the repository reads the ranges.
 *
 * - name, username, email: case and accents folded (NFD with the combining marks dropped, Turkish
 *   dotless ı as i, lower case), runs of white space as one space, trimmed;
 * - phone: its digits alone (spaces, dashes, brackets and a leading + dropped);
 * - MAC (the user's own and its devices'): read from the stored `AA:BB:CC:DD:EE:FF` form, so `q`'s
 *   hex digits become that form's prefix (`aabb.c` → `AA:BB:C`) when `q` is made of hex digits and
 *   separators only and has 2 to 12 of them.
 */

/** The lengths of the key columns, in characters. */
export const SEARCH_KEY_LENGTHS = { searchName: 255, searchUsername: 64, searchEmail: 254, searchPhone: 16 } as const;

export const SEARCH_QUERY_MAX_LENGTH = 64;

export interface SearchKeys {
  searchName: string | null;
  searchUsername: string | null;
  searchEmail: string | null;
  searchPhone: string | null;
}

/** What a venue row keeps to be found by: unlike the uniqueness keys, an expired user keeps them too. */
export function searchKeysOf(user: Pick<HotspotUserEntity, 'name' | 'username' | 'email' | 'phone'>): SearchKeys {
  return {
    searchName: cut(foldedText(user.name), SEARCH_KEY_LENGTHS.searchName),
    searchUsername: user.username === null ? null : cut(foldedText(user.username), SEARCH_KEY_LENGTHS.searchUsername),
    searchEmail: user.email === null ? null : cut(foldedText(user.email), SEARCH_KEY_LENGTHS.searchEmail),
    searchPhone: user.phone === null ? null : cut(phoneDigits(user.phone), SEARCH_KEY_LENGTHS.searchPhone),
  };
}

/** Case, accents and white space folded: `  İstanbul   Şube ` → `istanbul sube`. */
export function foldedText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** The prefix `q` means for each kind of key; null where `q` cannot be one (letters are no phone). */
export interface SearchPrefixes {
  text: string | null;
  phone: string | null;
  mac: string | null;
}

const PHONE_QUERY = /^\+?[0-9 ()-]+$/;
const MAC_QUERY = /^[0-9A-Fa-f:.-]+$/;

export function searchPrefixes(q: string): SearchPrefixes {
  const text = cut(foldedText(q), SEARCH_KEY_LENGTHS.searchName);
  const trimmed = q.trim();
  const digits = PHONE_QUERY.test(trimmed) ? phoneDigits(trimmed) : '';
  const hex = MAC_QUERY.test(trimmed) ? trimmed.replace(/[^0-9A-Fa-f]/g, '').toUpperCase() : '';
  return {
    text: text === '' ? null : text,
    phone: digits === '' || digits.length > SEARCH_KEY_LENGTHS.searchPhone ? null : digits,
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
