import { createHash } from 'node:crypto';
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
 * CoovaChilli and other UAM gateways: the redirect carries `res=notyet`, `uamip`, `uamport`,
 * `challenge` (32 hex), `mac`, `ip`, `userurl`. The hand-over is the browser's request to
 * `http://<uamip>:<uamport>/logon` with `username`, the password encoded as chilli decodes it (each
 * byte XOR the challenge; with no `uamsecret` configured) and `userurl`. UAM takes these only in the
 * query string: the encoded pass is in that URL, which is why it is one-time and short-lived.
 */
export function parseCoova(query: GatewayQuery): GatewayContext | null {
  const uamip = ipOf(param(query, 'uamip'));
  const uamport = Number(param(query, 'uamport') ?? '');
  const challenge = param(query, 'challenge');
  if (uamip === null || !Number.isInteger(uamport) || uamport < 1 || uamport > 65_535) return null;
  if (challenge === undefined || !/^[0-9a-f]{32}$/i.test(challenge)) return null;
  const host = uamip.includes(':') ? `[${uamip}]` : uamip;
  const landingUrl = httpUrl(param(query, 'userurl'));
  return {
    vendor: 'coova',
    mac: macOf(param(query, 'mac')),
    ip: ipOf(param(query, 'ip')),
    loginUrl: `http://${host}:${uamport}/logon`,
    fields: [['challenge', challenge.toLowerCase()]],
    landingUrl,
    logoutUrl: `http://${host}:${uamport}/logoff`,
    opennds: null,
  };
}

/** The password as chilli's redir decodes it: each byte XOR the challenge's (MD5 with uamsecret), in hex. */
export function uamPassword(password: string, challenge: string, uamsecret: string | null = null): string {
  let key = Buffer.from(challenge, 'hex');
  if (uamsecret !== null) key = createHash('md5').update(key).update(uamsecret).digest();
  const bytes = Buffer.from(password, 'utf8');
  return Buffer.from(bytes.map((byte, index) => byte ^ key[index % key.length])).toString('hex');
}

export function coovaHandover(context: GatewayContext, credentials: HandoverCredentials, landing: string): Handover {
  const challenge = context.fields.find(([name]) => name === 'challenge')?.[1] ?? '';
  return {
    kind: 'form',
    action: context.loginUrl ?? '',
    method: 'get',
    fields: [
      ['username', credentials.username],
      ['password', uamPassword(credentials.password, challenge)],
      ['userurl', context.landingUrl ?? landing],
    ],
  };
}
