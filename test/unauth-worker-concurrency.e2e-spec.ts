import type { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { UnauthJobsService } from '../src/unauth-jobs/unauth-jobs.service.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Two app instances on one database, each with its own worker, drain the same outbox at once: every
 * job reaches the receiver exactly once. On MySQL/MariaDB the claims use FOR UPDATE SKIP LOCKED.
 * (Several workers are a MySQL set-up: on SQLite, better-sqlite3 waits for the file's lock
 * synchronously, so two instances inside one process, as a test would run them, block each other.)
 */

const SECRET = 'e2e-concurrency-secret-0123456789';
const JOBS = 200;
/** Small batches, so each worker goes round many times and the two really interleave. */
const BATCH_SIZE = 10;
const MAX_ROUNDS = 200;
const DEADLINE_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openJobs(testApp: TestApp): Promise<number> {
  const rows: Array<{ open: number | string }> = await testApp.dataSource.query(
    "SELECT COUNT(*) AS open FROM unauth_jobs WHERE status IN ('pending', 'processing')",
  );
  return Number(rows[0].open);
}

/** Claims and delivers batches until the outbox is empty; bounded in rounds and time. Returns how many it claimed. */
async function drain(testApp: TestApp, deadline: number): Promise<number> {
  const worker = testApp.app.get(UnauthJobWorker);
  let claimed = 0;
  for (let round = 0; round < MAX_ROUNDS && Date.now() < deadline; round++) {
    const got = await worker.processBatch();
    claimed += got;
    if (got === 0) {
      if ((await openJobs(testApp)) === 0) break;
      await sleep(5); // the other worker holds the rest
    }
  }
  return claimed;
}

async function runTwoWorkers(kind: DatabaseKind): Promise<void> {
  const receiver = await WebhookReceiver.start(SECRET);
  receiver.replyDelayMs = () => Math.floor(Math.random() * 4);
  const database: TestDatabase = await createTestDatabase(kind);
  const env = {
    UNAUTH_DISPATCHER: 'webhook',
    UNAUTH_WEBHOOK_URL: receiver.url,
    UNAUTH_WEBHOOK_SECRET: SECRET,
    UNAUTH_BATCH_SIZE: String(BATCH_SIZE),
    UNAUTH_MAX_ATTEMPTS: '3',
    UNAUTH_RETRY_BASE_MS: '10',
    WORKER_ENABLED: 'false',
  };
  const apps: TestApp[] = [];
  try {
    apps.push(await startTestApp(kind, env, { database }));
    apps.push(await startTestApp(kind, env, { database }));
    const [first, second] = apps;

    const session = {
      id: 's',
      venueId: 'venue-a',
      macAddress: 'AA:BB:CC:60:00:01',
      ipAddress: null,
      nasId: null,
    } as SessionEntity;
    const jobs = first.app.get(UnauthJobsService);
    const now = new Date();
    const created = await first.database.transaction(async (em) => {
      const ids: string[] = [];
      for (let i = 0; i < JOBS; i++) {
        const job = await jobs.enqueue(
          em,
          {
            userId: `user-${i}`,
            username: `guest${i}`,
            reason: 'blocked',
            sessions: [{ ...session, id: `session-${i}` }],
          },
          now,
        );
        ids.push(job.id);
      }
      return ids;
    });

    const deadline = Date.now() + DEADLINE_MS;
    const [claimedByFirst, claimedBySecond] = await Promise.all([drain(first, deadline), drain(second, deadline)]);

    // Each job delivered exactly once, all signed, and each worker did part of the work.
    const keys = receiver.deliveries.map((delivery) => delivery.idempotencyKey);
    const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(repeated).toEqual([]);
    expect([...keys].sort()).toEqual([...created].sort());
    expect(receiver.deliveries.every((delivery) => delivery.verified && delivery.body.attempt === 1)).toBe(true);
    expect(claimedByFirst + claimedBySecond).toBe(JOBS);
    expect(claimedByFirst).toBeGreaterThan(0);
    expect(claimedBySecond).toBeGreaterThan(0);

    const rows: Array<{ status: string; attempts: number | string; n: number | string }> = await first.dataSource.query(
      'SELECT status, attempts, COUNT(*) AS n FROM unauth_jobs GROUP BY status, attempts',
    );
    expect(rows.map((row) => [row.status, Number(row.attempts), Number(row.n)])).toEqual([['done', 1, JOBS]]);
  } finally {
    for (const app of apps) await app.close();
    await database.drop();
    await receiver.close();
  }
}

if (process.env.TEST_MYSQL_URL) {
  describe('two workers on one MySQL/MariaDB database', () => {
    it(`deliver ${JOBS} jobs, each exactly once`, () => runTwoWorkers('mysql'), 20_000);
  });
} else {
  describe.skip('two workers on one MySQL/MariaDB database (skipped: TEST_MYSQL_URL is not set)', () => {
    it(`deliver ${JOBS} jobs, each exactly once`, () => undefined);
  });
}
