import type { Response } from 'supertest';
import { userBody } from './support/factories.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A MySQL/MariaDB outage as callers see it. The app reaches the server through a TCP proxy that the
 * test cuts: either the server is down (connections reset, new ones refused) or the network is
 * partitioned (nothing answers). Meanwhile every request gets 503 within a few seconds, never a
 * hang, and /readyz says "not ready". Once the proxy is restored the same requests succeed again,
 * without restarting the app.
 */

const USERS = '/api/v1/hotspot-users';
const UNAVAILABLE = { success: false, message: 'Service Unavailable' };
const DB_TIMEOUT_MS = 2000;
/** Small enough that a burst of requests holds every connection of the pool open. */
const DB_POOL_SIZE = 10;
/** What "within a few seconds" means here: the deadline plus generous slack for a loaded machine. */
const MAX_ANSWER_MS = 8000;
const RECOVERY_MS = 10_000;

const serverUrl = process.env.TEST_MYSQL_URL;
const describeWithServer = serverUrl ? describe : describe.skip;
const title = serverUrl
  ? 'database outage through a cuttable TCP proxy [mysql]'
  : 'database outage [skipped: set TEST_MYSQL_URL=mysql://user:pass@127.0.0.1:3306 to run it]';

/** The app's log lines, kept in memory (a pino destination). */
const logLines: string[] = [];
const logDestination = { write: (line: string) => void logLines.push(line) };

