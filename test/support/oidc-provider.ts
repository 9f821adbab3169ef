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
