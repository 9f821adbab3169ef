import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppConfig } from '../../config/configuration.js';

const WINDOW_SECONDS = 60;
const KEY_PREFIX = 'hotspot:rate-limit';
const REDIS_CONNECT_TIMEOUT_MS = 2000;
/** A Redis that stops answering (a partition) must not hold requests: past this, count in memory. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

export type RateLimitKind = 'token' | 'unauthenticated';

export type RateLimitDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; retryAfterSeconds: number };

/**
 * Counts requests per minute with rate-limiter-flexible: per token, and per client IP for
 * requests without a valid token (a stricter limit, so guessing tokens is slow). With REDIS_URL
 * the counters are in Redis and shared by every instance; should Redis fail, each instance falls
 * back to counting in its own memory (the library's insurance limiter) rather than letting
 * everything through or refusing everything.
 */
@Injectable()
export class RateLimiterService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis | null;
  private readonly limiters: Record<RateLimitKind, RateLimiterAbstract> | null;
  private readonly limits: Record<RateLimitKind, number>;

  constructor(config: ConfigService<AppConfig, true>) {
    const settings = config.get('rateLimit', { infer: true });
    this.limits = { token: settings.perMinute, unauthenticated: settings.unauthenticatedPerMinute };
    this.redis = settings.perMinute > 0 && settings.redisUrl !== null ? this.connect(settings.redisUrl) : null;
    this.limiters = settings.perMinute === 0 ? null : { token: this.limiter('token'), unauthenticated: this.limiter('unauthenticated') };
  }

  get enabled(): boolean {
    return this.limiters !== null;
  }

  async consume(kind: RateLimitKind, key: string): Promise<RateLimitDecision> {
    const limit = this.limits[kind];
    if (this.limiters === null) return { allowed: true, limit, remaining: limit, resetSeconds: 0 };
    try {
      const result = await this.limiters[kind].consume(key);
      return { allowed: true, limit, remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }

  /**
   * Waits (at most the connect timeout) for the first Redis connection, so the first requests after
   * start-up are counted in Redis with the other instances' rather than in this process's memory.
   * A Redis that refuses or does not answer delays start-up by no more than that.
   */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (redis === null || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
      redis.once('ready', done);
      redis.once('error', done);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  private limiter(kind: RateLimitKind): RateLimiterAbstract {
    const options = { points: this.limits[kind], duration: WINDOW_SECONDS, keyPrefix: `${KEY_PREFIX}:${kind}` };
    if (this.redis === null) return new RateLimiterMemory(options);
    return new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) });
  }

  private connect(url: string): Redis {
    // The library's advice: no offline queue, so a Redis outage fails fast into the insurance limiter;
    // the command timeout does the same for a Redis that is connected but no longer answers.
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    });
    let lastWarning = 0;
    redis.on('error', (error: Error) => {
      if (Date.now() - lastWarning < 10_000) return;
      lastWarning = Date.now();
      this.logger.warn(`Redis unavailable, counting in memory: ${error.message}`);
    });
    return redis;
  }
}
