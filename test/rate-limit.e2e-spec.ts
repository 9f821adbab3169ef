import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import type { Response } from 'supertest';
import { ApiTokenService } from '../src/auth/api-token.service.js';
import { REDIS_COMMAND_TIMEOUT_MS } from '../src/auth/rate-limit/rate-limiter.service.js';
import { createTestDatabase, databaseKinds, type DatabaseKind } from './support/databases.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Rate limits as a caller sees them: per token (RATE_LIMIT_PER_MINUTE), per client IP for requests
 * without a valid token (RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE), 429 with Retry-After past the
 * limit, X-RateLimit-* on counted responses, probes never counted, TRUST_PROXY deciding whether
 * X-Forwarded-For names the client, and counters shared by instances through Redis.
 *
 * The window is one minute and every test uses a fresh app (or fresh Redis keys), so no test waits.
 */

const STATUS = '/api/v1';
const TOO_MANY = { success: false, message: 'Too Many Requests' };
const LIMITS = { RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3', LOG_LEVEL: 'fatal' };
const REDIS_DB = 11;
const REDIS_URL = `redis://127.0.0.1:6379/${REDIS_DB}`;
const KEY_PATTERN = 'hotspot:rate-limit:*';

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

async function get(testApp: TestApp, path: string, headers: Record<string, string> = {}): Promise<Response> {
  let call = testApp.http.get(path);
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  return call;
}

function madeUpToken(n: number): string {
  return `hsp_made-up-${n}-${'x'.repeat(40)}`;
}

/** A pino destination that keeps the app's JSON log lines in memory. */
class CapturedLog {
  private readonly raw: string[] = [];

  write(line: string): void {
    this.raw.push(line);
  }

  lines(): Array<Record<string, unknown>> {
    return this.raw
      .join('')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

/** Counts the app's lookups of a token by its hash, by watching the SQL its DataSource runs. */
function spyOnTokenLookups(testApp: TestApp): { count(): number; restore(): void } {
  const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
  return {
    count: () =>
      spy.mock.calls.filter(([query]) => query.includes('api_tokens') && query.includes('token_hash')).length,
    restore: () => spy.mockRestore(),
  };
}

/** A loopback address of its own for each call, so runs sharing one Redis never share a counter. */
function uniqueLoopbackIp(): string {
  const byte = () => 1 + Math.floor(Math.random() * 254);
  return `127.${byte()}.${byte()}.${byte()}`;
}

function expectAllowed(response: Response, status: number, limit: number, remaining: number): void {
  expect(response.status).toBe(status);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(response.headers['x-ratelimit-reset']);
  expect(Number.isInteger(reset)).toBe(true);
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
  expect(response.headers['retry-after']).toBeUndefined();
}

function expectLimited(response: Response, limit: number): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(TOO_MANY);
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
  // The window ends when the caller may try again.
  expect(response.headers['x-ratelimit-reset']).toBe(response.headers['retry-after']);
  expect(response.headers['x-request-id']).toBeDefined();
}

function expectNotCounted(response: Response): void {
  expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
  expect(response.headers['x-ratelimit-reset']).toBeUndefined();
  expect(response.headers['retry-after']).toBeUndefined();
}

/** Starts an app, runs `work`, always closes it. */
async function withApp<T>(
  kind: DatabaseKind,
  env: Record<string, string>,
  work: (testApp: TestApp) => Promise<T>,
): Promise<T> {
  const testApp = await startTestApp(kind, { ...LIMITS, ...env });
  try {
    return await work(testApp);
  } finally {
    await testApp.close();
  }
}

async function deleteRateLimitKeys(redis: Redis): Promise<void> {
  let cursor = '0';
  // SCAN walks the keyspace in bounded steps; a test database holds few keys.
  for (let round = 0; round < 1000; round++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', KEY_PATTERN, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
  throw new Error('SCAN did not finish');
}

describe.each(databaseKinds())('rate limits [%s]', (kind) => {
  it('a token gets RATE_LIMIT_PER_MINUTE requests, then 429 with Retry-After; a second token has its own budget', async () => {
    await withApp(kind, {}, async (testApp) => {
      const first = await testApp.createToken({ name: 'first' });
      const second = await testApp.createToken({ name: 'second' });

      for (let n = 1; n <= 5; n++) {
        const response = await get(testApp, STATUS, bearer(first));
        expectAllowed(response, 200, 5, 5 - n);
        expect(response.body).toEqual({ success: true, message: 'Server API aktif' });
      }
      expectLimited(await get(testApp, STATUS, bearer(first)), 5);
      // Still refused: a refused request does not reopen the window.
      expectLimited(await get(testApp, STATUS, bearer(first)), 5);
      // Other routes share the token's budget.
      expectLimited(await get(testApp, '/api/v1/hotspot-users?venueId=venue-a', bearer(first)), 5);

      expectAllowed(await get(testApp, STATUS, bearer(second)), 200, 5, 4);
      expectAllowed(await get(testApp, STATUS, bearer(second)), 200, 5, 3);
    });
  });

  it('without a token or with a wrong one: counted per IP at the stricter limit (401, 401, 401, then 429); a verified token from that IP still works', async () => {
    await withApp(kind, {}, async (testApp) => {
      const token = await testApp.createToken();
      // Verified before the IP runs out, so it is in the cache (an unverified one would need a lookup, refused past the limit).
      expectAllowed(await get(testApp, STATUS, bearer(token)), 200, 5, 4);

      const none = await get(testApp, STATUS);
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      expectAllowed(none, 401, 3, 2);
      expectAllowed(await get(testApp, STATUS, bearer('hsp_wrong-token-value-0123456789abcdefghijk')), 401, 3, 1);
      expectAllowed(await get(testApp, STATUS, { Authorization: 'Basic dXNlcjpwYXNz' }), 401, 3, 0);

      expectLimited(await get(testApp, STATUS), 3);
      expectLimited(await get(testApp, STATUS, bearer('hsp_another-wrong-token-0123456789abcdefg')), 3);
      expectLimited(await get(testApp, '/api/v1/hotspot-users/some-id', bearer('hsp_wrong')), 3);

      // A valid token is counted on its own budget, not the IP's.
      expectAllowed(await get(testApp, STATUS, bearer(token)), 200, 5, 3);
    });
  });

  it('/healthz and /readyz are never counted or limited', async () => {
    await withApp(kind, {}, async (testApp) => {
      for (let n = 0; n < 3; n++) expect((await get(testApp, STATUS)).status).toBe(401);
      expectLimited(await get(testApp, STATUS), 3);

      for (let n = 0; n < 8; n++) {
        const live = await get(testApp, '/healthz');
        expect(live.status).toBe(200);
        expectNotCounted(live);
        const ready = await get(testApp, '/readyz', bearer('hsp_wrong-token-value-0123456789abcdefghijk'));
        expect(ready.status).toBe(200);
        expectNotCounted(ready);
      }
    });
  });

  it('RATE_LIMIT_PER_MINUTE=0 turns the per-token limit off only: tokens are never counted, the per-IP limit still holds', async () => {
    await withApp(kind, { RATE_LIMIT_PER_MINUTE: '0' }, async (testApp) => {
      const token = await testApp.createToken();
      for (let n = 0; n < 12; n++) {
        const allowed = await get(testApp, STATUS, bearer(token));
        expect(allowed.status).toBe(200);
        expectNotCounted(allowed);
      }
      for (let n = 1; n <= 3; n++) expectAllowed(await get(testApp, STATUS), 401, 3, 3 - n);
      expectLimited(await get(testApp, STATUS), 3);
    });
  });

  it('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE=0 turns the per-IP limit off only: never a 429 without a valid token, tokens still limited', async () => {
    await withApp(kind, { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0' }, async (testApp) => {
      const token = await testApp.createToken();
      for (let n = 0; n < 12; n++) {
        const refused = await get(
          testApp,
          STATUS,
          n % 2 === 0 ? {} : bearer(`hsp_wrong-${n}-0123456789abcdefghijklmnopqrstu`),
        );
        expect(refused.status).toBe(401);
        expectNotCounted(refused);
      }
      for (let n = 1; n <= 5; n++) expectAllowed(await get(testApp, STATUS, bearer(token)), 200, 5, 5 - n);
      expectLimited(await get(testApp, STATUS, bearer(token)), 5);
    });
  });

  it('a client IP over its limit gets 429 before any token lookup: made-up, revoked and not yet cached tokens cost no query', async () => {
    await withApp(kind, {}, async (testApp) => {
      const cached = await testApp.createToken({ name: 'cached' });
      const uncached = await testApp.createToken({ name: 'uncached' });
      const revoked = await testApp.createToken({ name: 'revoked' });
      await testApp.app.get(ApiTokenService).revoke(revoked);
      expectAllowed(await get(testApp, STATUS, bearer(cached)), 200, 5, 4);

      const lookups = spyOnTokenLookups(testApp);
      try {
        expectAllowed(await get(testApp, STATUS, bearer(madeUpToken(1))), 401, 3, 2);
        expectAllowed(await get(testApp, STATUS, bearer(madeUpToken(2))), 401, 3, 1);
        expectAllowed(await get(testApp, STATUS, bearer(revoked)), 401, 3, 0);
        expect(lookups.count()).toBe(3);

        for (let n = 3; n < 23; n++) expectLimited(await get(testApp, STATUS, bearer(madeUpToken(n))), 3);
        expectLimited(await get(testApp, STATUS, bearer(revoked)), 3);
        // Valid, but the cache cannot vouch for it, and finding out would cost the query.
        expectLimited(await get(testApp, STATUS, bearer(uncached)), 3);
        expect(lookups.count()).toBe(3);

        // A token this instance has verified recently is answered from the cache, on its own budget.
        expectAllowed(await get(testApp, STATUS, bearer(cached)), 200, 5, 3);
        expect(lookups.count()).toBe(3);
      } finally {
        lookups.restore();
      }
    });
  });

  it('TRUST_PROXY=0 (the default): X-Forwarded-For is ignored, so changing it does not buy a new budget', async () => {
    await withApp(kind, { TRUST_PROXY: '0' }, async (testApp) => {
      for (let n = 0; n < 3; n++) {
        expectAllowed(await get(testApp, STATUS, { 'X-Forwarded-For': uniqueLoopbackIp() }), 401, 3, 2 - n);
      }
      expectLimited(await get(testApp, STATUS, { 'X-Forwarded-For': uniqueLoopbackIp() }), 3);
      expectLimited(await get(testApp, STATUS), 3);
    });
  });

  it('TRUST_PROXY=1: the address the proxy appends to X-Forwarded-For is the client, each with its own budget', async () => {
    await withApp(kind, { TRUST_PROXY: '1' }, async (testApp) => {
      const client = uniqueLoopbackIp();
      const other = uniqueLoopbackIp();
      for (let n = 0; n < 3; n++) {
        expectAllowed(await get(testApp, STATUS, { 'X-Forwarded-For': client }), 401, 3, 2 - n);
      }
      expectLimited(await get(testApp, STATUS, { 'X-Forwarded-For': client }), 3);
      // A value forged by the client ahead of the proxy's own entry changes nothing.
      expectLimited(await get(testApp, STATUS, { 'X-Forwarded-For': `${uniqueLoopbackIp()}, ${client}` }), 3);

      expectAllowed(await get(testApp, STATUS, { 'X-Forwarded-For': other }), 401, 3, 2);
      // The proxy's own address (no header) is one more client.
      expectAllowed(await get(testApp, STATUS), 401, 3, 2);
    });
  });

  describe('with REDIS_URL', () => {
    let redis: Redis;
    beforeAll(async () => {
      redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      await deleteRateLimitKeys(redis);
    });
    afterAll(async () => {
      await deleteRateLimitKeys(redis);
      await redis.quit();
    });

    it('two instances share the counters: a token and an IP reach their limits together across both', async () => {
      // Both instances on one database, as in production, so the token is known to both.
      const database = await createTestDatabase(kind);
      const env = { ...LIMITS, REDIS_URL, TRUST_PROXY: '1' };
      let one: TestApp | undefined;
      let two: TestApp | undefined;
      try {
        one = await startTestApp(kind, env, { database });
        two = await startTestApp(kind, env, { database });
        // Right after start-up, before anything else: counted in Redis already, not in memory.
        const ip = uniqueLoopbackIp();
        expectAllowed(await get(one, STATUS, { 'X-Forwarded-For': ip }), 401, 3, 2);
        expect(await redis.keys(`hotspot:rate-limit:*${ip}*`)).toHaveLength(1);
        expectAllowed(await get(two, STATUS, { 'X-Forwarded-For': ip }), 401, 3, 1);
        expectAllowed(await get(one, STATUS, { 'X-Forwarded-For': ip }), 401, 3, 0);
        expectLimited(await get(two, STATUS, { 'X-Forwarded-For': ip }), 3);

        const token = await one.createToken();
        const instances = [one, two, one, two, one];
        for (const [n, instance] of instances.entries()) {
          expectAllowed(await get(instance, STATUS, bearer(token)), 200, 5, 4 - n);
        }
        expectLimited(await get(two, STATUS, bearer(token)), 5);
        expectLimited(await get(one, STATUS, bearer(token)), 5);

        // The counters really are in Redis, under the documented prefix.
        expect(await redis.keys(KEY_PATTERN)).toEqual(
          expect.arrayContaining([
            `hotspot:rate-limit:unauthenticated:${ip}`,
            expect.stringMatching(/^hotspot:rate-limit:token:/),
          ]),
        );
      } finally {
        await one?.close();
        await two?.close();
        await database.drop();
      }
    });

    it('Redis unreachable: requests are still answered (never 500) and each instance limits in memory', async () => {
      await withApp(kind, { REDIS_URL: 'redis://127.0.0.1:1/0' }, async (testApp) => {
        const token = await testApp.createToken();
        const started = Date.now();
        for (let n = 1; n <= 5; n++) {
          expectAllowed(await get(testApp, STATUS, bearer(token)), 200, 5, 5 - n);
        }
        expectLimited(await get(testApp, STATUS, bearer(token)), 5);

        for (let n = 1; n <= 3; n++) expectAllowed(await get(testApp, STATUS), 401, 3, 3 - n);
        expectLimited(await get(testApp, STATUS), 3);
        expect((await get(testApp, '/healthz')).status).toBe(200);
        // No request waited on a Redis connection attempt.
        expect(Date.now() - started).toBeLessThan(5000);
      });
    });

    it('Redis stops answering (a network partition): only the first request waits for the timeout, the rest count in memory at once, one warning; after the cool-down a probe goes back to Redis, one line', async () => {
      const proxy = await TcpProxy.start('127.0.0.1', 6379);
      const log = new CapturedLog();
      const rateLimitLines = (level: string) =>
        log.lines().filter((line) => line.context === 'RateLimit' && line.level === level);
      try {
        const env = {
          ...LIMITS,
          RATE_LIMIT_PER_MINUTE: '40',
          REDIS_URL: `redis://127.0.0.1:${proxy.port}/${REDIS_DB}`,
          RATE_LIMIT_REDIS_COOLDOWN_SECONDS: '1',
          LOG_LEVEL: 'info',
        };
        const testApp = await startTestApp(kind, env, { logDestination: log });
        try {
          const token = await testApp.createToken();
          expectAllowed(await get(testApp, STATUS, bearer(token)), 200, 40, 39);
          expectAllowed(await get(testApp, STATUS, bearer(token)), 200, 40, 38);
          expect(rateLimitLines('warn')).toEqual([]);

          proxy.blackhole();
          const statuses: number[] = [];
          const durations: number[] = [];
          for (let n = 0; n < 50; n++) {
            const started = performance.now();
            const response = await get(testApp, STATUS, bearer(token));
            durations.push(performance.now() - started);
            statuses.push(response.status);
          }
          // Without the breaker every one of them would wait for the command timeout.
          expect(durations.filter((ms) => ms >= REDIS_COMMAND_TIMEOUT_MS).length).toBeLessThanOrEqual(1);
          // Counted in this process's memory from the first one on: 40 allowed, then 429.
          expect(statuses).toEqual([...Array<number>(40).fill(200), ...Array<number>(10).fill(429)]);
          expect(rateLimitLines('warn')).toEqual([
            expect.objectContaining({ msg: expect.stringMatching(/^Redis unavailable/) }),
          ]);

          await proxy.restore();
          // The probe starts with the first request after the cool-down; poll (bounded) for its line.
          for (let attempt = 0; attempt < 50 && rateLimitLines('info').length === 0; attempt++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            await get(testApp, '/api/v1', bearer(token));
          }
          expect(rateLimitLines('info')).toEqual([
            expect.objectContaining({ msg: 'Redis answers again: counting in Redis' }),
          ]);
          // Counted in Redis again, where this token has used only a few of its 40 (memory would say 429).
          const after = await get(testApp, STATUS, bearer(token));
          expect(after.status).toBe(200);
          expect(Number(after.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
          expect(rateLimitLines('warn')).toHaveLength(1);
        } finally {
          await testApp.close();
        }
      } finally {
        await proxy.close();
      }
    }, 30_000);
  });
});
