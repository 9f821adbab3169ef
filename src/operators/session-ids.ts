import { createHash, randomBytes } from 'node:crypto';

/** 128 random bits, base64url: the value the browser holds. */
export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

/** What the database holds instead of a session id or a recovery code: its SHA-256, hex. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A session id as the browser may send it: 22 base64url characters. */
export function isSessionIdShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}
