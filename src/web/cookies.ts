import type { Request } from 'express';

/** The request's cookies by name (a page reads one or two; a parser library would be more than that needs). */
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
