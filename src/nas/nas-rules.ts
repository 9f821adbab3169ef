import { isIP, SocketAddress } from 'node:net';

/** What a NAS registration must satisfy. Pure functions: the CLI, the service and the tests share them. */

/** The FreeRADIUS client shortname: it is written unquoted into clients.conf, hence the narrow charset. */
const NAS_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const NAS_NAME_RULE = '1-64 characters of A-Za-z0-9_.-';

export const NAS_VENDORS = ['mikrotik', 'unifi', 'cisco', 'coova', 'pfsense', 'other'] as const;
export type NasVendor = (typeof NAS_VENDORS)[number];

/** RFC 5176's port; 0 says the NAS has no Disconnect/CoA listener. */
export const DEFAULT_COA_PORT = 3799;

const SECRET_MAX_LENGTH = 128;
const SECRET_RULE = `1-${SECRET_MAX_LENGTH} printable characters without " or \\`;

/** Whether a registered address (in the registry's spelling) is a network: a single address keeps no prefix. */
export function isNetwork(registered: string): boolean {
  return registered.includes('/');
}

/** The longest stored address: a full IPv6 address plus "/128". */
export const NAS_ADDRESS_MAX_LENGTH = 49;

export function nasNameProblem(name: string): string | null {
  return NAS_NAME_PATTERN.test(name) ? null : `must be ${NAS_NAME_RULE}`;
}

/**
 * The secret is written inside double quotes in clients.conf: a `"` or `\` would end or escape the
 * string, a control character would break the line. Length in characters (the RADIUS limit is 128
 * octets in practice for many NASes; non-ASCII is allowed but rare).
 */
export function secretProblem(secret: string): string | null {
  const length = [...secret].length;
  // eslint-disable-next-line no-control-regex
  if (length < 1 || length > SECRET_MAX_LENGTH || /["\\\u0000-\u001f\u007f-\u009f]/.test(secret)) {
    return `must be ${SECRET_RULE}`;
  }
  return null;
}

/** RFC 2865 §3: a shared secret should be at least 16 octets; shorter ones fall to an offline guess. */
export const SECRET_MIN_LENGTH = 16;

/** Why a new NAS's secret is too short (in octets, as RADIUS counts them), or null. */
export function shortSecretProblem(secret: string): string | null {
  return Buffer.byteLength(secret, 'utf8') < SECRET_MIN_LENGTH
    ? `must be at least ${SECRET_MIN_LENGTH} octets (RFC 2865 §3): a shorter one can be guessed offline from one captured packet`
    : null;
}

export function coaPortProblem(port: number): string | null {
  return Number.isInteger(port) && port >= 0 && port <= 65535
    ? null
    : 'must be an integer from 0 to 65535 (0: no CoA listener)';
}

export interface NasAddress {
  /** As stored and written to clients.conf: `192.0.2.10`, `192.0.2.0/24`, `2001:db8::/64`. */
  text: string;
  family: 4 | 6;
  address: string;
  prefixLength: number;
}

/**
 * An IPv4 or IPv6 address, or a network in CIDR notation whose host bits are zero (so the stored
 * text says exactly which sources are accepted). IPv6 is lower-cased; a single address keeps no
 * "/32" or "/128" suffix.
 */
export function parseNasAddress(raw: string): NasAddress | { error: string } {
  const error = { error: 'must be an IPv4 or IPv6 address or network, e.g. 192.0.2.10, 192.0.2.0/24, 2001:db8::/64' };
  const slash = raw.indexOf('/');
  const address = (slash === -1 ? raw : raw.slice(0, slash)).toLowerCase();
  const family = isIP(address);
  if (family === 0 || address.includes('%')) return error;
  const bits = family === 4 ? 32 : 128;
  let prefixLength = bits;
  if (slash !== -1) {
    const suffix = raw.slice(slash + 1);
    if (!/^\d{1,3}$/.test(suffix) || Number(suffix) > bits) return error;
    prefixLength = Number(suffix);
  }
  const value = addressBits(address, family);
  const hostMask = (1n << BigInt(bits - prefixLength)) - 1n;
  if ((value & hostMask) !== 0n) {
    return { error: `has host bits set: the network is written with zeros after the prefix (/${prefixLength})` };
  }
  // Requests from an IPv4 NAS arrive as IPv4 (a mapped source is read as one), so such an entry could
  // never be matched.
  if (family === 6 && value >> 32n === 0xffffn) {
    return { error: 'is an IPv4-mapped IPv6 address: write it as IPv4, e.g. 192.0.2.10 or 192.0.2.0/24' };
  }
  // One spelling per IPv6 address (RFC 5952: lower case, zeros compressed), so that two ways of
  // writing one address are one address to the duplicate checks, as they are to FreeRADIUS.
  const canonical = family === 6 ? new SocketAddress({ address, family: 'ipv6' }).address : address;
  const text = prefixLength === bits ? canonical : `${canonical}/${prefixLength}`;
  return { text, family: family as 4 | 6, address: canonical, prefixLength };
}

/** The address as an unsigned integer of 32 or 128 bits. */
function addressBits(address: string, family: number): bigint {
  if (family === 4) return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  let text = address;
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = addressBits(v4[1], 4);
    text = `${text.slice(0, v4.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part, 16)), 0n);
}
