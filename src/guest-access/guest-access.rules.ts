import { sha256Hex } from '../common/sha256.js';
import { gatewayHostsProblem } from './gateway-hosts.rules.js';
import type { IdentityKind } from './entities/guest-identity.entity.js';

/** The rules of the guest portal's domain, as pure functions: no database, no clock. */

export const PORTAL_WAYS = ['voucher', 'sms', 'terms', 'social'] as const;
export type PortalWay = (typeof PORTAL_WAYS)[number];

/** A portal user stays valid this long after each sign-in unless the venue says otherwise. */
export const DEFAULT_VALIDITY_SECONDS = 24 * 3600;
export const VALIDITY_MIN_SECONDS = 60;
export const VALIDITY_MAX_SECONDS = 366 * 86_400;
/** How long a hand-over's pass lets the gateway log the guest in (it may try more than once). */
export const PASS_TTL_MS = 10 * 60 * 1000;
export const DISPLAY_NAME_MAX_LENGTH = 100;
export const LOGO_URL_MAX_LENGTH = 2048;
/** Terms and privacy texts: plain text, paragraphs split on blank lines. */
export const TEXT_MAX_LENGTH = 20_000;
/** openNDS faskeys are free text in its configuration; a long random one is what its docs advise. */
export const FASKEY_MIN_LENGTH = 8;
export const FASKEY_MAX_LENGTH = 256;

export function isPortalWay(value: string): value is PortalWay {
  return (PORTAL_WAYS as readonly string[]).includes(value);
}

/** `voucher,sms` → the ways, in the order given and without repeats; null when one is not a way. '' is none. */
export function parsePortalWays(text: string): PortalWay[] | null {
  const ways: PortalWay[] = [];
  for (const part of text.split(',').map((item) => item.trim().toLowerCase())) {
    if (part === '') continue;
    if (!isPortalWay(part)) return null;
    if (!ways.includes(part)) ways.push(part);
  }
  return ways;
}

/**
 * The version of a terms text: `t-` and the start of its SHA-256, so any change of the text is a new
 * version (and putting back an earlier text is that earlier version again). Null without terms.
 */
export function termsVersionOf(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  return `t-${sha256Hex(text.replace(/\r\n/g, '\n').trim()).slice(0, 16)}`;
}

/** The stored list's room (the column's length). */
export const GATEWAY_HOSTS_MAX_LENGTH = 1024;

export function isColour(value: string): boolean {
  return /^#[0-9a-fA-F]{6}$/.test(value);
}

