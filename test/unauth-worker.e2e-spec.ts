import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { createUser, startSession } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { verifyWebhook, WebhookReceiver, type Delivery } from './support/webhook-receiver.js';

/**
 * The unauth job worker delivering through the webhook dispatcher to a real HTTP receiver on a
 * loopback port. The worker loop is off (WORKER_ENABLED=false) and the tests call processBatch
 * themselves, on a ManualClock, so retries and leases need no waiting; one test runs the real loop.
 */

const USERS = '/api/v1/hotspot-users';
const SECRET = 'e2e-webhook-secret-0123456789abcdef';
const RETRY_BASE_MS = 1000;
const MAX_ATTEMPTS = 3;
const WEBHOOK_TIMEOUT_MS = 300;
const LEASE_MS = 60_000;

/** What a job copies of a session no NAS reported (the CLI's): nothing for RFC 5176. */
const NO_RADIUS = {
  nasClientId: null,
  acctSessionId: null,
  userName: null,
  callingStationId: null,
  nasIpAddress: null,
  nasSourceIp: null,
};

/** A datetime(3) value as both engines store it (UTC), for raw SQL. */
const sqlTime = (date: Date) => date.toISOString().replace('T', ' ').slice(0, 23);

function webhookEnv(receiver: WebhookReceiver, extra: Record<string, string> = {}): Record<string, string> {
  return {
    UNAUTH_DISPATCHER: 'webhook',
    UNAUTH_WEBHOOK_URL: receiver.url,
    UNAUTH_WEBHOOK_SECRET: SECRET,
    UNAUTH_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    UNAUTH_RETRY_BASE_MS: String(RETRY_BASE_MS),
    UNAUTH_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    UNAUTH_LEASE_SECONDS: String(LEASE_MS / 1000),
    WORKER_ENABLED: 'false',
    SHUTDOWN_TIMEOUT_SECONDS: '1',
    // Failed deliveries are logged as warnings; they are expected here.
    LOG_LEVEL: 'fatal',
    ...extra,
  };
}

async function jobRow(testApp: TestApp, id: string): Promise<UnauthJobEntity> {
  return testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id });
}

async function jobsOfUser(testApp: TestApp, userId: string): Promise<UnauthJobEntity[]> {
  return testApp.dataSource
    .getRepository(UnauthJobEntity)
    .find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
}

/** A user with an active session in each of two venues, then blocked through the API: one job. */
async function blockedUserWithJob(
  testApp: TestApp,
): Promise<{ userId: string; username: string; job: UnauthJobEntity }> {
  const user = await createUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
  await startSession(testApp, {
    userId: user._id,
    macAddress: 'AA:BB:CC:50:00:01',
    ipAddress: '10.5.0.1',
    nasId: 'nas-a',
  });
  await startSession(testApp, { userId: user._id, venueId: 'venue-b', macAddress: 'AA:BB:CC:50:00:02' });
  await testApp.http
    .put(`${USERS}/${user._id}`)
    .set('Authorization', `Bearer ${testApp.adminToken}`)
    .send({ status: 'blocked' })
    .expect(200);
  const jobs = await jobsOfUser(testApp, user._id);
  expect(jobs).toHaveLength(1);
  return { userId: user._id, username: String(user.username), job: jobs[0] };
}

function deliveriesOf(receiver: WebhookReceiver, jobId: string): Delivery[] {
  return receiver.deliveries.filter((delivery) => delivery.idempotencyKey === jobId);
}

/** Milliseconds from the clock's now to the job's next attempt. */
function delayUntilNext(job: UnauthJobEntity, clock: ManualClock): number {
  return job.nextAttemptAt.getTime() - clock.now().getTime();
}

