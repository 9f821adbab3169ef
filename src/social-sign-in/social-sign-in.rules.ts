import { isIP } from 'node:net';

/** The pure rules of social sign-in: what a provider's registration accepts, and how a sign-in's state ages. */

export const PROVIDER_NAME_MAX_LENGTH = 64;
export const DISPLAY_NAME_MAX_LENGTH = 100;
export const ISSUER_MAX_LENGTH = 255;
export const CLIENT_ID_MAX_LENGTH = 255;
export const CLIENT_SECRET_MAX_LENGTH = 512;
export const SCOPES_MAX_LENGTH = 255;
/** The scopes asked for when the operator names none: the subject, and the email a venue may keep. */
export const DEFAULT_SCOPES: readonly string[] = ['openid', 'email'];
/** How long a guest has between leaving for the provider and coming back. */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A scope token as RFC 6749 §3.3 defines it. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function providerNameProblem(name: string): string | null {
  return PROVIDER_NAME.test(name) ? null : 'must be 1-64 characters of a-z0-9_- starting with a letter or digit';
}

export function displayNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > DISPLAY_NAME_MAX_LENGTH) return 'must be 1-100 characters';
  return /\p{Cc}/u.test(trimmed) ? 'must not hold control characters' : null;
}

export function clientIdProblem(clientId: string): string | null {
  if (clientId === '' || clientId.length > CLIENT_ID_MAX_LENGTH) return 'must be 1-255 characters';
  return /[\s\p{Cc}]/u.test(clientId) ? 'must not hold spaces or control characters' : null;
}

export function clientSecretProblem(secret: string): string | null {
  if (secret === '' || secret.length > CLIENT_SECRET_MAX_LENGTH) return 'must be 1-512 characters';
  return /[\p{Cc}]/u.test(secret) ? 'must not hold control characters' : null;
}

/**
 * The issuer as stored (no trailing slash added or removed: discovery compares it exactly), or why it
 * is refused. HTTPS only, but for a provider on the loopback interface (development, tests), which
 * may be plain HTTP.
 */
export function parseIssuer(raw: string): { value: string } | { error: string } {
  const text = raw.trim();
  if (text.length > ISSUER_MAX_LENGTH || !URL.canParse(text))
    return { error: 'must be a URL of at most 255 characters' };
  const url = new URL(text);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return { error: 'must have no user, password, query or fragment' };
  }
  if (url.protocol === 'https:') return { value: text };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { value: text };
  return { error: 'must be an https:// URL (http:// only on the loopback interface)' };
}

export function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname)) return true;
  return isIP(hostname) === 4 && hostname.startsWith('127.');
}

/** Whether talking to the issuer over plain HTTP is allowed (parseIssuer accepted it as loopback). */
export function isInsecureIssuer(issuer: string): boolean {
  return new URL(issuer).protocol === 'http:';
}

/**
 * The scopes from a space- or comma-separated list, deduplicated, `openid` first (OpenID Connect
 * needs it; it is added when missing), or why they are refused.
 */
export function parseScopes(raw: string): { value: string[] } | { error: string } {
  const tokens = raw.split(/[\s,]+/).filter((token) => token !== '');
  const bad = tokens.find((token) => !SCOPE_TOKEN.test(token));
  if (bad !== undefined) return { error: 'must be scope names separated by spaces or commas' };
  const scopes = ['openid', ...new Set(tokens.filter((token) => token !== 'openid'))];
  if (scopes.join(' ').length > SCOPES_MAX_LENGTH) return { error: 'must be at most 255 characters together' };
  return { value: scopes };
}

/** When a sign-in's state started at `startedAt` stops being accepted. */
export function stateExpiry(startedAt: Date): Date {
  return new Date(startedAt.getTime() + STATE_LIFETIME_MS);
}

export function isStateExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}

/** What went wrong coming back from a provider, as the guest's page tells it. */
export type SignInFailureKind = 'denied' | 'expired' | 'unknown-state' | 'provider-down' | 'refused';

/**
 * The failure a provider's error response (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.6) means
 * to the guest: the guest said no (or could not sign in there), or the provider refused the request.
 */
export function providerErrorKind(error: string): SignInFailureKind {
  const guestChoices = ['access_denied', 'login_required', 'consent_required', 'interaction_required'];
  if (guestChoices.includes(error)) return 'denied';
  return error === 'temporarily_unavailable' || error === 'server_error' ? 'provider-down' : 'refused';
}

/**
 * The email of a verified identity, lower-cased, or null: none given, or one the provider says it has
 * not verified (then it is no one's address for sure). Whether a venue keeps it is the venue's setting.
 */
export function verifiedEmail(claims: { email?: unknown; email_verified?: unknown }): string | null {
  if (typeof claims.email !== 'string') return null;
  if (claims.email_verified === false || claims.email_verified === 'false') return null;
  const email = claims.email.trim().toLowerCase();
  return email.length > 0 && email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

/** The one redirect URI every venue uses, from the URL guests reach the portal at. */
export function redirectUriOf(portalPublicUrl: string): string {
  return `${portalPublicUrl.replace(/\/+$/, '')}/portal/social/callback`;
}