/** The request line of `requestId`, once written (waits at most 2 s). */
async function requestLine(requestId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const found = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request' && line.requestId === requestId);
    if (found.length > 0 || Date.now() > deadline) {
      expect(found).toHaveLength(1);
      return found[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Timed {
  response: Response;
  ms: number;
}

async function timed(call: () => PromiseLike<Response>): Promise<Timed> {
  const started = Date.now();
  const response = await call();
  return { response, ms: Date.now() - started };
}

describeWithServer(title, () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  let testApp: TestApp;
  /** Used before every cut, so the app has it cached. */
  let cachedToken: string;
  let userId: string;

  beforeAll(async () => {
    const server = new URL(serverUrl as string);
    proxy = await TcpProxy.start(server.hostname, Number(server.port || 3306));
    database = await createTestDatabase('mysql');
    // The same database (and the 'mariadb:' scheme where it applies), reached through the proxy.
    const throughProxy = new URL(database.url);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    testApp = await startTestApp(
      'mysql',
      {
        DATABASE_URL: throughProxy.toString(),
        DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
        DB_POOL_SIZE: String(DB_POOL_SIZE),
        // Request lines of failed requests are warnings; they go to logDestination, not the output.
        LOG_LEVEL: 'warn',
      },
      { database, logDestination },
    );
    cachedToken = await testApp.createToken({ name: 'outage-writer', permissions: ['write'] });
    const created = await testApp.http
      .post(USERS)
      .set('Authorization', `Bearer ${cachedToken}`)
      .send(userBody({ venueIds: ['venue-a'] }))
      .expect(201);
    userId = created.body.data._id;
  }, 30_000);

  afterAll(async () => {
    // The proxy first: closing it ends any connection still held, so the app's shutdown cannot wait on one.
    await proxy?.close();
    await testApp?.close();
    await database?.drop();
  });

  /** The requests a caller would send during the outage, all at once. */
  async function duringOutage(uncachedToken: string): Promise<Record<string, Timed>> {
    const auth = (token: string) => `Bearer ${token}`;
    const [getCached, getUncached, list, create, ready] = await Promise.all([
      timed(() => testApp.http.get(`${USERS}/${userId}`).set('Authorization', auth(cachedToken))),
      timed(() => testApp.http.get(`${USERS}/${userId}`).set('Authorization', auth(uncachedToken))),
      timed(() => testApp.http.get(`${USERS}?venueId=venue-a`).set('Authorization', auth(cachedToken))),
      timed(() => testApp.http.post(USERS).set('Authorization', auth(cachedToken)).send(userBody())),
      timed(() => testApp.http.get('/readyz')),
    ]);
    return { getCached, getUncached, list, create, ready };
  }

  function expectUnavailable(answers: Record<string, Timed>): void {
    const { ready, ...api } = answers;
    for (const [name, { response, ms }] of Object.entries(api)) {
      expect({ name, status: response.status, body: response.body }).toEqual({ name, status: 503, body: UNAVAILABLE });
      expect(response.headers['x-request-id']).toBeDefined();
      expect(ms).toBeLessThan(MAX_ANSWER_MS);
    }
    expect(ready.response.status).toBe(503);
    expect(ready.response.body).toEqual({ status: 'not ready', database: 'down' });
    expect(ready.ms).toBeLessThan(MAX_ANSWER_MS);
  }

  /** Retries the same requests (every 200 ms, for at most RECOVERY_MS) until all of them succeed. */
  async function expectRecovery(uncachedToken: string): Promise<void> {
    const deadline = Date.now() + RECOVERY_MS;
    let last: Record<string, number>;
    for (;;) {
      const answers = await Promise.all([
        testApp.http.get(`${USERS}/${userId}`).set('Authorization', `Bearer ${cachedToken}`),
        testApp.http.get(`${USERS}/${userId}`).set('Authorization', `Bearer ${uncachedToken}`),
        testApp.http.get(`${USERS}?venueId=venue-a`).set('Authorization', `Bearer ${cachedToken}`),
        testApp.http.post(USERS).set('Authorization', `Bearer ${cachedToken}`).send(userBody()),
        testApp.http.get('/readyz'),
      ]);
      last = {
        getCached: answers[0].status,
        getUncached: answers[1].status,
        list: answers[2].status,
        create: answers[3].status,
        ready: answers[4].status,
      };
      if (answers.every((answer) => answer.status === 200 || answer.status === 201)) {
        expect(answers[0].body.data._id).toBe(userId);
        expect(answers[1].body.data._id).toBe(userId);
        expect(answers[2].body.data).toEqual(expect.arrayContaining([expect.objectContaining({ _id: userId })]));
        expect(answers[3].status).toBe(201);
        expect(answers[4].body).toEqual({ status: 'ready', database: 'up' });
        return;
      }
      // Only "not yet" is acceptable on the way back: never a 500.
      for (const answer of answers) expect([200, 201, 503]).toContain(answer.status);
      if (Date.now() > deadline) throw new Error(`no recovery within ${RECOVERY_MS} ms: ${JSON.stringify(last)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function warmUp(): Promise<string> {
    // The cached token has just been checked; the other one is new, so checking it needs the database.
    await testApp.http.get(`${USERS}/${userId}`).set('Authorization', `Bearer ${cachedToken}`).expect(200);
    return testApp.createToken({ name: `uncached-${Date.now()}`, permissions: ['read'] });
  }

  it('server down (connections reset, new ones refused): 503 within seconds, then back without a restart', async () => {
    const uncachedToken = await warmUp();
    await proxy.refuse();
    try {
      expectUnavailable(await duringOutage(uncachedToken));
      // The liveness probe does not depend on the database.
      await testApp.http.get('/healthz').expect(200);
    } finally {
      await proxy.restore();
    }
    await expectRecovery(uncachedToken);
  }, 30_000);

  it('network partition (nothing answers, new connections hang): 503 within seconds, then back without a restart', async () => {
    const uncachedToken = await warmUp();
    proxy.blackhole();
    try {
      const answers = await duringOutage(uncachedToken);
      expectUnavailable(answers);
      // Answered by the deadline, not by some later driver timeout.
      for (const { ms } of Object.values(answers)) expect(ms).toBeGreaterThanOrEqual(DB_TIMEOUT_MS - 500);
      await testApp.http.get('/healthz').expect(200);
      expect(await requestLine(answers.list.response.headers['x-request-id'])).toEqual(
        expect.objectContaining({ level: 'error', status: 503, route: USERS }),
      );

      // A caller that gives up before the deadline still leaves its line in the log. It names no
      // token: a cached token is re-checked against the database (at most once a second, for
      // revocations), and that check was still waiting when the caller left.
      const impatient = `impatient-${Date.now()}`;
      await expect(
        testApp.http
          .get(`${USERS}?venueId=venue-a`)
          .set('Authorization', `Bearer ${cachedToken}`)
          .set('X-Request-Id', impatient)
          .timeout(300),
      ).rejects.toThrow(/timeout/i);
      expect(await requestLine(impatient)).toEqual(
        expect.objectContaining({
          level: 'warn',
          status: null,
          aborted: true,
          method: 'GET',
          path: USERS,
          tokenName: null,
        }),
      );
    } finally {
      await proxy.restore();
    }
    await expectRecovery(uncachedToken);
  }, 30_000);

  it('a partition that strands every open connection for good (a failover): 503s, then back on new connections', async () => {
    const uncachedToken = await warmUp();
    // Enough requests at once that the pool holds all of its connections open.
    const warm = await Promise.all(
      Array.from({ length: DB_POOL_SIZE + 2 }, () =>
        testApp.http.get(`${USERS}?venueId=venue-a`).set('Authorization', `Bearer ${cachedToken}`),
      ),
    );
    for (const response of warm) expect(response.status).toBe(200);

    proxy.blackhole();
    try {
      const answers = await Promise.all(
        Array.from({ length: 15 }, () =>
          timed(() => testApp.http.get(`${USERS}?venueId=venue-a`).set('Authorization', `Bearer ${cachedToken}`)),
        ),
      );
      for (const { response, ms } of answers) {
        expect(response.status).toBe(503);
        expect(response.body).toEqual(UNAVAILABLE);
        expect(ms).toBeLessThan(MAX_ANSWER_MS);
      }
    } finally {
      // The network comes back, but what was sent on the old connections is lost and they never
      // answer again (the server behind the address is another one now).
      await proxy.restore({ stranded: true });
    }
    await expectRecovery(uncachedToken);
  }, 30_000);
});
