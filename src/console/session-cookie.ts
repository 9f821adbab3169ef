import type { Request, Response } from 'express';
import { CONSOLE_PREFIX } from './console-paths.js';
import { requestCookies } from '../web/cookies.js';

const PLAIN_NAME = 'hotspot_console';
/** The __Host- prefix makes the browser insist on Secure, Path=/ and no Domain: no subdomain can plant it. */
const HOST_NAME = '__Host-hotspot_console';

/**
 * Over HTTPS (directly, or through a proxy TRUST_PROXY trusts, whose X-Forwarded-Proto Express reads)
 * the cookie is Secure and __Host- prefixed, which requires Path=/; over plain HTTP it is kept to /admin.
 */
function cookieFor(request: Request): { name: string; path: string; secure: boolean } {
  return request.secure
    ? { name: HOST_NAME, path: '/', secure: true }
    : { name: PLAIN_NAME, path: CONSOLE_PREFIX, secure: false };
}

export function readSessionCookie(request: Request): string | undefined {
  return requestCookies(request).get(cookieFor(request).name);
}

/** A browser-session cookie: the server ends the session (idle, absolute, sign out), the browser forgets it when closed. */
export function setSessionCookie(request: Request, response: Response, sessionId: string): void {
  const { name, path, secure } = cookieFor(request);
  response.cookie(name, sessionId, { httpOnly: true, sameSite: 'strict', path, secure });
}

export function clearSessionCookie(request: Request, response: Response): void {
  const { name, path, secure } = cookieFor(request);
  response.clearCookie(name, { httpOnly: true, sameSite: 'strict', path, secure });
}
