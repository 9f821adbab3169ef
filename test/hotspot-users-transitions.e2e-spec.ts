import { SessionsService } from '../src/sessions/sessions.service.js';
import { api } from './support/api-client.js';
import { MESSAGES, NOT_FOUND, sleep, validationError } from './support/expected.js';
import { givenUser, givenUserWithSessions, startSession, userBody } from './support/factories.js';
import { asJobSession, byId, jobsOf, sessionRows } from './support/rows.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const UPDATED = MESSAGES.updated;
const EXPIRED_NOT_EDITABLE = { success: false, message: 'Expired users cannot be edited' };

type Row = Record<string, unknown>;

async function deviceStatuses(testApp: TestApp, userId: string): Promise<string[]> {
  const rows: Array<{ status: string }> = await testApp.dataSource.query(
    'SELECT status FROM devices WHERE user_id = ? ORDER BY mac_address',
    [userId],
  );
  return rows.map((row) => row.status);
}

async function userRow(
  testApp: TestApp,
  userId: string,
): Promise<{ status: string; name: string; updated_at: unknown } | undefined> {
  const rows = await testApp.dataSource.query('SELECT status, name, updated_at FROM hotspot_users WHERE id = ?', [
    userId,
  ]);
  return rows[0];
}

async function venueRows(testApp: TestApp, userId: string): Promise<Row[]> {
  const rows: Row[] = await testApp.dataSource.query(
    'SELECT venue_id, position, user_status, username_key, email_key, phone_key FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
    [userId],
  );
  return rows.map((row) => ({ ...row, position: Number(row.position) }));
}

function expectRefreshed(after: string, before: string): void {
  expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
}

