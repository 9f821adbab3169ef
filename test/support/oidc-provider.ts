import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** A real OpenID provider (npm oidc-provider) on a free loopback port, with one confidential client. */
export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Stops answering: the next discovery or token request fails as a provider that is down. */
  close(): Promise<void>;
}

export interface TestIdpOptions {
  /** The redirect URI the client is registered with (the portal's callback). */
  redirectUri: string;
  clientSecret: string;
  /** The email an account gets from its login name; null: the provider gives none. */
  emailOf?: (login: string) => string | null;
}

/**
 * Its own login and consent pages (oidc-provider's development interactions: any login name with
 * any password signs in as the account of that name), PKCE required, the email claim given with
 * the `email` scope (at the userinfo endpoint: the provider keeps ID tokens to the standard claims
 * when an access token is issued).
 */
export async function startTestIdp(options: TestIdpOptions): Promise<TestIdp> {
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => {
    response.statusCode = 503;
    response.end();
  };
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const emailOf = options.emailOf ?? ((login: string) => `${login}@idp.test`);
  const configuration: Configuration = {
    clients: [
      {
        client_id: 'hotspot-portal',
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'test' }] },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    findAccount: (_context, id) => ({
      accountId: id,
      claims: () => {
        const email = emailOf(id);
        return email === null ? { sub: id } : { sub: id, email, email_verified: true };
      },
    }),
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  handler = (request, response) => void callback(request, response);
  return {
    issuer,
    clientId: 'hotspot-portal',
    clientSecret: options.clientSecret,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * A browser's walk through the provider's own pages over plain HTTP (its cookies kept): from the
 * authorization URL, sign in as `login` and give consent (or cancel at the first page), up to the
 * redirect back to `redirectUri`, which is returned (the portal's callback URL with code and state).
 */
export async function throughProvider(
  authorizationUrl: string,
  redirectUri: string,
  login: string,
  choice: 'consent' | 'cancel' = 'consent',
): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let body: string | undefined;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      body,
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(';')[0];
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    if (location !== null) {
      const next = new URL(location, url).href;
      if (next.startsWith(`${redirectUri}?`)) return next;
      [url, body] = [next, undefined];
      continue;
    }
    const html = await response.text();
    if (choice === 'cancel') {
      const abort = /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(html);
      if (abort === null) throw new Error(`no cancel link at ${url}: ${response.status}`);
      [url, body] = [new URL(abort[1].replaceAll('&amp;', '&'), url).href, undefined];
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html);
    if (action === null) throw new Error(`no form at ${url}: ${response.status} ${html.slice(0, 300)}`);
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString()
      : new URLSearchParams({ prompt: 'consent' }).toString();
    url = new URL(action[1].replaceAll('&amp;', '&'), url).href;
  }
  throw new Error('the provider did not send the browser back');
}
