import { randomBytes } from 'node:crypto';

/** 128 random bits, base64url: the value the browser holds. */
export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

/** A session id as the browser may send it: 22 base64url characters. */
export function isSessionIdShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}
