import {
  clientIdProblem,
  clientSecretProblem,
  displayNameProblem,
  isStateExpired,
  parseIssuer,
  parseScopes,
  providerErrorKind,
  providerNameProblem,
  redirectUriOf,
  stateExpiry,
  STATE_LIFETIME_MS,
  verifiedEmail,
} from './social-sign-in.rules.js';

describe('social sign-in rules', () => {
  it('takes provider names of a-z0-9_- only', () => {
    expect(providerNameProblem('google')).toBeNull();
    expect(providerNameProblem('hotel-loyalty_2')).toBeNull();
    for (const bad of ['', 'Google', '-x', 'a b', 'x'.repeat(65)]) expect(providerNameProblem(bad)).not.toBeNull();
  });

  it('takes display names, client ids and secrets within their lengths and without control characters', () => {
    expect(displayNameProblem(' Google ')).toBeNull();
    expect(displayNameProblem('   ')).not.toBeNull();
    expect(displayNameProblem('a\u0007b')).not.toBeNull();
    expect(clientIdProblem('123.apps.googleusercontent.com')).toBeNull();
    expect(clientIdProblem('a b')).not.toBeNull();
    expect(clientSecretProblem('s3cr3t with space')).toBeNull();
    expect(clientSecretProblem('')).not.toBeNull();
    expect(clientSecretProblem('x'.repeat(513))).not.toBeNull();
  });

  it('takes https issuers, and http only on the loopback interface', () => {
    expect(parseIssuer(' https://accounts.google.com ')).toEqual({ value: 'https://accounts.google.com' });
    expect(parseIssuer('https://login.microsoftonline.com/common/v2.0')).toEqual({
      value: 'https://login.microsoftonline.com/common/v2.0',
    });
    expect(parseIssuer('http://127.0.0.1:4000')).toEqual({ value: 'http://127.0.0.1:4000' });
    expect(parseIssuer('http://localhost:4000/oidc')).toEqual({ value: 'http://localhost:4000/oidc' });
    for (const bad of [
      'http://idp.example.com',
      'ftp://x',
      'not a url',
      'https://u:p@idp.example.com',
      'https://x/?a=1',
    ]) {
      expect(parseIssuer(bad)).toHaveProperty('error');
    }
  });

  it('puts openid first in the scopes, once, and refuses what is not a scope', () => {
    expect(parseScopes('email profile')).toEqual({ value: ['openid', 'email', 'profile'] });
    expect(parseScopes('email,openid, email')).toEqual({ value: ['openid', 'email'] });
    expect(parseScopes('')).toEqual({ value: ['openid'] });
    expect(parseScopes('email "x"')).toHaveProperty('error');
    expect(parseScopes('s'.repeat(300))).toHaveProperty('error');
  });

  it('lets a state live ten minutes', () => {
    const start = new Date('2026-11-28T10:00:00Z');
    const expiry = stateExpiry(start);
    expect(expiry.getTime() - start.getTime()).toBe(STATE_LIFETIME_MS);
    expect(isStateExpired(expiry, new Date(expiry.getTime() - 1))).toBe(false);
    expect(isStateExpired(expiry, expiry)).toBe(true);
  });

  it("reads a provider's error as the guest's refusal, the provider's trouble, or a refusal of the request", () => {
    expect(providerErrorKind('access_denied')).toBe('denied');
    expect(providerErrorKind('consent_required')).toBe('denied');
    expect(providerErrorKind('temporarily_unavailable')).toBe('provider-down');
    expect(providerErrorKind('server_error')).toBe('provider-down');
    expect(providerErrorKind('invalid_request')).toBe('refused');
    expect(providerErrorKind('unauthorized_client')).toBe('refused');
  });

  it('keeps an email only when given and not said to be unverified, lower-cased', () => {
    expect(verifiedEmail({ email: 'Guest@Example.COM', email_verified: true })).toBe('guest@example.com');
    expect(verifiedEmail({ email: 'guest@example.com' })).toBe('guest@example.com');
    expect(verifiedEmail({ email: 'guest@example.com', email_verified: false })).toBeNull();
    expect(verifiedEmail({ email: 'guest@example.com', email_verified: 'false' })).toBeNull();
    expect(verifiedEmail({ email: 'not an email' })).toBeNull();
    expect(verifiedEmail({ email: 42 })).toBeNull();
    expect(verifiedEmail({})).toBeNull();
  });

  it('makes one redirect URI from the public URL', () => {
    expect(redirectUriOf('https://wifi.example.com')).toBe('https://wifi.example.com/portal/social/callback');
    expect(redirectUriOf('https://example.com/hotspot/')).toBe('https://example.com/hotspot/portal/social/callback');
  });
});
