import { sha256Hex } from '../common/sha256.js';
import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as openid from 'openid-client';
import { Clock } from '../common/clock.js';
import type { AppConfig } from '../config/configuration.js';
import { DatabaseService } from '../database/database.service.js';
import { NasSecretUnavailableError } from '../nas/secret-box.js';
import { SocialSignInStateEntity } from './entities/social-sign-in-state.entity.js';
import { OpenIdClients } from './openid-clients.js';
import {
  SocialProvidersService,
  type SocialProvider,
  type SocialProviderWithSecret,
} from './social-providers.service.js';
import { SocialSignInRepository } from './social-sign-in.repository.js';
import {
  isStateExpired,
  providerErrorKind,
  redirectUriOf,
  stateExpiry,
  verifiedEmail,
  type SignInFailureKind,
} from './social-sign-in.rules.js';

/** Where to send the guest, and the value that binds the sign-in to the guest's browser (a cookie's). */
export interface SocialSignInStart {
  authorizationUrl: string;
  binding: string;
}

/** Who the provider says the guest is, its ID token verified. */
export interface VerifiedSocialIdentity {
  venueId: string;
  providerId: string;
  /** The ID token's `iss`: with `subject`, the identity. */
  issuer: string;
  subject: string;
  /** A verified email, lower-cased, or null; whether to keep it is the venue's setting. */
  email: string | null;
  /** The terms version the guest accepted before leaving for the provider (begin's). */
  termsVersion: string | null;
}

/** Why a sign-in did not start or come back; `venueId` when the state named one (for a way back). */
export class SocialSignInFailure extends Error {
  override name = 'SocialSignInFailure';
  constructor(
    readonly kind: SignInFailureKind | 'unknown-provider',
    readonly venueId: string | null,
  ) {
    super(`social sign-in failed: ${kind}`);
  }
}

type EmailClaims = { email?: unknown; email_verified?: unknown };

const BINDING_BYTES = 32;
/** Longer than any state this service makes (43 characters): not worth hashing. */
const STATE_MAX_LENGTH = 128;

/**
 * OpenID Connect's authorization code flow with PKCE, state and nonce, for the guest portal: begin()
 * keeps the state's hash, the nonce and the verifier server-side and answers the provider's URL;
 * complete() takes the state back once, exchanges the code and verifies the ID token (openid-client).
 */
@Injectable()
export class SocialSignInService {
  private readonly logger = new Logger('SocialSignIn');
  private readonly redirectUri: string | null;
  /** Issuer → the origin of its authorization endpoint, as discovery found it (the same origin, for most). */
  private readonly authorizationOrigins = new Map<string, string>();

  constructor(
    private readonly database: DatabaseService,
    private readonly repository: SocialSignInRepository,
    private readonly providers: SocialProvidersService,
    private readonly clients: OpenIdClients,
    private readonly clock: Clock,
    config: ConfigService<AppConfig, true>,
  ) {
    const publicUrl = config.get('socialSignIn', { infer: true }).publicUrl;
    this.redirectUri = publicUrl === null ? null : redirectUriOf(publicUrl);
  }

  /** The redirect URI to register with every provider; null when PORTAL_PUBLIC_URL is unset (no social sign-in). */
  get callbackUrl(): string | null {
    return this.redirectUri;
  }

  /** The providers the portal of `venueId` shows; none while social sign-in is off. */
  async offeredAt(venueId: string): Promise<SocialProvider[]> {
    return this.redirectUri === null ? [] : this.providers.offeredAt(venueId);
  }

  /**
   * The origins a page with buttons for `providers` sends the guest to (its form's redirect goes
   * there, and the page's Content-Security-Policy must allow it): each issuer's, and its authorization
   * endpoint's when discovery placed it elsewhere.
   */
  formTargets(providers: readonly SocialProvider[]): string[] {
    const origins = new Set(providers.map((provider) => new URL(provider.issuer).origin));
    for (const provider of providers) {
      const authorization = this.authorizationOrigins.get(provider.issuer);
      if (authorization !== undefined) origins.add(authorization);
    }
    return [...origins];
  }

  /**
   * Starts a sign-in with `providerId` at `venueId`, the guest having accepted `termsVersion` of the
   * venue's terms (null: none); SocialSignInFailure when it cannot.
   */
  async begin(venueId: string, providerId: string, termsVersion: string | null): Promise<SocialSignInStart> {
    const redirectUri = this.redirectUri;
    if (redirectUri === null) throw new SocialSignInFailure('unknown-provider', venueId);
    const provider = await this.provider(providerId, venueId);
    const configuration = await this.configuration(provider, venueId);
    const state = openid.randomState();
    const codeVerifier = openid.randomPKCECodeVerifier();
    const binding = randomBytes(BINDING_BYTES).toString('base64url');
    const now = this.clock.now();
    const record = new SocialSignInStateEntity();
    record.stateHash = sha256Hex(state);
    record.bindingHash = sha256Hex(binding);
    record.providerId = provider.id;
    record.venueId = venueId;
    record.termsVersion = termsVersion;
    record.nonce = openid.randomNonce();
    record.codeVerifier = codeVerifier;
    record.createdAt = now;
    record.expiresAt = stateExpiry(now);
    await this.database.transaction(async (em) => {
      await this.repository.deleteExpiredStates(em, now);
      await this.repository.insertState(em, record);
    });
    const url = openid.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: provider.scopes.join(' '),
      state,
      nonce: record.nonce,
      code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    this.authorizationOrigins.set(provider.issuer, url.origin);
    return { authorizationUrl: url.href, binding };
  }

