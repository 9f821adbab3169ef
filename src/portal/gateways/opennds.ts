import { createHash } from 'node:crypto';
import {
  MAX_URL_LENGTH,
  httpUrl,
  ipOf,
  macOf,
  param,
  type GatewayContext,
  type GatewayQuery,
  type Handover,
} from './gateway.js';

/**
 * openNDS as a Forwarding Authentication Service at level 1 (`fas_secure_enabled 1`): the redirect
 * carries `fas`, base64 of `key=value` items separated by ", " (hid, clientip, clientmac, gatewayname,
 * gatewayurl, gatewayaddress, originurl, …; items without `=` are skipped). The hand-back is the
 * guest's browser sent to `http://<gatewayaddress>/opennds_auth/?tok=<sha256hex(hid + faskey)>&redir=…`:
 * openNDS lets through the address that makes that request. The token is openNDS's own protocol: it
 * is in that URL because openNDS takes it nowhere else, and is worth nothing without this hid.
 */
export function parseOpennds(query: GatewayQuery): GatewayContext | null {
  const fas = param(query, 'fas');
  if (fas === undefined || fas.length > 4 * MAX_URL_LENGTH) return null;
  const items = fasItems(fas);
  const hid = items.get('hid');
  const gatewayAddress = items.get('gatewayaddress');
  if (hid === undefined || !/^[0-9a-f]{16,128}$/i.test(hid)) return null;
  if (gatewayAddress === undefined || !/^[0-9A-Za-z.:[\]-]{1,64}$/.test(gatewayAddress)) return null;
  return {
    vendor: 'opennds',
    mac: macOf(items.get('clientmac')),
    ip: ipOf(items.get('clientip')),
    loginUrl: null,
    fields: [],
    landingUrl: httpUrl(decoded(items.get('originurl'))),
    logoutUrl: null,
    opennds: { hid, gatewayAddress },
  };
}

/** The items of a `fas` value: base64 (standard or URL-safe) of `k=v, k=v, …`. */
export function fasItems(fas: string): Map<string, string> {
  const text = Buffer.from(fas.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  const items = new Map<string, string>();
  for (const item of text.split(', ')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const name = item.slice(0, at).trim();
    if (!items.has(name)) items.set(name, item.slice(at + 1).trim());
  }
  return items;
}

/** openNDS's token for a client: the SHA-256 (hex) of its hid followed by the gateway's faskey. */
export function openndsToken(hid: string, faskey: string): string {
  return createHash('sha256')
    .update(hid + faskey, 'utf8')
    .digest('hex');
}

export function openndsHandover(context: GatewayContext, faskey: string, landing: string): Handover {
  const { hid, gatewayAddress } = context.opennds ?? { hid: '', gatewayAddress: '' };
  const redir = context.landingUrl ?? landing;
  return {
    kind: 'redirect',
    location: `http://${gatewayAddress}/opennds_auth/?tok=${openndsToken(hid, faskey)}&redir=${encodeURIComponent(redir)}`,
  };
}

function decoded(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
