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
 * Cisco wireless controllers' external web authentication: the redirect carries `switch_url` (the
 * controller's login, https://<virtual IP>/login.html), `client_mac`, `ap_mac`, `wlan`, `redirect`.
 * The hand-over posts `buttonClicked=4`, `username`, `password` and `redirect_url` to switch_url.
 */
export function parseCisco(query: GatewayQuery): GatewayContext | null {
  const loginUrl = httpUrl(param(query, 'switch_url'));
  if (loginUrl === null) return null;
  const landingUrl = httpUrl(param(query, 'redirect'));
  return {
    vendor: 'cisco',
    mac: macOf(param(query, 'client_mac')),
    ip: ipOf(param(query, 'client_ip')),
    loginUrl,
    fields: [],
    landingUrl,
    logoutUrl: null,
    opennds: null,
  };
}

export function ciscoHandover(context: GatewayContext, credentials: HandoverCredentials, landing: string): Handover {
  return {
    kind: 'form',
    action: context.loginUrl ?? '',
    method: 'post',
    fields: [
      ['buttonClicked', '4'],
      ['err_flag', '0'],
      ['username', credentials.username],
      ['password', credentials.password],
      ['redirect_url', context.landingUrl ?? landing],
    ],
  };
}

/**
 * Aruba controllers and Instant APs' external captive portal: the redirect carries `cmd=login`,
 * `mac`, `ip`, `essid`, `switchip` (the controller or virtual controller) and `url`. The hand-over
 * posts `user`, `password`, `cmd=authenticate` and `url` to https://<switchip>/cgi-bin/login.
 */
export function parseAruba(query: GatewayQuery): GatewayContext | null {
  const switchip = param(query, 'switchip');
  if (param(query, 'cmd') !== 'login' || switchip === undefined || !/^[A-Za-z0-9.:-]{1,253}$/.test(switchip))
    return null;
  const landingUrl = httpUrl(param(query, 'url'));
  return {
    vendor: 'aruba',
    mac: macOf(param(query, 'mac')),
    ip: ipOf(param(query, 'ip')),
    loginUrl: `https://${switchip.includes(':') ? `[${switchip}]` : switchip}/cgi-bin/login`,
    fields: [],
    landingUrl,
    logoutUrl: null,
    opennds: null,
  };
}

export function arubaHandover(context: GatewayContext, credentials: HandoverCredentials, landing: string): Handover {
  return {
    kind: 'form',
    action: context.loginUrl ?? '',
    method: 'post',
    fields: [
      ['user', credentials.username],
      ['password', credentials.password],
      ['cmd', 'authenticate'],
      ['url', context.landingUrl ?? landing],
    ],
  };
}