  /**
   * The provider's answer at the callback (its query, and the binding cookie's value): the state is
   * taken (it works once), then the code exchanged and the ID token verified. SocialSignInFailure
   * for a forged, replayed, foreign or expired state, a refusal and a provider that does not answer.
   */
  async complete(query: URLSearchParams, binding: string | null): Promise<VerifiedSocialIdentity> {
    const state = query.get('state');
    const redirectUri = this.redirectUri;
    if (redirectUri === null || state === null || state === '' || state.length > STATE_MAX_LENGTH) {
      throw new SocialSignInFailure('unknown-state', null);
    }
    const record = await this.database.transaction(async (em) => {
      const found = await this.repository.findState(em, sha256Hex(state));
      return found !== null && (await this.repository.deleteState(em, found.stateHash)) ? found : null;
    });
    if (record === null) throw new SocialSignInFailure('unknown-state', null);
    // Another browser's state (a link sent to a guest to sign them in as someone else): refused.
    if (binding === null || !sameDigest(sha256Hex(binding), record.bindingHash)) {
      throw new SocialSignInFailure('unknown-state', record.venueId);
    }
    if (isStateExpired(record.expiresAt, this.clock.now())) throw new SocialSignInFailure('expired', record.venueId);
    const error = query.get('error');
    if (error !== null) throw new SocialSignInFailure(providerErrorKind(error), record.venueId);
    const provider = await this.provider(record.providerId, record.venueId);
    const configuration = await this.configuration(provider, record.venueId);
    const callback = new URL(redirectUri);
    callback.search = query.toString();
    let tokens: Awaited<ReturnType<typeof openid.authorizationCodeGrant>>;
    try {
      tokens = await openid.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: record.codeVerifier,
        expectedState: state,
        expectedNonce: record.nonce,
        idTokenExpected: true,
      });
    } catch (failure) {
      throw this.providerFailure(failure, provider, record.venueId);
    }
    const claims = tokens.claims();
    if (claims === undefined) throw new SocialSignInFailure('refused', record.venueId);
    let email = verifiedEmail(claims as EmailClaims);
    if (email === null && provider.scopes.includes('email')) {
      email = await this.userInfoEmail(configuration, tokens.access_token, claims.sub, provider);
    }
    const { venueId, termsVersion } = record;
    return { venueId, providerId: provider.id, issuer: claims.iss, subject: claims.sub, email, termsVersion };
  }

  /**
   * The email from the userinfo endpoint, for providers that keep ID tokens to the standard claims;
   * null when it has none or does not answer (the sign-in stands without it).
   */
  private async userInfoEmail(
    configuration: openid.Configuration,
    accessToken: string,
    subject: string,
    provider: SocialProvider,
  ): Promise<string | null> {
    if (configuration.serverMetadata().userinfo_endpoint === undefined) return null;
    try {
      return verifiedEmail(await openid.fetchUserInfo(configuration, accessToken, subject));
    } catch (error) {
      this.logger.warn(`Userinfo of provider "${provider.name}" failed: ${describe(error)}`);
      return null;
    }
  }

  private async provider(providerId: string, venueId: string): Promise<SocialProviderWithSecret> {
    let provider: SocialProviderWithSecret | null;
    try {
      provider = await this.database.run((em) => this.providers.forSignIn(em, providerId, venueId));
    } catch (error) {
      if (error instanceof NasSecretUnavailableError) {
        this.logger.error(`Social sign-in provider ${providerId}: ${error.message}`);
        throw new SocialSignInFailure('provider-down', venueId);
      }
      throw error;
    }
    if (provider === null) throw new SocialSignInFailure('unknown-provider', venueId);
    return provider;
  }

  private async configuration(provider: SocialProviderWithSecret, venueId: string): Promise<openid.Configuration> {
    try {
      return await this.clients.configuration(provider);
    } catch (error) {
      this.logger.warn(`Discovery at ${provider.issuer} (provider "${provider.name}") failed: ${describe(error)}`);
      throw new SocialSignInFailure('provider-down', venueId);
    }
  }

  /** What a failed code exchange or ID token check means; logged by kind, never with a token or secret. */
  private providerFailure(failure: unknown, provider: SocialProvider, venueId: string): SocialSignInFailure {
    this.logger.warn(`Sign-in with provider "${provider.name}" failed: ${describe(failure)}`);
    if (failure instanceof openid.ResponseBodyError) {
      return new SocialSignInFailure(failure.status >= 500 ? 'provider-down' : 'refused', venueId);
    }
    if (failure instanceof openid.AuthorizationResponseError) {
      return new SocialSignInFailure(providerErrorKind(failure.error), venueId);
    }
    const unreachable = failure instanceof TypeError || (failure instanceof Error && failure.name === 'TimeoutError');
    return new SocialSignInFailure(unreachable ? 'provider-down' : 'refused', venueId);
  }
}

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a, 'ascii'), Buffer.from(b, 'ascii'));
}

/** An error's kind for a log line: its name, code and OAuth error, not its message (which may quote a response). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const parts = [error.name];
  const { code, error: oauthError, status } = error as { code?: unknown; error?: unknown; status?: unknown };
  if (typeof code === 'string') parts.push(code);
  if (typeof oauthError === 'string') parts.push(oauthError);
  if (typeof status === 'number') parts.push(`HTTP ${status}`);
  // The library's own checks (a claim that does not match, a bad signature) word their message themselves.
  if (typeof code === 'string' && code.startsWith('OAUTH_') && !(error instanceof openid.ResponseBodyError)) {
    parts.push(error.message);
  }
  return parts.join(' ');
}
