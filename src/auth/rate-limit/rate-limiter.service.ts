import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppConfig } from '../../config/configuration.js';
import { CircuitBreaker } from './circuit-breaker.js';

const WINDOW_SECONDS = 60;
const KEY_PREFIX = 'hotspot:rate-limit';
const REDIS_CONNECT_TIMEOUT_MS = 2000;
/** A Redis that stops answering (a partition) must not hold requests: past this, count in memory. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export type RateLimitKind = 'token' | 'unauthenticated';
const KINDS: readonly RateLimitKind[] = ['token', 'unauthenticated'];

export type RateLimitDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; retryAfterSeconds: number };

/**
 * Counts requests per minute with rate-limiter-flexible: per token, and per client IP for
 * requests without a valid token (a stricter limit, so guessing tokens is slow); a limit of 0
 * turns that kind off. With REDIS_URL the counters are in Redis and shared by every instance.
 *
 * Redis sits behind a circuit breaker: the first call that fails (an error, or no answer within
 * REDIS_COMMAND_TIMEOUT_MS) opens it, and for the cool-down every call counts in this process's
 * memory at once, rather than each request waiting for the timeout (the library's insurance
 * limiter alone would). After the cool-down one background PING decides whether to go back.
 */
@Injectable()
export class RateLimiterService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly limits: Record<RateLimitKind, number>;
  private readonly memory: Record<RateLimitKind, RateLimiterMemory>;
  private readonly redis: Redis | null = null;
  private readonly shared: Record<RateLimitKind, RateLimiterRedis> | null = null;
  private readonly breaker: CircuitBreaker | null = null;

  constructor(config: ConfigService<AppConfig, true>) {
    const settings = config.get('rateLimit', { infer: true });
    this.limits = { token: settings.perMinute, unauthenticated: settings.unauthenticatedPerMinute };
    this.memory = {
      token: new RateLimiterMemory(this.options('token')),
      unauthenticated: new RateLimiterMemory(this.options('unauthenticated')),
    };
    if (settings.redisUrl === null || !KINDS.some((kind) => this.enabled(kind))) return;
    const redis = this.connect(settings.redisUrl);
    this.redis = redis;
    const shared = (kind: RateLimitKind) =>
      new RateLimiterRedis({ ...this.options(kind), storeClient: redis, rejectIfRedisNotReady: true });
    this.shared = { token: shared('token'), unauthenticated: shared('unauthenticated') };
    const coolDownSeconds = settings.redisCoolDownMs / 1000;
    this.breaker = new CircuitBreaker({
      coolDownMs: settings.redisCoolDownMs,
      probe: () => redis.ping(),
      onOpen: (error) =>
        this.logger.warn(
          `Redis unavailable (${messageOf(error)}): counting in memory, trying Redis again every ${coolDownSeconds} s`,
        ),
      onClose: () => this.logger.log('Redis answers again: counting in Redis'),
    });
  }

  /** Whether requests of this kind are limited at all (a limit of 0 turns the kind off). */
  enabled(kind: RateLimitKind): boolean {
    return this.limits[kind] > 0;
  }

  /** Counts one request against `key`. Call only for an enabled kind. */
  async consume(kind: RateLimitKind, key: string): Promise<RateLimitDecision> {
    const limit = this.limits[kind];
    try {
      const result = await this.call(kind, (limiter) => limiter.consume(key));
      return {
        allowed: true,
        limit,
        remaining: result.remainingPoints,
        resetSeconds: Math.ceil(result.msBeforeNext / 1000),
      };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return refused(limit, rejection);
      throw rejection;
    }
  }

  /** The refusal `key` would get if it asked now, without counting anything; null while it has budget left. */
  async exhausted(kind: RateLimitKind, key: string): Promise<RateLimitDecision | null> {
    const limit = this.limits[kind];
    const state = await this.call(kind, (limiter) => limiter.get(key));
    return state !== null && state.consumedPoints >= limit ? refused(limit, state) : null;
  }

  /**
   * Waits (at most the connect timeout) for the first Redis connection, so the first requests after
   * start-up are counted in Redis with the other instances' rather than in this process's memory.
   * A Redis that refuses or does not answer delays start-up by no more than that, and opens the breaker.
   */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (redis === null || redis.status === 'ready') return;
    const ready = await new Promise<boolean>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        resolve(redis.status === 'ready');
      };
      const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
      redis.once('ready', done);
      redis.once('error', done);
    });
    if (!ready) this.breaker?.failure(new Error('not reachable at start-up'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  /** Runs `operation` on the shared limiter while the breaker lets it, else (or when Redis fails) in memory. */
  private async call<T>(kind: RateLimitKind, operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (this.shared !== null && this.breaker !== null && this.breaker.closed) {
      try {
        return await operation(this.shared[kind]);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw error;
        this.breaker.failure(error);
      }
    }
    return operation(this.memory[kind]);
  }

  private options(kind: RateLimitKind) {
    return { points: this.limits[kind], duration: WINDOW_SECONDS, keyPrefix: `${KEY_PREFIX}:${kind}` };
  }

  private connect(url: string): Redis {
    // No offline queue: while disconnected, commands fail at once (and open the breaker) instead of
    // queueing; the command timeout does the same for a Redis that is connected but no longer answers.
    const redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    });
    // ioredis reports every failed reconnection; the breaker already said Redis is away, once.
    redis.on('error', (error: Error) => this.logger.debug(`Redis connection: ${error.message}`));
    return redis;
  }
}

function refused(limit: number, state: RateLimiterRes): RateLimitDecision {
  return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
