import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/configuration.js';
import { SharedCounters, type CountDecision } from '../../common/rate-limit/shared-counters.js';

export { REDIS_COMMAND_TIMEOUT_MS } from '../../common/rate-limit/shared-counters.js';

export type RateLimitKind = 'token' | 'unauthenticated';

export type RateLimitDecision = CountDecision;

/**
 * Counts requests per minute: per token, and per client IP for requests without a valid token (a
 * stricter limit, so guessing tokens is slow); a limit of 0 turns that kind off. With REDIS_URL the
 * counters are in Redis and shared by every instance, behind a circuit breaker that counts in memory
 * while Redis does not answer (SharedCounters).
 */
@Injectable()
export class RateLimiterService implements OnModuleInit, OnApplicationShutdown {
  private readonly counters: SharedCounters<RateLimitKind>;

  constructor(config: ConfigService<AppConfig, true>) {
    const settings = config.get('rateLimit', { infer: true });
    this.counters = new SharedCounters({
      name: 'RateLimit',
      keyPrefix: 'hotspot:rate-limit',
      limits: { token: settings.perMinute, unauthenticated: settings.unauthenticatedPerMinute },
      windowSeconds: 60,
      redisUrl: settings.redisUrl,
      redisCoolDownMs: settings.redisCoolDownMs,
    });
  }

  /** Whether requests of this kind are limited at all (a limit of 0 turns the kind off). */
  enabled(kind: RateLimitKind): boolean {
    return this.counters.enabled(kind);
  }

  /** Counts one request against `key`. Call only for an enabled kind. */
  consume(kind: RateLimitKind, key: string): Promise<RateLimitDecision> {
    return this.counters.consume(kind, key);
  }

  /** The refusal `key` would get if it asked now, without counting anything; null while it has budget left. */
  exhausted(kind: RateLimitKind, key: string): Promise<RateLimitDecision | null> {
    return this.counters.exhausted(kind, key);
  }

  /** Waits (briefly) for the first Redis connection, so the first requests count with the other instances'. */
  onModuleInit(): Promise<void> {
    return this.counters.connected();
  }

  onApplicationShutdown(): Promise<void> {
    return this.counters.close();
  }
}
