import type { Response } from 'supertest';
import { api } from './support/api-client.js';
import { givenUser, givenUserWithSessions, uniqueEmail } from './support/factories.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The unauth job is an outbox row written in the same transaction as the change that causes it. Here
 * the job write really fails (its table is renamed away), and the change must roll back with it.
 * Everything runs one request at a time: SQLite serialises all the app's database work anyway.
 */

const INTERNAL = { success: false, message: 'Internal server error' };

/** Runs `work` while every insert into unauth_jobs fails; the table is always put back. */
async function withoutJobTable<T>(testApp: TestApp, work: () => Promise<T>): Promise<T> {
  await testApp.database.run((em) => em.query('ALTER TABLE unauth_jobs RENAME TO unauth_jobs_off'));
  try {
    return await work();
  } finally {
    await testApp.database.run((em) => em.query('ALTER TABLE unauth_jobs_off RENAME TO unauth_jobs'));
  }
}

function expectInternalErrorWithoutDetails(response: Pick<Response, 'status' | 'body' | 'text'>): void {
  expect(response.status).toBe(500);
  expect(response.body).toEqual(INTERNAL);
  const text = response.text ?? '';
  expect(text).not.toMatch(/unauth_jobs|INSERT|SELECT|SQL|sqlite|ER_|no such table|doesn't exist|QueryFailed/i);
  expect(text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.ts\b|stack/i);
}

interface Snapshot {
  user: unknown[];
  venues: unknown[];
  sessions: unknown[];
  devices: unknown[];
  jobs: unknown[];
}

/** Everything stored about a user, to compare before and after a refused change. */
async function snapshot(testApp: TestApp, userId: string): Promise<Snapshot> {
  const q = (sql: string) => testApp.dataSource.query(sql, [userId]);
  return {
    user: await q('SELECT id, name, status, updated_at FROM hotspot_users WHERE id = ?'),
    venues: await q(
      'SELECT venue_id, position, user_status, username_key, email_key, phone_key FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
    ),
    sessions: await q('SELECT id, status, ended_at FROM sessions WHERE user_id = ? ORDER BY id'),
    devices: await q('SELECT mac_address, status, last_seen_at FROM devices WHERE user_id = ? ORDER BY mac_address'),
    jobs: await q('SELECT id FROM unauth_jobs WHERE user_id = ?'),
  };
}

async function jobReasons(testApp: TestApp, userId: string): Promise<string[]> {
  const rows: Array<{ reason: string }> = await testApp.dataSource.query(
    'SELECT reason FROM unauth_jobs WHERE user_id = ? ORDER BY created_at, id',
    [userId],
  );
  return rows.map((row) => row.reason);
}

describe.each(databaseKinds())('unauth jobs are written atomically with the change [%s]', (kind) => {
  // The 500s below are expected: the app logs each one as an error, so only fatal lines are shown.
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(kind, { LOG_LEVEL: 'fatal' });
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestApp => {
    if (started === undefined) throw new Error('test app not started');
    return started;
  };
  const users = () => api(current()).users;

  /** A user in two venues with an active session in each. */
  async function userWithSessions(testApp: TestApp) {
    const given = await givenUserWithSessions(testApp, {
      venues: ['venue-a', 'venue-b'],
      user: { email: uniqueEmail('atomic') },
    });
    return given.user;
  }

  it.each(['blocked', 'expired'])('PUT status %s: 500, and the user and its sessions stay active', async (status) => {
    const testApp = current();
    const user = await userWithSessions(testApp);
    const before = await snapshot(testApp, user._id);
    const shownBefore = (await users().get(user._id).expect(200)).body;

    const response = await withoutJobTable(testApp, () => users().update(user._id, { status, name: 'Half Done' }));
    expectInternalErrorWithoutDetails(response);

    const after = await snapshot(testApp, user._id);
    expect(after).toEqual(before);
    expect(after.user).toEqual([expect.objectContaining({ status: 'active', name: user.name })]);
    expect(after.sessions).toEqual([
      expect.objectContaining({ status: 'active', ended_at: null }),
      expect.objectContaining({ status: 'active', ended_at: null }),
    ]);
    expect(after.devices).toEqual([
      expect.objectContaining({ status: 'active' }),
      expect.objectContaining({ status: 'active' }),
    ]);
    expect(after.venues).toEqual([
      expect.objectContaining({ user_status: 'active', username_key: expect.any(String) }),
      expect.objectContaining({ user_status: 'active', username_key: expect.any(String) }),
    ]);
    expect((await users().get(user._id).expect(200)).body).toEqual(shownBefore);

    // With the table back, the same request goes through and writes its one job.
    await users().update(user._id, { status }).expect(200);
    expect(await jobReasons(testApp, user._id)).toEqual([status]);
  });

  it('PUT blocked without sessions fails too: the job is written even then, so the block rolls back', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    const before = await snapshot(testApp, user._id);
    const response = await withoutJobTable(testApp, () => users().update(user._id, { status: 'blocked' }));
    expectInternalErrorWithoutDetails(response);
    expect(await snapshot(testApp, user._id)).toEqual(before);
  });

  it('POST expire with active sessions: 500, and the user and its sessions stay active', async () => {
    const testApp = current();
    const user = await userWithSessions(testApp);
    const before = await snapshot(testApp, user._id);

    const response = await withoutJobTable(testApp, () => users().expire(user._id));
    expectInternalErrorWithoutDetails(response);
    const after = await snapshot(testApp, user._id);
    expect(after).toEqual(before);
    expect(after.user).toEqual([expect.objectContaining({ status: 'active' })]);
    expect(after.sessions).toEqual([
      expect.objectContaining({ status: 'active', ended_at: null }),
      expect.objectContaining({ status: 'active', ended_at: null }),
    ]);

    const retried = await users().expire(user._id).expect(200);
    expect(retried.body.data.expiredSessions).toBe(2);
    expect(await jobReasons(testApp, user._id)).toEqual(['expired']);
  });

  it('POST expire without active sessions writes no job, so it succeeds even then', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    const response = await withoutJobTable(testApp, () => users().expire(user._id));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ expiredSessions: 0, user: expect.objectContaining({ status: 'expired' }) });
  });

  it('DELETE with active sessions: 500, and the user, its venues, devices and sessions all remain', async () => {
    const testApp = current();
    const user = await userWithSessions(testApp);
    const before = await snapshot(testApp, user._id);

    const response = await withoutJobTable(testApp, () => users().remove(user._id));
    expectInternalErrorWithoutDetails(response);
    const after = await snapshot(testApp, user._id);
    expect(after).toEqual(before);
    expect(after.user).toHaveLength(1);
    expect(after.venues).toHaveLength(2);
    expect(after.devices).toHaveLength(2);
    expect(after.sessions).toEqual([
      expect.objectContaining({ status: 'active', ended_at: null }),
      expect.objectContaining({ status: 'active', ended_at: null }),
    ]);
    await users().get(user._id).expect(200);

    await users().remove(user._id).expect(200);
    expect(await jobReasons(testApp, user._id)).toEqual(['deleted']);
  });

  it('the service keeps answering normally after the failures', async () => {
    const testApp = current();
    const user = await givenUser(testApp);
    await users().update(user._id, { name: 'Fine' }).expect(200);
    await users().list({ venueId: 'venue-a' }).expect(200);
  });
});
