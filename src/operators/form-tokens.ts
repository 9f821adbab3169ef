import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * One-time form tokens of the console: each form a page shows carries one, and a POST that changes
 * something must bring one of its own session. A token is a random nonce and its MAC, keyed with the
 * session's id (the secret the browser holds in its cookie, of which the database keeps only a hash):
 * only a page of that session can have made it, so a token of another session, or a forged one, does
 * not check. Nothing is stored when a page is made; a token is stored when it is used, in the
 * transaction of the change it brought (ConsoleFormTokensService).
 */

const NONCE_BYTES = 16;
const MAC_BYTES = 16;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;
/** Domain separation: a MAC made with the session id for anything else never passes for a form token. */
const PURPOSE = 'hotspot console form token\n';

function macOf(sessionId: string, nonce: string): Buffer {
  return createHmac('sha256', sessionId)
    .update(PURPOSE + nonce, 'utf8')
    .digest()
    .subarray(0, MAC_BYTES);
}

/** A new token of the session whose id (the cookie's value) is `sessionId`: `nonce.mac`, base64url. */
export function newFormToken(sessionId: string): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  return `${nonce}.${macOf(sessionId, nonce).toString('base64url')}`;
}

/** Whether `token` was made for the session `sessionId` (false for any other text, of any length). */
export function isFormTokenOf(token: string, sessionId: string): boolean {
  const parts = TOKEN_SHAPE.exec(token);
  if (parts === null) return false;
  // Compared as text: a MAC written another way (base64url's last character has spare bits) is
  // another token, which must not check, or one form could be sent twice under two spellings.
  const expected = Buffer.from(macOf(sessionId, parts[1]).toString('base64url'), 'ascii');
  return timingSafeEqual(Buffer.from(parts[2], 'ascii'), expected);
}
