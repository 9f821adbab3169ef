import type { QueryRunner } from 'typeorm';
import { SessionsService } from '../src/sessions/sessions.service.js';
import { api } from './support/api-client.js';
import { createUser, startSession } from './support/factories.js';
import { jobsOf, sessionRows } from './support/rows.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A session ended by one transaction while another is about to end it too: the second sees the
 * first's end (it reads the rows it ends with a lock) and neither overwrites it nor lists the session
 * in an unauth job. Only MySQL runs two writing transactions at once; SQLite takes one at a time.
 * (A block also waits for the user's row, which InnoDB locks for any transaction that changed the
 * user's session statuses, as they are in the foreign key's index.)
 */
const mysqlOnly = process.env.TEST_MYSQL_URL ? describe : describe.skip;

mysqlOnly('ends of one session racing [mysql]', () => {
  let testApp: TestApp;
  let other: QueryRunner;

  beforeAll(async () => {
    testApp = await startTestApp('mysql');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  beforeEach(async () => {
    other = testApp.dataSource.createQueryRunner();
    await other.connect();
  });

  afterEach(async () => {
    if (other.isTransactionActive) await other.rollbackTransaction();
    await other.release();
  });

  /** Ends the session in a transaction of `other` left open, as the stale sweep or a Stop would. */
  async function endElsewhere(sessionId: string, status: string): Promise<void> {
    await other.startTransaction();
    await other.query('UPDATE sessions SET status = ?, ended_at = UTC_TIMESTAMP(3) WHERE id = ?', [status, sessionId]);
  }

  /**
   * Resolves once a statement of the app's has been running for a second on this database: it waits
   * for the row `other` holds (bounded: 10 s).
   */
  async function someoneWaitsForALock(): Promise<void> {
    for (let tries = 0; tries < 100; tries += 1) {
      const [row]: Array<{ waiting: string | number }> = await testApp.dataSource.query(
        `SELECT COUNT(*) AS waiting FROM information_schema.PROCESSLIST
         WHERE DB = DATABASE() AND COMMAND = 'Query' AND TIME >= 1 AND ID <> CONNECTION_ID()`,
      );
      if (Number(row.waiting) > 0) {
        console.log(
          JSON.stringify(
            await testApp.dataSource.query(
              "SELECT INFO, STATE FROM information_schema.PROCESSLIST WHERE DB = DATABASE() AND COMMAND = 'Query'",
            ),
          ),
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('nobody waited for the row lock');
  }

  it('a session stop does not overwrite an end committed while it waited', async () => {
    const user = await createUser(testApp);
    const session = await startSession(testApp, { userId: user._id });

    await endElsewhere(session.id, 'expired');
    const stopping = testApp.app.get(SessionsService).stop(session.id);
    await someoneWaitsForALock();
    await other.commitTransaction();
    const answer = await stopping;

    expect(answer.status).toBe('expired');
    expect((await sessionRows(testApp, user._id)).map((row) => row.status)).toEqual(['expired']);
  });

  it('a block neither overwrites a session ended while it waited nor lists it in its unauth job', async () => {
    const user = await createUser(testApp);
    const ended = await startSession(testApp, { userId: user._id, macAddress: '02:00:00:00:0E:01' });
    const active = await startSession(testApp, { userId: user._id, macAddress: '02:00:00:00:0E:02' });

    await endElsewhere(ended.id, 'stopped');
    // then() sends the request (supertest sends none until asked for its answer).
    const blocking = api(testApp)
      .users.update(user._id, { status: 'blocked' })
      .then((response) => response);
    await someoneWaitsForALock();
    await other.commitTransaction();
    expect((await blocking).status).toBe(200);

    const statuses = Object.fromEntries((await sessionRows(testApp, user._id)).map((row) => [row.id, row.status]));
    expect(statuses).toEqual({ [ended.id]: 'stopped', [active.id]: 'expired' });
    const jobs = await jobsOf(testApp, user._id);
    expect(jobs.map((job) => job.sessions.map((s) => s.id))).toEqual([[active.id]]);
  });
});
