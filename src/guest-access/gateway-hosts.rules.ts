import { BlockList, isIP } from 'node:net';

/**
 * Which gateways a venue's portal hands credentials to. A portal link carries the gateway's login URL
 * (MikroTik's link-login-only, Cisco's switch_url, openNDS's gatewayaddress…), and anyone can craft
 * such a link: the hand-over would post a guest's voucher or pass to whatever host it names. So a
 * URL is trusted only when its host is an address in a private or local range (where gateways live)
 * or one the venue lists: a host name (exact, or `*.suffix` for any name below suffix), an IP address
 * or a CIDR. Pure.
 */

/** The ranges a gateway's address is trusted in without being listed. */
const LOCAL_RANGES: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['::1', 128, 'ipv6'],
];

const LOCAL = new BlockList();
for (const [network, prefix, type] of LOCAL_RANGES) LOCAL.addSubnet(network, prefix, type);

export const GATEWAY_HOSTS_MAX = 20;
const ENTRY_MAX_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The venue's list of trusted gateway hosts as it is stored and shown: lower case, in the order given. */
export type GatewayHosts = readonly string[];

/** Why `entry` is not a host name, `*.suffix`, IP address or CIDR; null when it is one. */
export function gatewayHostProblem(entry: string): string | null {
  const text = entry.trim().toLowerCase();
  if (text === '' || text.length > ENTRY_MAX_LENGTH) return 'must not be empty or longer than 253 characters';
  if (text.includes('/')) return cidrOf(text) === null ? 'is not a valid CIDR' : null;
  if (isIP(text) !== 0) return null;
  const name = text.startsWith('*.') ? text.slice(2) : text;
  return isHostName(name) ? null : 'must be a host name, *.suffix, an IP address or a CIDR';
}

/** The entries of a comma-separated list (the CLI's and the console's), trimmed and lower case; '' is none. */
export function parseGatewayHosts(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}

/** What is wrong with a list of entries (the first bad entry, or too many); null when all are good. */
export function gatewayHostsProblem(entries: GatewayHosts): string | null {
  if (entries.length > GATEWAY_HOSTS_MAX) return `must list at most ${GATEWAY_HOSTS_MAX} hosts`;
  for (const entry of entries) {
    const problem = gatewayHostProblem(entry);
    if (problem !== null) return `${entry} ${problem}`;
  }
  return null;
}

/**
 * Whether the hand-over may send the guest's credentials, or the guest, to `url`: an http(s) URL
 * without user info whose host is a local address or one of `listed`. Anything odd is refused.
 */
export function isTrustedGatewayUrl(url: string, listed: GatewayHosts): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return isTrustedGatewayHost(parsed.hostname, listed);
}

/** Whether `host` (a URL's hostname: IPv6 in brackets, names as the URL parser normalised them) is trusted. */
export function isTrustedGatewayHost(host: string, listed: GatewayHosts): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const name = bare.toLowerCase().replace(/\.$/, '');
  const family = isIP(name);
  if (family !== 0) {
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (LOCAL.check(name, type)) return true;
    return listed.some((entry) => addressMatches(name, type, entry));
  }
  if (!isHostName(name)) return false;
  return listed.some((entry) =>
    entry.startsWith('*.') ? name.endsWith(`.${entry.slice(2)}`) && isHostName(entry.slice(2)) : entry === name,
  );
}

function addressMatches(address: string, type: 'ipv4' | 'ipv6', entry: string): boolean {
  if (entry.includes('/')) {
    const cidr = cidrOf(entry);
    if (cidr === null || cidr.type !== type) return false;
    const list = new BlockList();
    list.addSubnet(cidr.network, cidr.prefix, cidr.type);
    return list.check(address, type);
  }
  const family = isIP(entry);
  if (family === 0 || (family === 4) !== (type === 'ipv4')) return false;
  const list = new BlockList();
  list.addAddress(entry, type);
  return list.check(address, type);
}

function cidrOf(text: string): { network: string; prefix: number; type: 'ipv4' | 'ipv6' } | null {
  const [network, prefixText, extra] = text.split('/');
  if (extra !== undefined || network === undefined || !/^\d{1,3}$/.test(prefixText ?? '')) return null;
  const family = isIP(network);
  const prefix = Number(prefixText);
  if (family === 0 || prefix > (family === 4 ? 32 : 128)) return null;
  return { network, prefix, type: family === 4 ? 'ipv4' : 'ipv6' };
}

function isHostName(name: string): boolean {
  if (name === '' || name.length > ENTRY_MAX_LENGTH) return false;
  const labels = name.split('.');
  // A name of digits only would be an address in some other spelling (the URL parser makes those IPs).
  return labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels[labels.length - 1] ?? '');
}
