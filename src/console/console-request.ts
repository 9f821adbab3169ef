import type { Request } from 'express';
import type { Language } from './language.js';
import type { SessionWithOperator } from '../operators/session-with-operator.js';

/** A console request once ConsoleGuard has looked at it. */
export interface ConsoleRequest extends Request {
  consoleLanguage?: Language;
  consoleSession?: SessionWithOperator;
}

/** The request's cookies by name (the console reads two; a parser library would be more than that needs). */
export function requestCookies(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(at + 1).trim()));
    } catch {
      // A malformed escape: the cookie is not ours.
    }
  }
  return cookies;
}
