import { arubaHandover, ciscoHandover, parseAruba, parseCisco } from './cisco.js';
import { coovaHandover, parseCoova } from './coova.js';
import {
  NO_GATEWAY,
  type GatewayContext,
  type GatewayQuery,
  type Handover,
  type HandoverCredentials,
} from './gateway.js';
import { mikrotikHandover, parseMikrotik } from './mikrotik.js';
import { openndsHandover, parseOpennds } from './opennds.js';
import { parsePfsense, pfsenseHandover } from './pfsense.js';

/** The vendors' parsers, most specific first (openNDS's `fas` and UAM's challenge cannot be mistaken). */
const PARSERS = [parseOpennds, parseCoova, parseMikrotik, parsePfsense, parseCisco, parseAruba];

/** The gateway context a redirect's query describes; null when it names no gateway the portal knows. */
export function gatewayContextOf(query: GatewayQuery): GatewayContext | null {
  for (const parse of PARSERS) {
    const context = parse(query);
    if (context !== null) return context;
  }
  return null;
}

/**
 * The hand-over for the gateway: its login form with the credentials, openNDS's hand-back (which
 * needs the venue's faskey: null when the venue has none), or without a gateway the landing page.
 * `landing` is where the guest goes when the gateway did not say (the venue's page, or the status page).
 */
export function handoverOf(
  context: GatewayContext,
  credentials: HandoverCredentials,
  landing: string,
  faskey: string | null,
): Handover | null {
  switch (context.vendor) {
    case 'mikrotik':
      return mikrotikHandover(context, credentials, landing);
    case 'coova':
      return coovaHandover(context, credentials, landing);
    case 'pfsense':
      return pfsenseHandover(context, credentials, landing);
    case 'cisco':
      return ciscoHandover(context, credentials, landing);
    case 'aruba':
      return arubaHandover(context, credentials, landing);
    case 'opennds':
      return faskey === null ? null : openndsHandover(context, faskey, landing);
    case 'none':
      return { kind: 'redirect', location: landing };
  }
}

export { NO_GATEWAY };
