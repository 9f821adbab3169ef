import {
  httpUrl,
  param,
  type GatewayContext,
  type GatewayQuery,
  type Handover,
  type HandoverCredentials,
} from './gateway.js';

/**
 * pfSense and OPNsense captive portals: a portal page uploaded to the firewall sends the guest on with
 * `zone=$PORTAL_ZONE$&redirurl=$PORTAL_REDIRURL$&portal_action=$PORTAL_ACTION$` (pfSense's names;
 * OPNsense's template the same). The hand-over posts `auth_user`, `auth_pass`, `zone`, `redirurl`
 * and `accept` to the action URL, as the firewall's own login page does.
 */
export function parsePfsense(query: GatewayQuery): GatewayContext | null {
  const zone = param(query, 'zone');
  const loginUrl = httpUrl(param(query, 'portal_action'));
  if (zone === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(zone) || loginUrl === null) return null;
  const landingUrl = httpUrl(param(query, 'redirurl'));
  return {
    vendor: 'pfsense',
    mac: null,
    ip: null,
    loginUrl,
    fields: [['zone', zone]],
    landingUrl,
    logoutUrl: null,
    opennds: null,
  };
}

export function pfsenseHandover(context: GatewayContext, credentials: HandoverCredentials, landing: string): Handover {
  return {
    kind: 'form',
    action: context.loginUrl ?? '',
    method: 'post',
    fields: [
      ['auth_user', credentials.username],
      ['auth_pass', credentials.password],
      ...context.fields,
      ['redirurl', context.landingUrl ?? landing],
      ['accept', 'Login'],
    ],
  };
}
