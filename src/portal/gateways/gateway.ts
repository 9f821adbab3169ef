/**
 * What a gateway (the NAS that trapped the guest) told the portal in its redirect, as every vendor's
 * rules read it, and what the hand-over answers. Pure: no request, no clock.
 */

export const GATEWAY_VENDORS = ['mikrotik', 'coova', 'pfsense', 'cisco', 'aruba', 'opennds', 'none'] as const;
export type GatewayVendor = (typeof GATEWAY_VENDORS)[number];

/** The redirect's query parameters: the first value of each, as text. */
export type GatewayQuery = Readonly<Record<string, string>>;

export interface GatewayContext {
  vendor: GatewayVendor;
  /** The guest's MAC (AA:BB:CC:DD:EE:FF) and IP address, when the gateway gave them. */
  mac: string | null;
  ip: string | null;
  /** Where the hand-over form sends the credentials (http or https); null: nowhere (openNDS, none). */
  loginUrl: string | null;
  /** The gateway's own fields the form sends with the credentials, in order. */
  fields: Array<[string, string]>;
  /** Where the guest was going (userurl, originurl, dst…); null: the venue's page. */
  landingUrl: string | null;
  /** The gateway's log-out link for the status page; null when it has none. */
  logoutUrl: string | null;
  /** openNDS only: the hand-back's hid and gateway address (ip:port). */
  opennds: { hid: string; gatewayAddress: string } | null;
}

/** The credentials the hand-over gives the gateway. */
export interface HandoverCredentials {
  username: string;
  password: string;
}

/**
 * The hand-over: a form the browser submits to the gateway (auto-submitted, with a visible button
 * for browsers without JavaScript), or a redirect of the browser (openNDS's hand-back; no gateway
 * known: the landing page).
 */
export type Handover =
  | { kind: 'form'; action: string; method: 'post' | 'get'; fields: Array<[string, string]> }
  | { kind: 'redirect'; location: string };

export const NO_GATEWAY: GatewayContext = {
  vendor: 'none',
  mac: null,
  ip: null,
  loginUrl: null,
  fields: [],
  landingUrl: null,
  logoutUrl: null,
  opennds: null,
};

/** The longest URL the portal keeps from a redirect. */
export const MAX_URL_LENGTH = 2048;

/** An http(s) URL without credentials, or null. */
export function httpUrl(value: string | undefined): string | null {
  if (value === undefined || value === '' || value.length > MAX_URL_LENGTH) return null;
  try {
    const url = new URL(value);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '')
      return null;
    return url.toString();
  } catch {
    return null;
  }
}

const MAC =
  /^([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})[:-]?([0-9a-f]{2})$/i;

/** A MAC in any of the usual forms (aa:bb…, AA-BB…, aabbcc…) as AA:BB:CC:DD:EE:FF; null otherwise. */
export function macOf(value: string | undefined): string | null {
  const parts = value === undefined ? null : MAC.exec(value.trim());
  return parts === null ? null : parts.slice(1, 7).join(':').toUpperCase();
}

/** An IPv4 or IPv6 address as text, or null. */
export function ipOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^(\d{1,3})(\.\d{1,3}){3}$/.test(text) && text.split('.').every((part) => Number(part) <= 255)) return text;
  if (/^[0-9a-f:]+$/i.test(text) && text.includes(':') && text.length <= 45) return text.toLowerCase();
  return null;
}

/** The query's value of `name` when it is present and not empty. */
export function param(query: GatewayQuery, name: string): string | undefined {
  const value = query[name];
  return value === undefined || value === '' ? undefined : value;
}
