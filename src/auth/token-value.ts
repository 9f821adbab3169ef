import { createHash, randomBytes } from 'node:crypto';

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
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * What is stored and listed of a token to recognise its kind: its public prefix (`hsp_` for a
 * generated one), never a character of its secret part. A value chosen by an operator
 * (BOOTSTRAP_TOKEN) without such a prefix shows nothing.
 */
export function visiblePrefix(value: string): string {
  return PUBLIC_PREFIX.exec(value)?.[0] ?? '';
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  return match ? match[1] : null;
}
