import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { CircuitBreaker } from './circuit-breaker.js';

const REDIS_CONNECT_TIMEOUT_MS = 2000;
/** A Redis that stops answering (a partition) must not hold requests: past this, count in memory. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface SharedCountersOptions<K extends string> {
  /** The logger's context (the breaker's warnings name it). */
  name: string;
  /** Redis keys start with `<keyPrefix>:<kind>:`. */
  keyPrefix: string;
  /** Points per window of each kind; 0 turns the kind off. */
  limits: Record<K, number>;
  windowSeconds: number;
  /** Counters live in Redis when set (shared by every instance), else in this process's memory. */
  redisUrl: string | null;
  /** After Redis fails to answer, how long counting stays in memory before Redis is tried again. */
  redisCoolDownMs: number;
}

export type CountDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; retryAfterSeconds: number };

/**
 * Counters of requests per window and kind, with rate-limiter-flexible: in Redis when a URL is given
 * (shared by every instance), else in memory. Redis sits behind a circuit breaker: the first call
 * that fails (an error, or no answer within REDIS_COMMAND_TIMEOUT_MS) opens it, and for the cool-down
 * every call counts in this process's memory at once, rather than each request waiting for the
 * timeout. After the cool-down one background PING decides whether to go back. No feature: the API's
 * limiter and the portal's each hold their own.
 */
export class SharedCounters<K extends string> {
  private readonly logger: Logger;
  private readonly memory: Record<K, RateLimiterMemory>;
  private readonly redis: Redis | null = null;
  private readonly shared: Record<K, RateLimiterRedis> | null = null;
  private readonly breaker: CircuitBreaker | null = null;

  constructor(private readonly options: SharedCountersOptions<K>) {
    this.logger = new Logger(options.name);
    const kinds = Object.keys(options.limits) as K[];
    this.memory = byKind(kinds, (kind) => new RateLimiterMemory(this.limiterOptions(kind)));
    if (options.redisUrl === null || !kinds.some((kind) => this.enabled(kind))) return;
    const redis = this.connect(options.redisUrl);
    this.redis = redis;
    this.shared = byKind(
      kinds,
      (kind) => new RateLimiterRedis({ ...this.limiterOptions(kind), storeClient: redis, rejectIfRedisNotReady: true }),
    );
    const coolDownSeconds = options.redisCoolDownMs / 1000;
    this.breaker = new CircuitBreaker({
      coolDownMs: options.redisCoolDownMs,
      probe: () => redis.ping(),
      onOpen: (error) =>
        this.logger.warn(
          `Redis unavailable (${messageOf(error)}): counting in memory, trying Redis again every ${coolDownSeconds} s`,
        ),
      onClose: () => this.logger.log('Redis answers again: counting in Redis'),
    });
  }

  /** Whether requests of this kind are limited at all (a limit of 0 turns the kind off). */
  enabled(kind: K): boolean {
    return this.options.limits[kind] > 0;
  }

  /** Counts one request against `key`. Call only for an enabled kind. */
  async consume(kind: K, key: string): Promise<CountDecision> {
    const limit = this.options.limits[kind];
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
  async exhausted(kind: K, key: string): Promise<CountDecision | null> {
    const limit = this.options.limits[kind];
    const state = await this.call(kind, (limiter) => limiter.get(key));
    return state !== null && state.consumedPoints >= limit ? refused(limit, state) : null;
  }

  /**
   * Waits (at most the connect timeout) for the first Redis connection, so the first requests after
   * start-up are counted in Redis with the other instances' rather than in this process's memory.
   * A Redis that refuses or does not answer delays start-up by no more than that, and opens the breaker.
   */
  async connected(): Promise<void> {
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

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }

  /** Runs `operation` on the shared limiter while the breaker lets it, else (or when Redis fails) in memory. */
  private async call<T>(kind: K, operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
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

  private limiterOptions(kind: K) {
    return {
      points: this.options.limits[kind],
      duration: this.options.windowSeconds,
      keyPrefix: `${this.options.keyPrefix}:${kind}`,
    };
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

function byKind<K extends string, V>(kinds: readonly K[], make: (kind: K) => V): Record<K, V> {
  return Object.fromEntries(kinds.map((kind) => [kind, make(kind)])) as Record<K, V>;
}

function refused(limit: number, state: RateLimiterRes): CountDecision {
  return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
