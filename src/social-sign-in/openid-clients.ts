import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as openid from 'openid-client';
import { Clock } from '../common/clock.js';
import { isInsecureIssuer } from './social-sign-in.rules.js';

/** Seconds a provider has to answer any request (discovery, keys, token) before the guest is told it is down. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** How long a provider's discovered configuration (and so its signing keys' cache) is reused. */
const CONFIGURATION_TTL_MS = 60 * 60 * 1000;
const MAX_CONFIGURATIONS = 100;

/** The client side of one provider: where it is and who this service is to it. */
export interface OpenIdClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * openid-client configurations (discovery done, keys cached), one per provider and client
 * registration, kept for an hour so that a sign-in costs the provider one token request. A failed
 * discovery is not kept: the next guest tries again.
 */
@Injectable()
export class OpenIdClients {
  private readonly configurations = new Map<string, { configuration: openid.Configuration; until: number }>();

  constructor(private readonly clock: Clock) {}

  async configuration(settings: OpenIdClientSettings): Promise<openid.Configuration> {
    // The secret's digest, not the secret, names the entry: a changed secret makes a new one.
    const key = createHash('sha256')
      .update(JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]))
      .digest('base64url');
    const now = this.clock.now().getTime();
    const cached = this.configurations.get(key);
    if (cached !== undefined && cached.until > now) return cached.configuration;
    const configuration = await discover(settings);
    this.configurations.delete(key);
    this.configurations.set(key, { configuration, until: now + CONFIGURATION_TTL_MS });
    if (this.configurations.size > MAX_CONFIGURATIONS) {
      this.configurations.delete(this.configurations.keys().next().value as string);
    }
    return configuration;
  }
}

/**
 * Discovery, then the client authentication the provider takes: client_secret_basic, the default of
 * OpenID Connect, unless its metadata lists only client_secret_post.
 */
async function discover(settings: OpenIdClientSettings): Promise<openid.Configuration> {
  const insecure = isInsecureIssuer(settings.issuer);
  const options: openid.DiscoveryRequestOptions = { timeout: PROVIDER_TIMEOUT_SECONDS };
  // Plain HTTP only for a provider on the loopback interface (parseIssuer allows nothing else).
  if (insecure) options.execute = [openid.allowInsecureRequests];
  const discovered = await openid.discovery(
    new URL(settings.issuer),
    settings.clientId,
    undefined,
    openid.ClientSecretBasic(settings.clientSecret),
    options,
  );
  const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
  if (methods === undefined || methods.includes('client_secret_basic')) return discovered;
  const configuration = new openid.Configuration(
    discovered.serverMetadata(),
    settings.clientId,
    undefined,
    openid.ClientSecretPost(settings.clientSecret),
  );
  configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (insecure) openid.allowInsecureRequests(configuration);
  return configuration;
}
