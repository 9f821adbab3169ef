import { isTrustedGatewayUrl, type GatewayHosts } from '../../guest-access/gateway-hosts.rules.js';
import type { GatewayContext } from './gateway.js';

/**
 * Whether every address of the gateway a portal link names is one the venue trusts (a private or
 * local address, or one of its gateway hosts): the login URL the hand-over form posts credentials
 * to, openNDS's gateway address the browser is sent to, and the log-out link. A crafted link that
 * names any other host gets none of them. The landing URL is where the guest was going: any http(s).
 */
export function isTrustedGateway(context: GatewayContext, hosts: GatewayHosts): boolean {
  const urls = [
    context.loginUrl,
    context.logoutUrl,
    context.opennds === null ? null : `http://${context.opennds.gatewayAddress}/`,
  ];
  return urls.every((url) => url === null || isTrustedGatewayUrl(url, hosts));
}