describe.each(databaseKinds())('unauth job worker with the webhook dispatcher [%s]', (kind: DatabaseKind) => {
  let receiver: WebhookReceiver;
  let database: TestDatabase;
  let testApp: TestApp;
  let clock: ManualClock;
  let worker: UnauthJobWorker;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start(SECRET);
    // Starts at the real time: the receiver checks the signed timestamp against its own clock.
    clock = new ManualClock(new Date());
    database = await createTestDatabase(kind);
    testApp = await startTestApp(kind, webhookEnv(receiver), { database, clock });
    worker = testApp.app.get(UnauthJobWorker);
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
    await receiver?.close();
  });

  beforeEach(() => {
    // Back to the real time (tests move the clock far ahead): the receiver refuses stale timestamps.
    clock.advance(Date.now() - clock.now().getTime());
  });

  afterEach(async () => {
    receiver.reply = () => 200;
    receiver.releaseHeld(503);
    receiver.deliveries.length = 0;
    receiver.streamedAnswers.length = 0;
    // Every test starts with an empty outbox, so one test's leftovers are never claimed by the next.
    await testApp.database.run((em) => em.query('DELETE FROM unauth_jobs'));
  });

  it("delivers a blocked user's job as a signed JSON POST, then marks it done", async () => {
    const { userId, username, job } = await blockedUserWithJob(testApp);
    expect(job).toMatchObject({ status: 'pending', attempts: 0, reason: 'blocked' });
    const sessions = job.sessions;
    expect(sessions).toHaveLength(2);

    expect(await worker.processBatch()).toBe(1);

    expect(receiver.deliveries).toHaveLength(1);
    const [delivery] = receiver.deliveries;
    expect(delivery.verified).toBe(true);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-hotspot-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(delivery.headers['x-hotspot-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(delivery.idempotencyKey).toBe(job.id);
    expect(delivery.body).toEqual({
      jobId: job.id,
      userId,
      username,
      reason: 'blocked',
      sessions,
      attempt: 1,
      createdAt: job.createdAt.toISOString(),
    });
    // The ended sessions as the network side needs them.
    expect(sessions).toEqual(
      expect.arrayContaining([
        {
          id: expect.any(String),
          venueId: 'venue-a',
          macAddress: 'AA:BB:CC:50:00:01',
          ipAddress: '10.5.0.1',
          nasId: 'nas-a',
          ...NO_RADIUS,
        },
        {
          id: expect.any(String),
          venueId: 'venue-b',
          macAddress: 'AA:BB:CC:50:00:02',
          ipAddress: null,
          nasId: null,
          ...NO_RADIUS,
        },
      ]),
    );
    expect(Object.keys(delivery.body).sort()).toEqual([
      'attempt',
      'createdAt',
      'jobId',
      'reason',
      'sessions',
      'userId',
      'username',
    ]);

    expect(await jobRow(testApp, job.id)).toMatchObject({
      status: 'done',
      attempts: 1,
      lastError: null,
      leaseExpiresAt: null,
    });

    // Done is final: nothing more is delivered, however late.
    clock.advance(24 * 3600 * 1000);
    expect(await worker.processBatch()).toBe(0);
    expect(receiver.deliveries).toHaveLength(1);
  });

  it('a receiver that checks the signature refuses a tampered delivery (the check the test receiver makes is real)', async () => {
    const { job } = await blockedUserWithJob(testApp);
    await worker.processBatch();
    const [delivery] = deliveriesOf(receiver, job.id);
    expect(verifyWebhook(delivery.rawBody, delivery.headers, SECRET)).toBe(true);
    expect(verifyWebhook(delivery.rawBody.replace('"blocked"', '"expired"'), delivery.headers, SECRET)).toBe(false);
    expect(verifyWebhook(delivery.rawBody, delivery.headers, 'some-other-secret-0123456789')).toBe(false);
    const replayedLater = Date.now() + 3600 * 1000;
    expect(verifyWebhook(delivery.rawBody, delivery.headers, SECRET, replayedLater)).toBe(false);
  });

  it('retries with growing backoff while the receiver answers 500, then succeeds', async () => {
    const { job } = await blockedUserWithJob(testApp);
    let answered = 0;
    receiver.reply = () => (++answered <= 2 ? 500 : 200);

    expect(await worker.processBatch()).toBe(1);
    let row = await jobRow(testApp, job.id);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'webhook answered HTTP 500',
      leaseExpiresAt: null,
    });
    const firstDelay = delayUntilNext(row, clock);
    expect(firstDelay).toBeGreaterThanOrEqual(RETRY_BASE_MS / 2);
    expect(firstDelay).toBeLessThanOrEqual(RETRY_BASE_MS);
    const firstNext = row.nextAttemptAt;

    // Not due yet: nothing is sent before the backoff passed.
    clock.advance(firstDelay - 1);
    expect(await worker.processBatch()).toBe(0);
    expect(receiver.deliveries).toHaveLength(1);

    clock.advance(1);
    expect(await worker.processBatch()).toBe(1);
    row = await jobRow(testApp, job.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 2, lastError: 'webhook answered HTTP 500' });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(firstNext.getTime());
    const secondDelay = delayUntilNext(row, clock);
    expect(secondDelay).toBeGreaterThanOrEqual(RETRY_BASE_MS);
    expect(secondDelay).toBeLessThanOrEqual(2 * RETRY_BASE_MS);

    clock.advance(secondDelay);
    expect(await worker.processBatch()).toBe(1);
    expect(await jobRow(testApp, job.id)).toMatchObject({
      status: 'done',
      attempts: 3,
      lastError: null,
      leaseExpiresAt: null,
    });

    // The same job each time (one Idempotency-Key), numbered, each delivery signed afresh.
    const deliveries = deliveriesOf(receiver, job.id);
    expect(deliveries.map((d) => d.body.attempt)).toEqual([1, 2, 3]);
    expect(deliveries.every((d) => d.verified)).toBe(true);
    expect(new Set(deliveries.map((d) => d.body.jobId))).toEqual(new Set([job.id]));
    expect(receiver.deliveries).toHaveLength(3);
  });

  it('gives up after UNAUTH_MAX_ATTEMPTS failures: failed, with the last error', async () => {
    const { job } = await blockedUserWithJob(testApp);
    receiver.reply = () => 500;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await worker.processBatch()).toBe(1);
      const row = await jobRow(testApp, job.id);
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt < MAX_ATTEMPTS ? 'pending' : 'failed');
      if (row.status === 'pending') clock.advance(delayUntilNext(row, clock));
    }
    expect(await jobRow(testApp, job.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastError: 'webhook answered HTTP 500',
      leaseExpiresAt: null,
    });

    // Failed is final: a day later nothing is retried.
    receiver.reply = () => 200;
    clock.advance(24 * 3600 * 1000);
    expect(await worker.processBatch()).toBe(0);
    expect(deliveriesOf(receiver, job.id)).toHaveLength(MAX_ATTEMPTS);
  });

  it('a receiver that never answers times out, and that counts as a failed attempt', async () => {
    const { job } = await blockedUserWithJob(testApp);
    receiver.reply = () => 'hang';
    const started = Date.now();
    expect(await worker.processBatch()).toBe(1);
    expect(Date.now() - started).toBeLessThan(WEBHOOK_TIMEOUT_MS + 3000);
    const row = await jobRow(testApp, job.id);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: `webhook timed out after ${WEBHOOK_TIMEOUT_MS} ms`,
      leaseExpiresAt: null,
    });
    expect(delayUntilNext(row, clock)).toBeGreaterThanOrEqual(RETRY_BASE_MS / 2);

    receiver.reply = () => 200;
    clock.advance(RETRY_BASE_MS);
    expect(await worker.processBatch()).toBe(1);
    expect(await jobRow(testApp, job.id)).toMatchObject({ status: 'done', attempts: 2, lastError: null });
    expect(deliveriesOf(receiver, job.id).map((d) => d.body.attempt)).toEqual([1, 2]);
  });

  describe('a receiver whose answer never ends', () => {
    // Each answer is cut off after the first few KiB; a worker that read it whole would buffer hundreds of MB.
    const HUGE = 200 * 1024 * 1024;
    const LITTLE = 16 * 1024 * 1024;

    it('a 2xx with an endless body: done at once, the rest of the answer never downloaded', async () => {
      const { job } = await blockedUserWithJob(testApp);
      receiver.reply = () => ({ status: 200, text: '{"received":true}', bytes: Infinity });
      const before = process.memoryUsage().arrayBuffers;

      expect(await worker.processBatch()).toBe(1);

      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(LITTLE);
      expect(await jobRow(testApp, job.id)).toMatchObject({ status: 'done', attempts: 1, lastError: null });
      await receiver.waitForStreamedAnswersToEnd();
      expect(receiver.streamedAnswers).toEqual([
        { status: 200, bytesSent: expect.any(Number), cutOff: true, ended: true },
      ]);
      expect(receiver.streamedAnswers[0].bytesSent).toBeLessThan(LITTLE);
    });

    it('a 5xx with a 200 MB body: a retry whose last error holds the start of the answer, sanitised and short', async () => {
      const { job } = await blockedUserWithJob(testApp);
      receiver.reply = () => ({ status: 503, text: 'Receiver\r\n\u001b[31m overloaded,\ttry later. ', bytes: HUGE });
      const before = process.memoryUsage().arrayBuffers;

      expect(await worker.processBatch()).toBe(1);

      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(LITTLE);
      const row = await jobRow(testApp, job.id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, leaseExpiresAt: null });
      const excerpt =
        'Receiver [31m overloaded, try later. ' + 'x'.repeat(200 - 'Receiver [31m overloaded, try later. '.length);
      expect(row.lastError).toBe(`webhook answered HTTP 503: ${excerpt}…`);
      await receiver.waitForStreamedAnswersToEnd();
      expect(receiver.streamedAnswers[0]).toMatchObject({ status: 503, cutOff: true });
      expect(receiver.streamedAnswers[0].bytesSent).toBeLessThan(LITTLE);
    });
  });

  it('an unreachable receiver counts as a failed attempt too', async () => {
    const { job } = await blockedUserWithJob(testApp);
    // A second instance on the same database whose webhook URL points at a port nothing listens on.
    const gone = await WebhookReceiver.start(SECRET);
    const env = webhookEnv(gone);
    await gone.close();
    const other = await startTestApp(kind, env, { database, clock });
    try {
      expect(await other.app.get(UnauthJobWorker).processBatch()).toBe(1);
    } finally {
      await other.close();
    }
    expect(await jobRow(testApp, job.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringMatching(/^webhook unreachable/),
    });
  }, 15_000);

  it('claims a job left processing by a worker whose lease ran out, and delivers it again', async () => {
    const { job } = await blockedUserWithJob(testApp);
    const past = new Date(clock.now().getTime() - 1000);
    // As a worker that claimed it (attempt 1) and died would have left it.
    await testApp.database.run((em) =>
      em.query(
        "UPDATE unauth_jobs SET status = 'processing', attempts = 1, lease_expires_at = ?, next_attempt_at = ? WHERE id = ?",
        [sqlTime(past), sqlTime(past), job.id],
      ),
    );

    expect(await worker.processBatch()).toBe(1);
    expect(deliveriesOf(receiver, job.id).map((d) => d.body.attempt)).toEqual([2]);
    expect(await jobRow(testApp, job.id)).toMatchObject({ status: 'done', attempts: 2, leaseExpiresAt: null });
  });

  it('leaves alone a job another worker holds under a live lease, until that lease runs out', async () => {
    const { job } = await blockedUserWithJob(testApp);
    const leaseEnd = new Date(clock.now().getTime() + 30_000);
    await testApp.database.run((em) =>
      em.query(
        "UPDATE unauth_jobs SET status = 'processing', attempts = 1, lease_expires_at = ?, next_attempt_at = ? WHERE id = ?",
        [sqlTime(leaseEnd), sqlTime(leaseEnd), job.id],
      ),
    );
    const before = await jobRow(testApp, job.id);

    expect(await worker.processBatch()).toBe(0);
    clock.advance(29_999);
    expect(await worker.processBatch()).toBe(0);
    expect(deliveriesOf(receiver, job.id)).toEqual([]);
    expect(await jobRow(testApp, job.id)).toEqual(before);

    clock.advance(1);
    expect(await worker.processBatch()).toBe(1);
    expect(await jobRow(testApp, job.id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('delivers several due jobs in one batch, each once', async () => {
    const created = [
      await blockedUserWithJob(testApp),
      await blockedUserWithJob(testApp),
      await blockedUserWithJob(testApp),
    ];
    expect(await worker.processBatch()).toBe(3);
    expect(await worker.processBatch()).toBe(0);
    expect(receiver.deliveries.map((d) => d.idempotencyKey).sort()).toEqual(created.map((c) => c.job.id).sort());
    for (const { job } of created) expect((await jobRow(testApp, job.id)).status).toBe('done');
  });
});

describe.each(databaseKinds())('unauth job worker at shutdown [%s]', (kind: DatabaseKind) => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start(SECRET);
  });
  afterEach(async () => {
    await receiver?.close();
  });

  it('hands a delivery still hanging back untried: pending, attempts not counting it; another worker delivers it', async () => {
    const database = await createTestDatabase(kind);
    const clock = new ManualClock(new Date());
    // A generous webhook timeout: the abort at shutdown must be what ends the delivery.
    const env = webhookEnv(receiver, { UNAUTH_WEBHOOK_TIMEOUT_MS: '20000', SHUTDOWN_TIMEOUT_SECONDS: '1' });
    try {
      const first = await startTestApp(kind, env, { database, clock });
      let jobId: string;
      try {
        ({
          job: { id: jobId },
        } = await blockedUserWithJob(first));
        receiver.reply = () => 'hang';
        const worker = first.app.get(UnauthJobWorker);
        const batch = worker.processBatch();
        await receiver.waitForDeliveries(1);
        expect(receiver.heldCount).toBe(1);
        expect(await jobRow(first, jobId)).toMatchObject({ status: 'processing', attempts: 1 });

        const started = Date.now();
        await worker.beforeApplicationShutdown();
        const took = Date.now() - started;
        // It waited about half of SHUTDOWN_TIMEOUT_SECONDS (500 ms) for the delivery, then gave up on it.
        expect(took).toBeGreaterThanOrEqual(450);
        expect(took).toBeLessThan(2000);
        await expect(batch).resolves.toBe(1);

        expect(await jobRow(first, jobId)).toMatchObject({
          status: 'pending',
          attempts: 0,
          lastError: null,
          leaseExpiresAt: null,
          nextAttemptAt: clock.now(),
        });
      } finally {
        await first.close();
      }

      // The next instance on the same database delivers it as attempt 1.
      receiver.reply = () => 200;
      const second = await startTestApp(kind, env, { database, clock });
      try {
        expect(await second.app.get(UnauthJobWorker).processBatch()).toBe(1);
        expect(await jobRow(second, jobId)).toMatchObject({ status: 'done', attempts: 1 });
      } finally {
        await second.close();
      }
      expect(receiver.deliveries.map((d) => [d.idempotencyKey, d.body.attempt])).toEqual([
        [jobId, 1],
        [jobId, 1],
      ]);
    } finally {
      await database.drop();
    }
  }, 15_000);

  it('the running loop stops within the grace period even when its poll interval is long', async () => {
    const database = await createTestDatabase(kind);
    const env = webhookEnv(receiver, { UNAUTH_WEBHOOK_TIMEOUT_MS: '20000', SHUTDOWN_TIMEOUT_SECONDS: '1' });
    try {
      // The job exists before the worker starts, so the loop's first batch claims it at once.
      const writer = await startTestApp(kind, env, { database });
      let jobId: string;
      try {
        ({
          job: { id: jobId },
        } = await blockedUserWithJob(writer));
      } finally {
        await writer.close();
      }
      receiver.reply = () => 'hang';
      const running = await startTestApp(
        kind,
        { ...env, WORKER_ENABLED: 'true', UNAUTH_POLL_INTERVAL_MS: '30000' },
        { database },
      );
      let took: number;
      try {
        await receiver.waitForDeliveries(1);
        const started = Date.now();
        await running.app.get(UnauthJobWorker).beforeApplicationShutdown();
        took = Date.now() - started;
        expect(await jobRow(running, jobId)).toMatchObject({ status: 'pending', attempts: 0, leaseExpiresAt: null });
      } finally {
        await running.close();
      }
      // Half of SHUTDOWN_TIMEOUT_SECONDS (500 ms) for the delivery, then no wait for the next poll (30 s).
      expect(took).toBeLessThan(2500);
    } finally {
      await database.drop();
    }
  }, 15_000);

  it('lets a delivery that answers within the grace period finish: done, not handed back', async () => {
    const clock = new ManualClock(new Date());
    const testApp = await startTestApp(kind, webhookEnv(receiver, { SHUTDOWN_TIMEOUT_SECONDS: '2' }), { clock });
    try {
      const { job } = await blockedUserWithJob(testApp);
      receiver.reply = () => 'hang';
      const worker = testApp.app.get(UnauthJobWorker);
      const batch = worker.processBatch();
      await receiver.waitForDeliveries(1);
      setTimeout(() => receiver.releaseHeld(200), 100);
      // The answer comes after 100 ms, well inside the 1 s grace (half of SHUTDOWN_TIMEOUT_SECONDS=2).
      await worker.beforeApplicationShutdown();
      await batch;
      expect(await jobRow(testApp, job.id)).toMatchObject({ status: 'done', attempts: 1 });
    } finally {
      await testApp.close();
    }
  }, 15_000);
});

