import { SessionsService } from '../src/sessions/sessions.service.js';
import { api } from './support/api-client.js';
import { DELETED, MESSAGES, NOT_FOUND, sleep, validationError } from './support/expected.js';
import {
  givenGuest,
  givenUser,
  givenUserWithSessions,
  GUEST,
  startSession,
  uniqueDevice,
} from './support/factories.js';
import { asJobSession, byId, jobsOf, sessionRows } from './support/rows.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const EXPIRED = MESSAGES.expired;

async function countRows(testApp: TestApp, table: string, column: string, userId: string): Promise<number> {
  const rows: Array<{ n: unknown }> = await testApp.dataSource.query(
    `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`,
    [userId],
  );
  return Number(rows[0].n);
}

describeEachDatabase('POST /api/v1/hotspot-users/:id/expire', (current) => {
  const users = () => api(current()).users;

  it('ends the active sessions in every venue, expires the user and writes one job', async () => {
    const testApp = current();
    const {
      user: created,
      sessions: [inA, inB],
    } = await givenUserWithSessions(testApp, {
      venues: ['venue-a', 'venue-b'],
      user: { email: 'exp@example.com' },
      session: { nasId: 'nas-a' },
    });
    await sleep(5);

    const response = await users().expire(created._id).expect(200);
    expect(response.body).toEqual({
      success: true,
      message: EXPIRED,
      data: {
        expiredSessions: 2,
        user: {
          ...created,
          status: 'expired',
          updatedAt: expect.any(String),
          devices: expect.arrayContaining([
            expect.objectContaining({ macAddress: inA.macAddress, status: 'expired' }),
            expect.objectContaining({ macAddress: inB.macAddress, status: 'expired' }),
          ]),
        },
      },
    });
    expect(response.body.data.user.devices).toHaveLength(2);
    expect(Date.parse(response.body.data.user.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));

    expect(await sessionRows(testApp, created._id)).toEqual(
      byId([
        { id: inA.id, status: 'expired', ended_at: expect.anything() },
        { id: inB.id, status: 'expired', ended_at: expect.anything() },
      ]),
    );
    const jobs = await jobsOf(testApp, created._id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toEqual({
      id: expect.any(String),
      user_id: created._id,
      username: created.username,
      reason: 'expired',
      status: 'pending',
      attempts: 0,
      sessions: expect.any(Array),
    });
    expect(byId(jobs[0].sessions)).toEqual(byId([asJobSession(inA), asJobSession(inB)]));

    const userRows: Array<{ status: string }> = await testApp.dataSource.query(
      'SELECT status FROM hotspot_users WHERE id = ?',
      [created._id],
    );
    expect(userRows).toEqual([{ status: 'expired' }]);
    const venueRows: Array<Record<string, unknown>> = await testApp.dataSource.query(
      'SELECT venue_id, user_status, username_key, email_key FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
      [created._id],
    );
    expect(venueRows).toEqual([
      { venue_id: 'venue-a', user_status: 'expired', username_key: null, email_key: null },
      { venue_id: 'venue-b', user_status: 'expired', username_key: null, email_key: null },
    ]);
    expect((await users().get(created._id).expect(200)).body.data).toEqual(response.body.data.user);
  });

  it('with no active session: 0 and no job, though the user becomes expired', async () => {
    const testApp = current();
    const created = await givenGuest(testApp);
    // A session the network side already stopped is not active any more.
    const stopped = await startSession(testApp, { userId: created._id });
    await testApp.app.get(SessionsService).stop(stopped.id);
    await sleep(5);

    const response = await users().expire(created._id).expect(200);
    expect(response.body).toEqual({
      success: true,
      message: EXPIRED,
      data: {
        expiredSessions: 0,
        user: {
          ...created,
          status: 'expired',
          updatedAt: expect.any(String),
          devices: [expect.objectContaining({ macAddress: stopped.macAddress, status: 'expired' })],
        },
      },
    });
    expect(Date.parse(response.body.data.user.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(await jobsOf(testApp, created._id)).toEqual([]);
    expect(await sessionRows(testApp, created._id)).toEqual([
      { id: stopped.id, status: 'stopped', ended_at: expect.anything() },
    ]);
  });

  it('is idempotent: again on an expired user, 200 with 0 sessions and no new job', async () => {
    const testApp = current();
    const { user: created } = await givenUserWithSessions(testApp, { user: GUEST });
    const first = await users().expire(created._id).expect(200);
    expect(first.body.data.expiredSessions).toBe(1);
    await sleep(5);

    const again = await users().expire(created._id).expect(200);
    expect(again.body).toEqual({
      success: true,
      message: EXPIRED,
      data: { expiredSessions: 0, user: { ...first.body.data.user, updatedAt: expect.any(String) } },
    });
    expect(again.body.data.user.status).toBe('expired');
    expect(await jobsOf(testApp, created._id)).toHaveLength(1);
  });

  it('expires a blocked user too', async () => {
    const testApp = current();
    const created = await givenUser(testApp);
    await users().update(created._id, { status: 'blocked' }).expect(200);
    const response = await users().expire(created._id).expect(200);
    expect(response.body.data).toEqual({ expiredSessions: 0, user: expect.objectContaining({ status: 'expired' }) });
    expect((await jobsOf(testApp, created._id)).map((job) => job.reason)).toEqual(['blocked']);
  });

  describe('the optional body, and the query', () => {
    it.each([
      ['no body at all', undefined],
      ['an empty object', {}],
      ['a null venueId, which means none, as on create', { venueId: null }],
      ['the first venueId', { venueId: 'venue-a' }],
      ["another of the user's venues", { venueId: 'venue-b' }],
    ])('%s works', async (_case, body) => {
      const testApp = current();
      const { user: created } = await givenUserWithSessions(testApp, { venues: ['venue-a', 'venue-b'], user: GUEST });
      const response = await users().expire(created._id, { body }).expect(200);
      // The venue only picks the context: sessions end in every venue.
      expect(response.body.data.expiredSessions).toBe(2);
      expect(response.body.data.user.status).toBe('expired');
      expect((await sessionRows(testApp, created._id)).map((row) => row.status)).toEqual(['expired', 'expired']);
    });

    it('a venueId the user is not in is 404 and changes nothing', async () => {
      const testApp = current();
      const { user: created } = await givenUserWithSessions(testApp, { venues: ['venue-a'], user: GUEST });
      const response = await users().expire(created._id, { venueId: 'venue-b' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect((await users().get(created._id).expect(200)).body.data.status).toBe('active');
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it.each([
      ['an unknown field', { venueId: 'venue-a', reason: 'x' }, 'reason'],
      ['_id', { _id: 'other' }, '_id'],
      ['status', { status: 'expired' }, 'status'],
    ])('%s is 400 naming it, and nothing changes', async (_case, body, field) => {
      const testApp = current();
      const { user: created } = await givenUserWithSessions(testApp, { user: GUEST });
      const response = await users().expire(created._id, { body }).expect(400);
      expect(response.body).toEqual(validationError(field));
      expect((await users().get(created._id).expect(200)).body.data.status).toBe('active');
      expect((await sessionRows(testApp, created._id)).map((row) => row.status)).toEqual(['active']);
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it('an unknown query parameter is 400 naming it, and nothing changes', async () => {
      const testApp = current();
      const { user: created } = await givenUserWithSessions(testApp, { user: GUEST });
      const response = await users()
        .expire(created._id, { query: { foo: '1' } })
        .expect(400);
      expect(response.body).toEqual(validationError('foo'));
      expect((await users().get(created._id).expect(200)).body.data.status).toBe('active');
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it('a venueId in the query (expire takes it in the body) is refused, never silently ignored', async () => {
      const testApp = current();
      const { user: created } = await givenUserWithSessions(testApp, { venues: ['venue-a'], user: GUEST });
      const oneVenue = await testApp.createToken({ permissions: ['write'], venueIds: ['venue-a'] });
      // venue-b lies outside the token: whether read as an unknown parameter (400) or as the venue
      // context (403), the user must not be expired.
      const response = await users().expire(created._id, { token: oneVenue, query: { venueId: 'venue-b' } });
      expect([400, 403]).toContain(response.status);
      expect(response.body).toEqual({
        success: false,
        message: response.status === 400 ? 'Validation error' : 'Forbidden',
        errors: [{ field: 'venueId', message: expect.any(String) }],
      });
      expect((await users().get(created._id).expect(200)).body.data.status).toBe('active');
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it.each([
      ['a number', { venueId: 42 }],
      ['an empty string', { venueId: '' }],
      ['a malformed venue', { venueId: 'venue a/..' }],
      ['an array', { venueId: ['venue-a'] }],
    ])('venueId as %s is 400 naming venueId', async (_case, body) => {
      const created = await givenGuest(current());
      const response = await users().expire(created._id, { body }).expect(400);
      expect(response.body).toEqual(validationError('venueId'));
    });
  });

  it.each([
    ['an unknown id', '01900000-0000-7000-8000-000000000000'],
    ['a 500-character id', 'e'.repeat(500)],
    ['%ZZ', '%ZZ'],
    ['an encoded ../', '..%2F'],
  ])('%s is 404', async (_case, id) => {
    const response = await users().expire(id).expect(404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describeEachDatabase('DELETE /api/v1/hotspot-users/:id', (current) => {
  const users = () => api(current()).users;

  async function expectGone(testApp: TestApp, userId: string): Promise<void> {
    expect((await users().get(userId).expect(404)).body).toEqual(NOT_FOUND);
    expect(await countRows(testApp, 'hotspot_users', 'id', userId)).toBe(0);
    expect(await countRows(testApp, 'hotspot_user_venues', 'user_id', userId)).toBe(0);
    expect(await countRows(testApp, 'devices', 'user_id', userId)).toBe(0);
    expect(await countRows(testApp, 'sessions', 'user_id', userId)).toBe(0);
  }

  it('with active sessions: 200, the user and its rows are gone, one job reason deleted remains', async () => {
    const testApp = current();
    const {
      user: created,
      sessions: [inA, inB],
    } = await givenUserWithSessions(testApp, { venues: ['venue-a', 'venue-b'], session: { nasId: 'nas-3' } });
    const stopped = await startSession(testApp, { userId: created._id, ...uniqueDevice() });
    await testApp.app.get(SessionsService).stop(stopped.id);
    expect(await countRows(testApp, 'devices', 'user_id', created._id)).toBe(3);

    const response = await users().remove(created._id).expect(200);
    expect(response.body).toEqual(DELETED);
    await expectGone(testApp, created._id);

    const jobs = await jobsOf(testApp, created._id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toEqual({
      id: expect.any(String),
      user_id: created._id,
      username: created.username,
      reason: 'deleted',
      status: 'pending',
      attempts: 0,
      sessions: expect.any(Array),
    });
    expect(byId(jobs[0].sessions)).toEqual(byId([asJobSession(inA), asJobSession(inB)]));
  });

  it('without active sessions: 200 and no job', async () => {
    const testApp = current();
    const created = await givenGuest(testApp);
    const stopped = await startSession(testApp, { userId: created._id });
    await testApp.app.get(SessionsService).stop(stopped.id);
    expect((await users().remove(created._id).expect(200)).body).toEqual(DELETED);
    await expectGone(testApp, created._id);
    expect(await jobsOf(testApp, created._id)).toEqual([]);
  });

  it('deletes blocked and expired users too; their earlier jobs stay', async () => {
    const testApp = current();
    const blocked = await givenGuest(testApp);
    await users().update(blocked._id, { status: 'blocked' }).expect(200);
    const { user: expired } = await givenUserWithSessions(testApp, { user: GUEST });
    await users().expire(expired._id).expect(200);

    for (const user of [blocked, expired]) {
      expect((await users().remove(user._id).expect(200)).body).toEqual(DELETED);
      await expectGone(testApp, user._id);
    }
    expect((await jobsOf(testApp, blocked._id)).map((job) => job.reason)).toEqual(['blocked']);
    expect((await jobsOf(testApp, expired._id)).map((job) => job.reason)).toEqual(['expired']);
  });

  it('frees the username for a new user, and a second DELETE is 404', async () => {
    const testApp = current();
    const created = await givenUser(testApp);
    await users().remove(created._id).expect(200);
    expect((await users().remove(created._id).expect(404)).body).toEqual(NOT_FOUND);
    await givenUser(testApp, { username: created.username });
  });

  it('an unknown query parameter is 400 naming it, and the user stays', async () => {
    const testApp = current();
    const created = await givenGuest(testApp);
    const response = await users()
      .remove(created._id, { query: { force: 'true' } })
      .expect(400);
    expect(response.body).toEqual(validationError('force'));
    await users().get(created._id).expect(200);
  });

  it('?venueId= of one of its venues works; of another venue is 404 and keeps the user', async () => {
    const testApp = current();
    const created = await givenGuest(testApp, { venueIds: ['venue-a', 'venue-b'] });
    expect((await users().remove(created._id, { venueId: 'venue-c' }).expect(404)).body).toEqual(NOT_FOUND);
    await users().get(created._id).expect(200);
    expect((await users().remove(created._id, { venueId: 'venue-b' }).expect(200)).body).toEqual(DELETED);
    await expectGone(testApp, created._id);
  });

  it.each([
    ['an unknown id', '01900000-0000-7000-8000-000000000000'],
    ['a 500-character id', 'd'.repeat(500)],
    ['%ZZ', '%ZZ'],
    ['an encoded ../', '..%2F..%2F'],
  ])('%s is 404', async (_case, id) => {
    const response = await users().remove(id).expect(404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});
