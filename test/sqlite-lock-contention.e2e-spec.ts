import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'supertest';
import { createUser } from './support/factories.js';
import { holdWriteLock } from './support/sqlite-lock-holder.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * SQLite: another process (a CLI command, the worker, a backup) holding the file's write lock.
 * better-sqlite3 waits for a lock synchronously, so the service once froze, /healthz included, for
 * as long as the lock was held (up to the busy timeout); and every read queued behind the
 * transaction that waited. Now a writer waits asynchronously, and past DB_TIMEOUT_MS answers 503.
 */

const USERS = '/api/v1/hotspot-users';
const HOLD_MS = 3000;
/** "Promptly", well under the hold, with room for a loaded 2-core machine. */
const PROMPT_MS = 1000;
const PROBE_INTERVAL_MS = 100;

function pathOf(testApp: TestApp): string {
  return String(testApp.dataSource.options.database);
}

function guestBody(name: string): Record<string, unknown> {
  return { name, loginMethod: 'guest', venueIds: ['lock-venue'] };
}

/** When the answer to a request arrived (Date.now()). */
async function answeredAt(request: PromiseLike<Response>): Promise<{ response: Response; at: number }> {
  const response = await request;
  return { response, at: Date.now() };
}

describe('SQLite write lock held by another process [sqlite]', () => {
  let testApp: TestApp;
  const auth = () => `Bearer ${testApp.adminToken}`;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('keeps /healthz and reads prompt while a create waits for the lock, and the create then succeeds', async () => {
    // Used once before, so checking the token needs no write during the hold.
    const existing = await createUser(testApp, { venueIds: ['lock-venue'] });

    const holder = await holdWriteLock(pathOf(testApp), HOLD_MS);
    // Latencies count from when a request was due, not from when the test could send it: were the
    // event loop blocked, it would leave late, and a client elsewhere would have been kept waiting.
    const startedAt = Date.now();
    const dueAt = (tick: number) => startedAt + tick * PROBE_INTERVAL_MS;
    const create = answeredAt(testApp.http.post(USERS).set('Authorization', auth()).send(guestBody('During hold')));
    await sleep(Math.max(0, dueAt(1) - Date.now()));
    const read = answeredAt(testApp.http.get(`${USERS}/${existing._id}`).set('Authorization', auth()));

    let released: number | undefined;
    void holder.released.then((at) => (released = at));
    const latencies: number[] = [];
    for (let tick = 2; tick < (HOLD_MS * 2) / PROBE_INTERVAL_MS && released === undefined; tick++) {
      await sleep(Math.max(0, dueAt(tick) - Date.now()));
      const response = await testApp.http.get('/healthz');
      expect(response.status).toBe(200);
      latencies.push(Date.now() - dueAt(tick));
    }
    const releasedAt = await holder.released;

    // None of the probes waited for the lock, and they covered most of the hold.
    expect(latencies.filter((ms) => ms >= PROMPT_MS)).toEqual([]);
    expect(latencies.length).toBeGreaterThanOrEqual(HOLD_MS / 2 / PROBE_INTERVAL_MS);

    const { response: readResponse, at: readAt } = await read;
    expect(readResponse.status).toBe(200);
    expect(readResponse.body.data._id).toBe(existing._id);
    expect(readAt - dueAt(1)).toBeLessThan(PROMPT_MS);
    expect(readAt).toBeLessThan(releasedAt);

    const { response: createResponse, at: createdAt } = await create;
    expect({ status: createResponse.status, body: createResponse.body }).toMatchObject({
      status: 201,
      body: { success: true, data: { name: 'During hold' } },
    });
    // It could only commit once the other process let the lock go.
    expect(createdAt).toBeGreaterThanOrEqual(releasedAt);
    await testApp.http.get(`${USERS}/${createResponse.body.data._id}`).set('Authorization', auth()).expect(200);
  });

  it('answers 503 with Retry-After when the lock is held past DB_TIMEOUT_MS, and writes nothing', async () => {
    const timeoutMs = 1000;
    const shortDeadline = await startTestApp('sqlite', { DB_TIMEOUT_MS: String(timeoutMs), LOG_LEVEL: 'fatal' });
    try {
      const token = `Bearer ${shortDeadline.adminToken}`;
      await shortDeadline.http.get('/api/v1').set('Authorization', token).expect(200);
      const holder = await holdWriteLock(pathOf(shortDeadline), timeoutMs * 2.5);

      const started = Date.now();
      const { response, at } = await answeredAt(
        shortDeadline.http.post(USERS).set('Authorization', token).send(guestBody('Too late')),
      );
      const releasedAt = await holder.released;
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ success: false, message: 'Service Unavailable' });
      expect(response.headers['retry-after']).toBe('1');
      // It waited for the deadline, then gave up while the lock was still held.
      expect(at - started).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(at).toBeLessThan(releasedAt);

      const list = await shortDeadline.http.get(`${USERS}?venueId=lock-venue`).set('Authorization', token).expect(200);
      expect(list.body.data).toEqual([]);
    } finally {
      await shortDeadline.close();
    }
  });
});