describe.each(databaseKinds())(
  'unauth job worker loop (WORKER_ENABLED=true, log dispatcher) [%s]',
  (kind: DatabaseKind) => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await startTestApp(kind, {
        WORKER_ENABLED: 'true',
        UNAUTH_POLL_INTERVAL_MS: '20',
        UNAUTH_DISPATCHER: 'log',
      });
    });
    afterAll(async () => {
      await testApp?.close();
    });

    it('delivers jobs on its own: they become done within a bounded wait', async () => {
      const auth = `Bearer ${testApp.adminToken}`;
      const blocked = await createUser(testApp);
      await startSession(testApp, { userId: blocked._id, macAddress: 'AA:BB:CC:51:00:01' });
      const expired = await createUser(testApp);
      await startSession(testApp, { userId: expired._id, macAddress: 'AA:BB:CC:51:00:02' });
      const deleted = await createUser(testApp);
      await startSession(testApp, { userId: deleted._id, macAddress: 'AA:BB:CC:51:00:03' });
      await testApp.http
        .put(`${USERS}/${blocked._id}`)
        .set('Authorization', auth)
        .send({ status: 'blocked' })
        .expect(200);
      await testApp.http.post(`${USERS}/${expired._id}/expire`).set('Authorization', auth).expect(200);
      await testApp.http.delete(`${USERS}/${deleted._id}`).set('Authorization', auth).expect(200);

      type Row = { reason: string; status: string; attempts: number | string };
      const read = (): Promise<Row[]> =>
        testApp.dataSource.query(
          'SELECT reason, status, attempts FROM unauth_jobs WHERE user_id IN (?, ?, ?) ORDER BY reason',
          [blocked._id, expired._id, deleted._id],
        );
      let rows: Row[] = await read();
      expect(rows.map((row) => row.reason)).toEqual(['blocked', 'deleted', 'expired']);
      // Poll every 50 ms for at most 5 s.
      for (let poll = 0; poll < 100 && !rows.every((row) => row.status === 'done'); poll++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        rows = await read();
      }
      expect(rows.map((row) => [row.reason, row.status, Number(row.attempts)])).toEqual([
        ['blocked', 'done', 1],
        ['deleted', 'done', 1],
        ['expired', 'done', 1],
      ]);
    }, 15_000);
  },
);
