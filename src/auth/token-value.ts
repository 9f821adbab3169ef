import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'hsp_';
const SECRET_BYTES = 32;
/** Characters of a generated value kept in clear, so operators can tell tokens apart in listings. */
const VISIBLE_PREFIX_LENGTH = 12;
/** For a value chosen by an operator (BOOTSTRAP_TOKEN), little of the secret is shown. */
const FOREIGN_VISIBLE_PREFIX_LENGTH = 4;

export function generateTokenValue(): string {
  return TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/** Hex SHA-256: the only form in which a token is stored or compared. */
export function hashTokenValue(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function visiblePrefix(value: string): string {
  return value.startsWith(TOKEN_PREFIX)
    ? value.slice(0, VISIBLE_PREFIX_LENGTH)
    : value.slice(0, FOREIGN_VISIBLE_PREFIX_LENGTH);
}

const BEARER = /^Bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = BEARER.exec(header);
  return match ? match[1] : null;
}
