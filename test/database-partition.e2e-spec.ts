import mysql from 'mysql2/promise';
import { userBody } from './support/factories.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Two instances share one MySQL/MariaDB server, and one of them is cut off from it by a network
 * partition in the middle of a write. Instance A reaches the server directly; instance B reaches
 * it through a TCP proxy that splits the network just as B sends a COMMIT, so that COMMIT never
 * arrives, and the close of B's connection (when B gives up at DB_TIMEOUT_MS) never arrives either:
 * on the server, B's transaction is left open, holding whatever it locked.
 *
 * The healthy instance must not pay for it: A keeps creating users in the same venue at a rate
 * close to its own before the split, with no 503; the server ends B's orphaned transaction within
 * a few seconds (rolling it back), B commits nothing it was not acknowledged for, and the venue's
 * list total still equals its row count.
 */

const USERS = '/api/v1/hotspot-users';
const VENUE = 'venue-partition';
const DB_TIMEOUT_MS = 2000;
const WARM_UP_MS = 3000;
/** How long B writes alone before the split, so the venue is busy with B's transactions. */
const B_LEAD_MS = 1000;
const PARTITION_WINDOW_MS = 4000;
const A_CLIENTS = 4;
const B_CLIENTS = 3;
/** Every loop is bounded in count as well as in time. */
const MAX_CREATES_PER_CLIENT = 2000;
/** No request of the test waits longer than this, whatever the app does. */
const REQUEST_TIMEOUT_MS = 15_000;
const COMMIT_WAIT_MS = 10_000;
/**
 * From the split to the end of B's transaction on the server: the server ends a connection idle
 * inside a transaction after DB_TIMEOUT_MS (rounded up to seconds) plus one second; a transaction
 * still waiting for a lock first gives up that wait after DB_TIMEOUT_MS. Plus slack for this machine.
 */
const ROLLBACK_BOUND_MS = DB_TIMEOUT_MS + 2000 + 3000;
/** Once the proxy resets B's old connections, the server sees them closed and ends what they held. */
const RESTORED_END_MS = 5000;

const serverUrl = process.env.TEST_MYSQL_URL;
const describeWithServer = serverUrl ? describe : describe.skip;
const title = serverUrl
  ? 'a network partition that strands a transaction of one instance [mysql]'
  : 'network partition between instances [skipped: set TEST_MYSQL_URL=mysql://user:pass@127.0.0.1:3306 to run it]';

/** Both apps answer hundreds of 503s on purpose; their log lines would only bury the test's output. */
const quietLog = { write: () => undefined };

