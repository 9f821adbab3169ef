import { sha256Hex } from '../common/sha256.js';
import { randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'hsp_';
const SECRET_BYTES = 32;
/**
 * A public prefix: 2-7 lowercase letters or digits, the first a letter, then `_` (8 characters at
 * most), like `hsp_`. Only that much of a value is ever stored in clear.
 */
const PUBLIC_PREFIX = /^[a-z][a-z0-9]{1,6}_/;

export function generateTokenValue(): string {
  return TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/** Hex SHA-256: the only form in which a token is stored or compared. */
export function hashTokenValue(value: string): string {
  return sha256Hex(value);
}

/** Characters of the secret part a listing shows, to tell tokens apart (GitHub shows as many). */
export const HINT_LENGTH = 6;
/** A secret part at least this long keeps ≥ 26 random characters (156 bits) after the hint is shown. */
const MIN_SECRET_FOR_HINT = 32;

/**
 * What is stored and listed of a token to tell it apart: its public prefix and the first
 * HINT_LENGTH characters of its secret part (`hsp_AbC12x` for a generated token), the rest never.
 * A value chosen by an operator (BOOTSTRAP_TOKEN) shows the hint only when its secret part is as
 * long as a generated one's could be shortened to safely, and its public prefix alone (or nothing) otherwise.
 */
export function visiblePrefix(value: string): string {
  const prefix = PUBLIC_PREFIX.exec(value)?.[0] ?? '';
  const secret = value.slice(prefix.length);
  return prefix !== '' && secret.length >= MIN_SECRET_FOR_HINT ? prefix + secret.slice(0, HINT_LENGTH) : prefix;
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  return match ? match[1] : null;
}