/** A logo's address: https only (a portal page over https must not load mixed content). */
export function isLogoUrl(value: string): boolean {
  if (value.length > LOGO_URL_MAX_LENGTH) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The settings a venue's portal is given (the CLI, the console); each field null or absent keeps or clears as the caller says. */
export interface PortalChanges {
  ways?: PortalWay[];
  displayName?: string | null;
  logoUrl?: string | null;
  colourAccent?: string | null;
  colourBackground?: string | null;
  colourText?: string | null;
  termsText?: string | null;
  privacyText?: string | null;
  planId?: string | null;
  validitySeconds?: number;
  keepSocialEmail?: boolean;
  faskey?: string | null;
  /** Trusted gateway hosts besides private and local addresses (see gateway-hosts.rules); [] none. */
  gatewayHosts?: string[];
}

export interface PortalProblem {
  field: keyof PortalChanges;
  message: string;
}

/** What is wrong with `changes`, field by field (the first problem of each). */
export function portalChangeProblems(changes: PortalChanges): PortalProblem[] {
  const problems: PortalProblem[] = [];
  const { displayName, logoUrl, termsText, privacyText, validitySeconds, faskey, gatewayHosts } = changes;
  if (displayName != null && (displayName.trim() === '' || displayName.length > DISPLAY_NAME_MAX_LENGTH))
    problems.push({ field: 'displayName', message: `must be 1-${DISPLAY_NAME_MAX_LENGTH} characters` });
  if (logoUrl != null && !isLogoUrl(logoUrl)) problems.push({ field: 'logoUrl', message: 'must be an https URL' });
  for (const field of ['colourAccent', 'colourBackground', 'colourText'] as const) {
    const value = changes[field];
    if (value != null && !isColour(value)) problems.push({ field, message: 'must be a colour as #rrggbb' });
  }
  if (termsText != null && termsText.length > TEXT_MAX_LENGTH)
    problems.push({ field: 'termsText', message: `must be at most ${TEXT_MAX_LENGTH} characters` });
  if (privacyText != null && privacyText.length > TEXT_MAX_LENGTH)
    problems.push({ field: 'privacyText', message: `must be at most ${TEXT_MAX_LENGTH} characters` });
  if (
    validitySeconds !== undefined &&
    (!Number.isInteger(validitySeconds) ||
      validitySeconds < VALIDITY_MIN_SECONDS ||
      validitySeconds > VALIDITY_MAX_SECONDS)
  )
    problems.push({
      field: 'validitySeconds',
      message: `must be ${VALIDITY_MIN_SECONDS} to ${VALIDITY_MAX_SECONDS} seconds`,
    });
  if (faskey != null && (faskey.length < FASKEY_MIN_LENGTH || faskey.length > FASKEY_MAX_LENGTH || /\s/.test(faskey)))
    problems.push({
      field: 'faskey',
      message: `must be ${FASKEY_MIN_LENGTH}-${FASKEY_MAX_LENGTH} characters without spaces`,
    });
  const hostsProblem = gatewayHosts === undefined ? null : gatewayHostsProblem(gatewayHosts);
  if (hostsProblem !== null) problems.push({ field: 'gatewayHosts', message: hostsProblem });
  else if (gatewayHosts !== undefined && gatewayHosts.join(',').length > GATEWAY_HOSTS_MAX_LENGTH)
    problems.push({ field: 'gatewayHosts', message: `must be at most ${GATEWAY_HOSTS_MAX_LENGTH} characters in all` });
  return problems;
}

/** The terms way needs terms to show; the ways offered otherwise need nothing stored here. */
export function waysProblem(ways: readonly PortalWay[], termsText: string | null): PortalProblem | null {
  if (ways.includes('terms') && termsVersionOf(termsText) === null)
    return { field: 'ways', message: 'the terms way needs a terms text' };
  return null;
}

/**
 * The username of a user the portal makes, what the hand-over posts and the NAS shows: the phone for
 * sms (as v1 shows phones), `social-` and a digest of issuer and subject (neither is shown), `guest-`
 * and the MAC's hex digits for a device. `attempt` > 0 adds a suffix, when that name is someone
 * else's already in the venue.
 */
export function portalUsername(identity: GuestIdentityKey, suffix: string | null = null): string {
  const base =
    identity.kind === 'phone'
      ? identity.subject
      : identity.kind === 'social'
        ? `social-${sha256Hex(`${identity.issuer}\u0000${identity.subject}`).slice(0, 12)}`
        : `guest-${identity.subject.replace(/:/g, '').toLowerCase()}`;
  return suffix === null ? base : `${base}-${suffix}`;
}

export interface GuestIdentityKey {
  kind: IdentityKind;
  /** '' unless social. */
  issuer: string;
  subject: string;
}

export const LOGIN_METHOD_OF_KIND = { phone: 'sms', social: 'social', device: 'guest' } as const;

/**
 * A single-code voucher: a batch account's username and password typed as one code,
 * `USERNAME-PASSWORD` (or with a space). A batch's passwords have no `-` or space, so the last one
 * splits them. Null when there is nothing on either side.
 */
export function splitVoucherCode(code: string): { username: string; password: string } | null {
  const trimmed = code.trim();
  const at = Math.max(trimmed.lastIndexOf('-'), trimmed.lastIndexOf(' '));
  if (at <= 0 || at === trimmed.length - 1) return null;
  return { username: trimmed.slice(0, at).trim(), password: trimmed.slice(at + 1) };
}

/** Letters and digits without look-alikes, as batches print them. */
const PASS_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PASS_LENGTH = 24;

/** A hand-over pass from random bytes (at least PASS_LENGTH of them): about 139 bits. */
export function passFrom(random: Uint8Array): string {
  const usable = Math.floor(256 / PASS_ALPHABET.length) * PASS_ALPHABET.length;
  let pass = '';
  for (const byte of random) {
    if (pass.length === PASS_LENGTH) break;
    if (byte < usable) pass += PASS_ALPHABET[byte % PASS_ALPHABET.length];
  }
  if (pass.length < PASS_LENGTH) throw new Error('not enough random bytes for a pass');
  return pass;
}

/** What portal_passes keeps of a pass. */
export function passHash(pass: string): string {
  return sha256Hex(pass);
}

/** A portal user's expiry after a sign-in at `now`. */
export function portalExpiry(now: Date, validitySeconds: number): Date {
  return new Date(now.getTime() + validitySeconds * 1000);
}