/** One create request and its outcome. */
interface Attempt {
  username: string;
  answeredAt: number | null;
  /** null when no answer came (the test's own timeout). */
  status: number | null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Acknowledged creates per second among `attempts`, counting those answered by `end`. */
function rate(attempts: Attempt[], start: number, end: number): number {
  const created = attempts.filter((a) => a.status === 201 && a.answeredAt !== null && a.answeredAt <= end).length;
  return Math.round((created / ((end - start) / 1000)) * 10) / 10;
}

/** How many answers of each status (`none` for no answer). */
function statusCounts(attempts: Attempt[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of attempts) counts[status ?? 'none'] = (counts[status ?? 'none'] ?? 0) + 1;
  return counts;
}

describeWithServer(title, () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  let instanceA: TestApp;
  let instanceB: TestApp;
  /** A direct connection of the test's own, to look at the server's state. */
  let inspector: mysql.Connection;
  /** Reads what other transactions have not committed (READ UNCOMMITTED). */
  let dirtyReader: mysql.Connection;
  let token: string;
  /** Server threads of B's connections at the split; killed in afterAll should any be left. */
  let strandedThreads: number[] = [];
  let stopB = false;
  let bLoops: Array<Promise<void>> = [];

  beforeAll(async () => {
    const server = new URL(serverUrl as string);
    proxy = await TcpProxy.start(server.hostname, Number(server.port || 3306));
    database = await createTestDatabase('mysql');
    const env = { DB_TIMEOUT_MS: String(DB_TIMEOUT_MS) };
    instanceA = await startTestApp(
      'mysql',
      { ...env, DATABASE_URL: database.url },
      { database, logDestination: quietLog },
    );
    // The same database (and the 'mariadb:' scheme where it applies), reached through the proxy.
    const throughProxy = new URL(database.url);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    // B folds no venue counters: a fold's COMMIT must not be the one the split holds, which would then
    // strand no user (A folds B's changes as well).
    instanceB = await startTestApp(
      'mysql',
      { ...env, DATABASE_URL: throughProxy.toString() },
      { database, logDestination: quietLog, foldsCounts: false },
    );
    // Both instances share the tokens table.
    token = await instanceA.createToken({ name: 'partition-writer', permissions: ['write'] });
    const direct = {
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
      database: new URL(database.url).pathname.slice(1),
    };
    inspector = await mysql.createConnection(direct);
    dirtyReader = await mysql.createConnection(direct);
    await dirtyReader.query('SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
  }, 60_000);

  afterAll(async () => {
    stopB = true;
    // The proxy first: closing it resets every connection it holds, so neither the server nor B's
    // shutdown waits on one.
    await proxy?.close();
    await Promise.allSettled(bLoops);
    // Should a stranded transaction have outlived the proxy, it would hold DROP DATABASE up.
    for (const id of strandedThreads) await inspector?.query('KILL ?', [id]).catch(() => undefined);
    await inspector?.end();
    await dirtyReader?.end();
    await instanceB?.close();
    await instanceA?.close();
    await database?.drop();
  }, 60_000);

  /** Creates users in VENUE one after another until `stop()`, recording each attempt in `attempts`. */
  async function createLoop(testApp: TestApp, stop: () => boolean, attempts: Attempt[]): Promise<void> {
    for (let i = 0; i < MAX_CREATES_PER_CLIENT && !stop(); i++) {
      const body = userBody({ venueIds: [VENUE] });
      const attempt: Attempt = { username: body.username as string, answeredAt: null, status: null };
      attempts.push(attempt);
      try {
        const response = await testApp.http
          .post(USERS)
          .set('Authorization', `Bearer ${token}`)
          .send(body)
          .timeout(REQUEST_TIMEOUT_MS);
        attempt.status = response.status;
      } catch {
        // No answer in time: status stays null.
      }
      attempt.answeredAt = Date.now();
    }
  }

  /** A creating users for `ms` with A_CLIENTS clients at once: its rate, and every attempt. */
  async function runA(ms: number): Promise<{ rate: number; attempts: Attempt[] }> {
    const attempts: Attempt[] = [];
    const start = Date.now();
    const end = start + ms;
    await Promise.all(
      Array.from({ length: A_CLIENTS }, () => createLoop(instanceA, () => Date.now() >= end, attempts)),
    );
    return { rate: rate(attempts, start, end), attempts };
  }

  /** Server thread ids of the connections whose client port is one of `ports` (HOST is 'address:port'). */
  async function threadsOnPorts(ports: number[]): Promise<number[]> {
    const [rows] = await inspector.query<mysql.RowDataPacket[]>('SELECT ID, HOST FROM information_schema.PROCESSLIST');
    return rows.filter((row) => ports.includes(Number(String(row.HOST).split(':').pop()))).map((row) => Number(row.ID));
  }

  async function openTransactionsOf(threads: number[]): Promise<number[]> {
    if (threads.length === 0) return [];
    const [rows] = await inspector.query<mysql.RowDataPacket[]>(
      'SELECT trx_mysql_thread_id AS thread FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id IN (?)',
      [threads],
    );
    return rows.map((row) => Number(row.thread));
  }

  async function existing(reader: mysql.Connection, usernames: string[]): Promise<string[]> {
    if (usernames.length === 0) return [];
    const [rows] = await reader.query<mysql.RowDataPacket[]>(
      'SELECT username FROM hotspot_users WHERE username IN (?)',
      [usernames],
    );
    return rows.map((row) => String(row.username)).sort();
  }

  /** When (ms since `from`) no transaction of `threads` is open any more, polled until `from + bound`; null if never. */
  async function whenTransactionsEnd(threads: number[], from: number, bound: number): Promise<number | null> {
    for (let i = 0; i < 1000; i++) {
      if ((await openTransactionsOf(threads)).length === 0) return Date.now() - from;
      if (Date.now() > from + bound) return null;
      await sleep(100);
    }
    return null;
  }

  it('the other instance keeps writing the venue at its rate, and the stranded transaction is rolled back within seconds', async () => {
    const warmUp = await runA(WARM_UP_MS);
    expect(warmUp.attempts.every((a) => a.status === 201)).toBe(true);
    expect(warmUp.rate).toBeGreaterThan(0);

    // B writes the same venue until the network splits at one of its COMMITs.
    const bAttempts: Attempt[] = [];
    bLoops = Array.from({ length: B_CLIENTS }, () => createLoop(instanceB, () => stopB, bAttempts));
    let partitionedAt: number;
    let strandedPorts: number[];
    try {
      await sleep(B_LEAD_MS);
      const split = proxy.partitionAtNextCommit().then(() => Date.now());
      let waiting: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => {
        waiting = setTimeout(() => resolve(null), COMMIT_WAIT_MS);
      });
      const at = await Promise.race([split, timeout]);
      clearTimeout(waiting);
      if (at === null) throw new Error(`B sent no COMMIT within ${COMMIT_WAIT_MS} ms`);
      partitionedAt = at;
      strandedPorts = proxy.upstreamLocalPorts();
    } finally {
      stopB = true;
    }
    const unansweredAtCut = bAttempts.filter((a) => a.answeredAt === null).map((a) => a.username);

    // B really holds an open transaction on the server: the one whose COMMIT was held, at least.
    strandedThreads = await threadsOnPorts(strandedPorts);
    const openAtCut = await openTransactionsOf(strandedThreads);
    expect(openAtCut.length).toBeGreaterThan(0);
    // Users that B's open transactions inserted, visible only uncommitted.
    const committedAtCut = await existing(inspector, unansweredAtCut);
    const uncommittedAtCut = (await existing(dirtyReader, unansweredAtCut)).filter((u) => !committedAtCut.includes(u));
    expect(uncommittedAtCut.length).toBeGreaterThan(0);

    // A writes the venue during the split, while the server is watched for B's transactions.
    const [during, rolledBackAfterMs] = await Promise.all([
      runA(PARTITION_WINDOW_MS),
      whenTransactionsEnd(strandedThreads, partitionedAt, ROLLBACK_BOUND_MS),
    ]);
    await Promise.all(bLoops);

    // One comparison, so that a failure shows every number observed.
    const observed = {
      warmUpRate: warmUp.rate,
      partitionRate: during.rate,
      aStatusesDuringPartition: statusCounts(during.attempts),
      rolledBackAfterMs,
      strandedThreads: strandedThreads.length,
      openTransactionsAtCut: openAtCut.length,
    };
    expect({
      ...observed,
      keptAtLeastHalfItsRate: during.rate >= warmUp.rate / 2,
      onlyCreated: during.attempts.every((a) => a.status === 201),
      rolledBackInTime: rolledBackAfterMs !== null && rolledBackAfterMs <= ROLLBACK_BOUND_MS,
    }).toEqual({ ...observed, keptAtLeastHalfItsRate: true, onlyCreated: true, rolledBackInTime: true });

    // The split ends; B's old connections are reset, and the held COMMIT never arrives.
    await proxy.restore();
    expect(await whenTransactionsEnd(strandedThreads, Date.now(), RESTORED_END_MS)).not.toBeNull();
    // Every user B was told was created exists; none that its stranded transactions had inserted
    // does, the one whose COMMIT was held among them.
    const acknowledged = bAttempts.filter((a) => a.status === 201).map((a) => a.username);
    expect(await existing(inspector, acknowledged)).toEqual([...acknowledged].sort());
    expect(await existing(inspector, uncommittedAtCut)).toEqual([]);

    // The list's total, from the venue's counters, still equals the venue's rows.
    const list = await instanceA.http
      .get(`${USERS}?venueId=${VENUE}&limit=1`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    const [counted] = await inspector.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS total FROM hotspot_user_venues WHERE venue_id = ?',
      [VENUE],
    );
    expect(list.body.pagination.total).toBe(Number(counted[0].total));
    expect(list.body.pagination.total).toBeGreaterThan(0);
  }, 60_000);
});
