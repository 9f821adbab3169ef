import {
  httpUrl,
  ipOf,
  macOf,
  param,
  type GatewayContext,
  type GatewayQuery,
  type Handover,
  type HandoverCredentials,
} from './gateway.js';

/**
 * MikroTik RouterOS hotspot with an external login page: its login.html sends the guest on with
 * `link-login-only=$(link-login-only)&mac=$(mac)&ip=$(ip)&dst=$(link-orig-esc)&link-logout=$(link-logout)`.
 * The hand-over posts `username`, `password` (PAP: the profile's login-by must include http-pap or
 * https) and `dst` to link-login-only.
 */
export function parseMikrotik(query: GatewayQuery): GatewayContext | null {
  const loginUrl = httpUrl(param(query, 'link-login-only') ?? param(query, 'link-login'));
  if (loginUrl === null) return null;
  const landingUrl = httpUrl(param(query, 'dst') ?? param(query, 'link-orig'));
  return {
    vendor: 'mikrotik',
    mac: macOf(param(query, 'mac')),
    ip: ipOf(param(query, 'ip')),
    loginUrl,
    fields: [],
    landingUrl,
    logoutUrl: httpUrl(param(query, 'link-logout')),
    opennds: null,
  };
}

export function mikrotikHandover(context: GatewayContext, credentials: HandoverCredentials, landing: string): Handover {
  return {
    kind: 'form',
    action: context.loginUrl ?? '',
    method: 'post',
    fields: [
      ['username', credentials.username],
      ['password', credentials.password],
      ['dst', context.landingUrl ?? landing],
      ['popup', 'false'],
    ],
  };
}
