import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/configuration.js';
import { PageRefusal } from '../web/errors.js';

/**
 * The limit on the portal's forms: PORTAL_FORMS_PER_MINUTE per client IP and per device MAC (the
 * gateway's NAT may put a whole venue behind one IP at the portal: the MAC tells its guests apart,
 * and the IP limit is then the venue's). Counted in this instance's memory.
 */
@Injectable()
export class PortalLimits {
  private readonly limiter: RateLimiterMemory | null;

  constructor(config: ConfigService<AppConfig, true>) {
    const points = config.get('portalFormsPerMinute', { infer: true });
    this.limiter = points === 0 ? null : new RateLimiterMemory({ points, duration: 60, keyPrefix: 'portal-form' });
  }

  /** Counts one form of this client; a 429 page (with Retry-After) past the limit. */
  async consume(ip: string | undefined, mac: string | null): Promise<void> {
    if (this.limiter === null) return;
    const keys = [`ip:${ip ?? 'unknown'}`, ...(mac === null ? [] : [`mac:${mac}`])];
    for (const key of keys) {
      try {
        await this.limiter.consume(key);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        throw new PageRefusal(429, 'error.tooMany', {}, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      }
    }
  }
}
