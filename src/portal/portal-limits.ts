import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SharedCounters } from '../common/rate-limit/shared-counters.js';
import type { AppConfig } from '../config/configuration.js';
import { PageRefusal } from '../web/errors.js';

type PortalLimitKind = 'device' | 'source';

/**
 * The limits on the portal's forms, per minute: PORTAL_FORMS_PER_MINUTE per device (its MAC when
 * the gateway gave one, else its address) and PORTAL_FORMS_PER_SOURCE_PER_MINUTE per client address.
 * A portal hosted centrally sees every guest of a venue from the venue's one NAT address: the device
 * limit keeps one guest (or one script) slow, the larger source limit bounds what one address can
 * send however many MACs its links name. With REDIS_URL the counts are shared by every instance.
 */
@Injectable()
export class PortalLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly counters: SharedCounters<PortalLimitKind>;

  constructor(config: ConfigService<AppConfig, true>) {
    const rateLimit = config.get('rateLimit', { infer: true });
    this.counters = new SharedCounters({
      name: 'PortalLimits',
      keyPrefix: 'hotspot:portal-form',
      limits: {
        device: config.get('portalFormsPerMinute', { infer: true }),
        source: config.get('portalFormsPerSourcePerMinute', { infer: true }),
      },
      windowSeconds: 60,
      redisUrl: rateLimit.redisUrl,
      redisCoolDownMs: rateLimit.redisCoolDownMs,
    });
  }

  /** Counts one form of this client; a 429 page (with Retry-After) past either limit. */
  async consume(ip: string | undefined, mac: string | null): Promise<void> {
    const source = ip ?? 'unknown';
    const counts: Array<[PortalLimitKind, string]> = [
      ['device', mac === null ? `ip:${source}` : `mac:${mac}`],
      ['source', `ip:${source}`],
    ];
    for (const [kind, key] of counts) {
      if (!this.counters.enabled(kind)) continue;
      const decision = await this.counters.consume(kind, key);
      if (!decision.allowed) throw new PageRefusal(429, 'error.tooMany', {}, decision.retryAfterSeconds);
    }
  }

  onModuleInit(): Promise<void> {
    return this.counters.connected();
  }

  onApplicationShutdown(): Promise<void> {
    return this.counters.close();
  }
}