describeEachDatabase('PUT /api/v1/hotspot-users/:id: states, sessions and unauth jobs', (current) => {
  const users = () => api(current()).users;

  describe('active → blocked', () => {
    it('answers 200 with the blocked user, ends the active sessions, expires the devices and writes one job', async () => {
      const testApp = current();
      const created = await givenUser(testApp, {
        venueIds: ['venue-a', 'venue-b'],
        email: 'block-me@example.com',
      });
      const inA = await startSession(testApp, {
        userId: created._id,
        macAddress: 'AA:BB:CC:10:00:01',
        ipAddress: '10.0.0.11',
        nasId: 'nas-a',
      });
      const inB = await startSession(testApp, {
        userId: created._id,
        venueId: 'venue-b',
        macAddress: 'AA:BB:CC:10:00:02',
        ipAddress: '10.0.1.12',
        nasId: 'nas-b',
      });
      // A session the network side already stopped is not ended again nor sent in the job.
      const stopped = await startSession(testApp, { userId: created._id, macAddress: 'AA:BB:CC:10:00:03' });
      await testApp.app.get(SessionsService).stop(stopped.id);
      await sleep(5);

      const response = await users().update(created._id, { status: 'blocked' }).expect(200);
      expect(response.body).toEqual({
        success: true,
        message: UPDATED,
        data: { ...created, status: 'blocked', updatedAt: expect.any(String), devices: expect.any(Array) },
      });
      expectRefreshed(response.body.data.updatedAt, created.updatedAt);
      expect(response.body.data.devices).toHaveLength(3);
      for (const device of response.body.data.devices) expect(device.status).toBe('expired');

      const sessions = await sessionRows(testApp, created._id);
      const statusOf = (id: string) => sessions.find((row) => row.id === id);
      expect(statusOf(inA.id)).toEqual({ id: inA.id, status: 'expired', ended_at: expect.anything() });
      expect(statusOf(inB.id)).toEqual({ id: inB.id, status: 'expired', ended_at: expect.anything() });
      expect(statusOf(stopped.id)?.status).toBe('stopped');
      expect(await deviceStatuses(testApp, created._id)).toEqual(['expired', 'expired', 'expired']);

      expect(await userRow(testApp, created._id)).toEqual(expect.objectContaining({ status: 'blocked' }));
      expect((await venueRows(testApp, created._id)).map((row) => row.user_status)).toEqual(['blocked', 'blocked']);

      const jobs = await jobsOf(testApp, created._id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toEqual({
        id: expect.any(String),
        user_id: created._id,
        username: created.username,
        reason: 'blocked',
        status: 'pending',
        attempts: 0,
        sessions: expect.any(Array),
      });
      expect(byId(jobs[0].sessions)).toEqual(byId([asJobSession(inA), asJobSession(inB)]));
      expect(jobs[0].sessions).toContainEqual(
        expect.objectContaining({
          id: inA.id,
          venueId: 'venue-a',
          macAddress: 'AA:BB:CC:10:00:01',
          ipAddress: '10.0.0.11',
          nasId: 'nas-a',
        }),
      );

      const fetched = await users().get(created._id).expect(200);
      expect(fetched.body.data).toEqual(response.body.data);
    });

    it('writes exactly one job, with no sessions, when the user had none', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      await users().update(created._id, { status: 'blocked' }).expect(200);
      const jobs = await jobsOf(testApp, created._id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toEqual(
        expect.objectContaining({ user_id: created._id, username: created.username, reason: 'blocked', sessions: [] }),
      );
    });

    it('a blocked user keeps its username in its venues', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      await users().update(created._id, { status: 'blocked' }).expect(200);
      const clash = await users()
        .create(userBody({ username: created.username }))
        .expect(409);
      expect(clash.body).toEqual({
        success: false,
        message: 'Conflict',
        errors: [{ field: 'username', message: expect.stringContaining('venue-a') }],
      });
    });
  });

  describe('active → expired', () => {
    it('ends the sessions, writes one job with reason expired and frees username, email and phone', async () => {
      const testApp = current();
      const created = await givenUser(testApp, {
        email: 'expire-me@example.com',
        phone: '+90 532 111 22 33',
        venueIds: ['venue-a', 'venue-b'],
      });
      const session = await startSession(testApp, { userId: created._id, ipAddress: '10.0.0.21', nasId: 'nas-x' });
      await sleep(5);

      const response = await users().update(created._id, { status: 'expired' }).expect(200);
      expect(response.body).toEqual({
        success: true,
        message: UPDATED,
        data: {
          ...created,
          status: 'expired',
          updatedAt: expect.any(String),
          devices: [
            {
              macAddress: session.macAddress,
              name: null,
              status: 'expired',
              firstSeenAt: session.startedAt.toISOString(),
              lastSeenAt: session.startedAt.toISOString(),
            },
          ],
        },
      });
      expectRefreshed(response.body.data.updatedAt, created.updatedAt);

      expect(await sessionRows(testApp, created._id)).toEqual([
        { id: session.id, status: 'expired', ended_at: expect.anything() },
      ]);
      const jobs = await jobsOf(testApp, created._id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toEqual(
        expect.objectContaining({ reason: 'expired', username: created.username, sessions: [asJobSession(session)] }),
      );

      expect(await venueRows(testApp, created._id)).toEqual([
        {
          venue_id: 'venue-a',
          position: 0,
          user_status: 'expired',
          username_key: null,
          email_key: null,
          phone_key: null,
        },
        {
          venue_id: 'venue-b',
          position: 1,
          user_status: 'expired',
          username_key: null,
          email_key: null,
          phone_key: null,
        },
      ]);
      const reused = await users()
        .create(
          userBody({
            username: created.username,
            email: 'expire-me@example.com',
            phone: '+90 532 111 22 33',
            venueIds: ['venue-b', 'venue-a'],
          }),
        )
        .expect(201);
      expect(reused.body.data._id).not.toBe(created._id);
      expect(reused.body.data.username).toBe(created.username);
    });

    it('writes the job even without sessions', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      await users().update(created._id, { status: 'expired' }).expect(200);
      const jobs = await jobsOf(testApp, created._id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toEqual(expect.objectContaining({ reason: 'expired', sessions: [] }));
    });
  });

  describe('out of blocked', () => {
    it('blocked → active unblocks without a job, and the user may start sessions again', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      await users().update(created._id, { status: 'blocked' }).expect(200);
      await expect(startSession(testApp, { userId: created._id })).rejects.toThrow();
      await sleep(5);
      const blockedAt = (await users().get(created._id).expect(200)).body.data.updatedAt;

      const response = await users().update(created._id, { status: 'active' }).expect(200);
      expect(response.body).toEqual({
        success: true,
        message: UPDATED,
        data: { ...created, status: 'active', updatedAt: expect.any(String) },
      });
      expectRefreshed(response.body.data.updatedAt, blockedAt);
      expect(await userRow(testApp, created._id)).toEqual(expect.objectContaining({ status: 'active' }));
      expect((await venueRows(testApp, created._id)).map((row) => row.user_status)).toEqual(['active']);
      expect((await jobsOf(testApp, created._id)).map((job) => job.reason)).toEqual(['blocked']);

      const session = await startSession(testApp, { userId: created._id });
      expect(session.status).toBe('active');
    });

    it('blocked → expired writes a job with reason expired and frees the username', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      await users().update(created._id, { status: 'blocked' }).expect(200);
      const response = await users().update(created._id, { status: 'expired' }).expect(200);
      expect(response.body.data).toEqual({ ...created, status: 'expired', updatedAt: expect.any(String) });

      const jobs = await jobsOf(testApp, created._id);
      expect(jobs.map((job) => [job.reason, job.sessions])).toEqual([
        ['blocked', []],
        ['expired', []],
      ]);
      expect(await venueRows(testApp, created._id)).toEqual([
        expect.objectContaining({ user_status: 'expired', username_key: null }),
      ]);
      await givenUser(testApp, { username: created.username });
    });
  });

  describe('venues taken from an active user', () => {
    it('ends its sessions in those venues alone, with one job of reason venue-removed; devices stay', async () => {
      const testApp = current();
      const { user, sessions } = await givenUserWithSessions(testApp, {
        venues: ['venue-a', 'venue-b', 'venue-c'],
      });
      const [inA, inB, inC] = sessions;

      const response = await users()
        .update(user._id, { venueIds: ['venue-b', 'venue-d'] })
        .expect(200);
      expect(response.body.data.venueIds).toEqual(['venue-b', 'venue-d']);
      expect(response.body.data.devices.map((device: { status: string }) => device.status)).toEqual([
        'active',
        'active',
        'active',
      ]);

      expect(byId(await sessionRows(testApp, user._id))).toEqual(
        byId([
          { id: inA.id, status: 'expired', ended_at: expect.anything() },
          { id: inB.id, status: 'active', ended_at: null },
          { id: inC.id, status: 'expired', ended_at: expect.anything() },
        ]),
      );
      const jobs = await jobsOf(testApp, user._id);
      expect(jobs).toEqual([expect.objectContaining({ reason: 'venue-removed', status: 'pending' })]);
      expect(byId(jobs[0].sessions)).toEqual(byId([asJobSession(inA), asJobSession(inC)]));
    });

    it('writes no job when the venues taken held no active session, nor when no venue is taken', async () => {
      const testApp = current();
      const { user, sessions } = await givenUserWithSessions(testApp, { venues: ['venue-a', 'venue-b'], sessions: 1 });
      await users()
        .update(user._id, { venueIds: ['venue-a'] })
        .expect(200);
      await users()
        .update(user._id, { venueIds: ['venue-a', 'venue-c'] })
        .expect(200);
      expect(await jobsOf(testApp, user._id)).toEqual([]);
      expect(await sessionRows(testApp, user._id)).toEqual([{ id: sessions[0].id, status: 'active', ended_at: null }]);
    });

    it('a move into blocked in the same PUT ends every session with one job of reason blocked', async () => {
      const testApp = current();
      const { user } = await givenUserWithSessions(testApp, { venues: ['venue-a', 'venue-b'] });
      await users()
        .update(user._id, { venueIds: ['venue-b'], status: 'blocked' })
        .expect(200);
      expect((await jobsOf(testApp, user._id)).map((job) => [job.reason, job.sessions.length])).toEqual([
        ['blocked', 2],
      ]);
    });
  });

  describe('a PUT with the status the user already has', () => {
    it('active → active writes no job and leaves the sessions alone', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      const session = await startSession(testApp, { userId: created._id });
      const response = await users().update(created._id, { status: 'active' }).expect(200);
      expect(response.body.data.status).toBe('active');
      expect(response.body.data.devices).toEqual([expect.objectContaining({ status: 'active' })]);
      expect(await jobsOf(testApp, created._id)).toEqual([]);
      expect(await sessionRows(testApp, created._id)).toEqual([{ id: session.id, status: 'active', ended_at: null }]);
      expect(await deviceStatuses(testApp, created._id)).toEqual(['active']);
    });

    it('blocked → blocked writes no second job', async () => {
      const testApp = current();
      const created = await givenUser(testApp);
      await users().update(created._id, { status: 'blocked' }).expect(200);
      const response = await users().update(created._id, { status: 'blocked', name: 'Still Blocked' }).expect(200);
      expect(response.body.data).toEqual(expect.objectContaining({ status: 'blocked', name: 'Still Blocked' }));
      expect(await jobsOf(testApp, created._id)).toHaveLength(1);
    });
  });

  describe('an expired user cannot be edited', () => {
    it.each([
      ['an empty body', {}],
      ['a new name', { name: 'New Name' }],
      ['status active', { status: 'active' }],
      ['status blocked', { status: 'blocked' }],
      ['status expired', { status: 'expired' }],
      ['new metadata', { metadata: { a: 1 } }],
      ['the same venueIds', { venueIds: ['venue-a'] }],
      ['email null', { email: null }],
      ['a new username', { username: 'fresh-name-for-expired' }],
    ])('409 for %s, and nothing changes', async (_case, body) => {
      const testApp = current();
      const { user: created } = await givenUserWithSessions(testApp, { venues: ['venue-a'] });
      const expired = await users().expire(created._id).expect(200);
      const before = await userRow(testApp, created._id);
      const venuesBefore = await venueRows(testApp, created._id);
      const jobsBefore = await jobsOf(testApp, created._id);
      expect(jobsBefore).toHaveLength(1);
      await sleep(3);

      const response = await users().update(created._id, body).expect(409);
      expect(response.body).toEqual(EXPIRED_NOT_EDITABLE);

      expect(await userRow(testApp, created._id)).toEqual(before);
      expect(await venueRows(testApp, created._id)).toEqual(venuesBefore);
      expect(await jobsOf(testApp, created._id)).toEqual(jobsBefore);
      expect((await users().get(created._id).expect(200)).body.data).toEqual(expired.body.data.user);
    });

    it('an invalid body is still a 400 first (validation comes before the state check)', async () => {
      const created = await givenUser(current());
      await users().update(created._id, { status: 'expired' }).expect(200);
      const response = await users().update(created._id, { status: 'gone' }).expect(400);
      expect(response.body).toEqual(validationError('status'));
    });

    it('409 too for a user expired by PUT', async () => {
      const created = await givenUser(current());
      await users().update(created._id, { status: 'expired' }).expect(200);
      expect((await users().update(created._id, {}).expect(409)).body).toEqual(EXPIRED_NOT_EDITABLE);
      expect((await users().update(created._id, { status: 'active' }).expect(409)).body).toEqual(EXPIRED_NOT_EDITABLE);
    });
  });

  describe('field changes', () => {
    it('an empty body {} is 200, changes nothing but a refreshed updatedAt', async () => {
      const testApp = current();
      const created = await givenUser(testApp, { metadata: { keep: true }, email: 'empty-put@example.com' });
      await sleep(5);
      const response = await users().update(created._id, {}).expect(200);
      expect(response.body).toEqual({
        success: true,
        message: UPDATED,
        data: { ...created, updatedAt: expect.any(String) },
      });
      expectRefreshed(response.body.data.updatedAt, created.updatedAt);
      expect(response.body.data.createdAt).toBe(created.createdAt);
      expect((await users().get(created._id).expect(200)).body.data).toEqual(response.body.data);
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it('metadata is replaced whole, not merged', async () => {
      const testApp = current();
      const created = await givenUser(testApp, { metadata: { roomNumber: '12', nested: { a: 1, b: 2 } } });
      const response = await users()
        .update(created._id, { metadata: { nested: { c: 3 }, list: [1, 'two'] } })
        .expect(200);
      expect(response.body.data.metadata).toEqual({ nested: { c: 3 }, list: [1, 'two'] });
      expect((await users().get(created._id).expect(200)).body.data.metadata).toEqual({
        nested: { c: 3 },
        list: [1, 'two'],
      });

      const emptied = await users().update(created._id, { metadata: {} }).expect(200);
      expect(emptied.body.data.metadata).toEqual({});
    });

    it('venueIds are replaced, duplicates dropped and order kept; the lists follow', async () => {
      const testApp = current();
      const created = await givenUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
      const response = await users()
        .update(created._id, { venueIds: ['venue-c', 'venue-a', 'venue-c'] })
        .expect(200);
      expect(response.body.data).toEqual({
        ...created,
        venueIds: ['venue-c', 'venue-a'],
        updatedAt: expect.any(String),
      });
      expect((await venueRows(testApp, created._id)).map((row) => [row.venue_id, row.position])).toEqual([
        ['venue-c', 0],
        ['venue-a', 1],
      ]);

      const list = async (venueId: string) =>
        (await users().list({ venueId, limit: 100 }).expect(200)).body.data.map((user) => user._id);
      expect(await list('venue-b')).not.toContain(created._id);
      expect(await list('venue-c')).toContain(created._id);
      expect((await users().get(created._id, { venueId: 'venue-b' }).expect(404)).body).toEqual(NOT_FOUND);
    });

    it('name, email and phone change and stay changed', async () => {
      const testApp = current();
      const created = await givenUser(testApp, { email: 'before@example.com' });
      const response = await users()
        .update(created._id, { name: '  Yeni İsim  ', email: null, phone: '+90 555 000 11 22' })
        .expect(200);
      expect(response.body.data).toEqual({
        ...created,
        name: 'Yeni İsim',
        email: null,
        phone: '+90 555 000 11 22',
        updatedAt: expect.any(String),
      });
      expect((await users().get(created._id).expect(200)).body.data).toEqual(response.body.data);
    });
  });

  it('an unknown query parameter is 400 naming it, and nothing changes', async () => {
    const testApp = current();
    const created = await givenUser(testApp);
    const response = await users()
      .update(created._id, { status: 'blocked' }, { query: { stauts: 'blocked' } })
      .expect(400);
    expect(response.body).toEqual(validationError('stauts'));
    expect(await userRow(testApp, created._id)).toEqual(expect.objectContaining({ status: 'active' }));
    expect(await jobsOf(testApp, created._id)).toEqual([]);
  });

  describe('unknown ids', () => {
    it.each([
      ['an unknown id', '01900000-0000-7000-8000-000000000000'],
      ['a 500-character id', 'z'.repeat(500)],
      ['%ZZ', '%ZZ'],
      ['an encoded ../', '..%2F..%2Fx'],
    ])('PUT to %s is 404', async (_case, id) => {
      const response = await users().update(id, { name: 'Nobody' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
    });
  });
});
