import { SessionsService } from '../src/sessions/sessions.service.js';
import { createUser, startSession } from './support/factories.js';
import { asJobSession, byId, jobsOf, sessionRows } from './support/rows.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const USERS = '/api/v1/hotspot-users';
const EXPIRED = "Kullanıcı ve session'lar başarıyla expire edildi";
const DELETED = { success: true, message: 'Kullanıcı başarıyla silindi' };
const NOT_FOUND = { success: false, message: 'Kullanıcı bulunamadı' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function countRows(testApp: TestApp, table: string, column: string, userId: string): Promise<number> {
  const rows: Array<{ n: unknown }> = await testApp.dataSource.query(
    `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`,
    [userId],
  );
  return Number(rows[0].n);
}

function guest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { loginMethod: 'guest', username: undefined, password: undefined, ...overrides };
}

describeEachDatabase('POST /api/v1/hotspot-users/:id/expire', (current) => {
  const expire = (id: string, token: string = current().adminToken) =>
    current().http.post(`${USERS}/${id}/expire`).set('Authorization', `Bearer ${token}`);
  const getUser = (id: string) => current().http.get(`${USERS}/${id}`).set('Authorization', `Bearer ${current().adminToken}`);

  it('ends the active sessions in every venue, expires the user and writes one job', async () => {
    const testApp = current();
    const created = await createUser(testApp, { venueIds: ['venue-a', 'venue-b'], email: 'exp@example.com' });
    const inA = await startSession(testApp, {
      userId: created._id,
      macAddress: 'AA:BB:CC:20:00:01',
      ipAddress: '10.1.0.1',
      nasId: 'nas-a',
    });
    const inB = await startSession(testApp, {
      userId: created._id,
      venueId: 'venue-b',
      macAddress: 'AA:BB:CC:20:00:02',
      ipAddress: '10.2.0.1',
    });
    await sleep(5);

    const response = await expire(created._id).expect(200);
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
            expect.objectContaining({ macAddress: 'AA:BB:CC:20:00:01', status: 'expired' }),
            expect.objectContaining({ macAddress: 'AA:BB:CC:20:00:02', status: 'expired' }),
          ]),
        },
      },
    });
    expect(response.body.data.user.devices).toHaveLength(2);
    expect(Date.parse(response.body.data.user.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt as string));

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
    expect((await getUser(created._id).expect(200)).body.data).toEqual(response.body.data.user);
  });

  it('with no active session: 0 and no job, though the user becomes expired', async () => {
    const testApp = current();
    const created = await createUser(testApp, guest());
    // A session the network side already stopped is not active any more.
    const stopped = await startSession(testApp, { userId: created._id });
    await testApp.app.get(SessionsService).stop(stopped.id);
    await sleep(5);

    const response = await expire(created._id).expect(200);
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
    expect(Date.parse(response.body.data.user.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt as string));
    expect(await jobsOf(testApp, created._id)).toEqual([]);
    expect(await sessionRows(testApp, created._id)).toEqual([
      { id: stopped.id, status: 'stopped', ended_at: expect.anything() },
    ]);
  });

  it('is idempotent: again on an expired user, 200 with 0 sessions and no new job', async () => {
    const testApp = current();
    const created = await createUser(testApp, guest());
    await startSession(testApp, { userId: created._id });
    const first = await expire(created._id).expect(200);
    expect(first.body.data.expiredSessions).toBe(1);
    await sleep(5);

    const again = await expire(created._id).expect(200);
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
    const created = await createUser(testApp);
    await testApp.http
      .put(`${USERS}/${created._id}`)
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ status: 'blocked' })
      .expect(200);
    const response = await expire(created._id).expect(200);
    expect(response.body.data).toEqual({ expiredSessions: 0, user: expect.objectContaining({ status: 'expired' }) });
    expect((await jobsOf(testApp, created._id)).map((job) => job.reason)).toEqual(['blocked']);
  });

  describe('the optional body, and the query', () => {
    it.each([
      ['no body at all', undefined],
      ['an empty object', {}],
      ['the first venueId', { venueId: 'venue-a' }],
      ['another of the user\'s venues', { venueId: 'venue-b' }],
    ])('%s works', async (_case, body) => {
      const testApp = current();
      const created = await createUser(testApp, guest({ venueIds: ['venue-a', 'venue-b'] }));
      await startSession(testApp, { userId: created._id, venueId: 'venue-a' });
      await startSession(testApp, { userId: created._id, venueId: 'venue-b', macAddress: 'AA:BB:CC:DD:EE:02' });
      let request = expire(created._id);
      if (body !== undefined) request = request.send(body);
      const response = await request.expect(200);
      // The venue only picks the context: sessions end in every venue.
      expect(response.body.data.expiredSessions).toBe(2);
      expect(response.body.data.user.status).toBe('expired');
      expect((await sessionRows(testApp, created._id)).map((row) => row.status)).toEqual(['expired', 'expired']);
    });

    it('a venueId the user is not in is 404 and changes nothing', async () => {
      const testApp = current();
      const created = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      await startSession(testApp, { userId: created._id });
      const response = await expire(created._id).send({ venueId: 'venue-b' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect((await getUser(created._id).expect(200)).body.data.status).toBe('active');
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it.each([
      ['an unknown field', { venueId: 'venue-a', reason: 'x' }, 'reason'],
      ['_id', { _id: 'other' }, '_id'],
      ['status', { status: 'expired' }, 'status'],
    ])('%s is 400 naming it, and nothing changes', async (_case, body, field) => {
      const testApp = current();
      const created = await createUser(testApp, guest());
      await startSession(testApp, { userId: created._id });
      const response = await expire(created._id).send(body).expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field, message: expect.any(String) }],
      });
      expect((await getUser(created._id).expect(200)).body.data.status).toBe('active');
      expect((await sessionRows(testApp, created._id)).map((row) => row.status)).toEqual(['active']);
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it('an unknown query parameter is 400 naming it, and nothing changes', async () => {
      const testApp = current();
      const created = await createUser(testApp, guest());
      await startSession(testApp, { userId: created._id });
      const response = await testApp.http
        .post(`${USERS}/${created._id}/expire?foo=1`)
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'foo', message: expect.any(String) }],
      });
      expect((await getUser(created._id).expect(200)).body.data.status).toBe('active');
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it('a venueId in the query (expire takes it in the body) is refused, never silently ignored', async () => {
      const testApp = current();
      const created = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      await startSession(testApp, { userId: created._id });
      const oneVenue = await testApp.createToken({ permissions: ['write'], venueIds: ['venue-a'] });
      // venue-b lies outside the token: whether read as an unknown parameter (400) or as the venue
      // context (403), the user must not be expired.
      const response = await testApp.http
        .post(`${USERS}/${created._id}/expire?venueId=venue-b`)
        .set('Authorization', `Bearer ${oneVenue}`);
      expect([400, 403]).toContain(response.status);
      expect(response.body).toEqual({
        success: false,
        message: response.status === 400 ? 'Validation error' : 'Forbidden',
        errors: [{ field: 'venueId', message: expect.any(String) }],
      });
      expect((await getUser(created._id).expect(200)).body.data.status).toBe('active');
      expect(await jobsOf(testApp, created._id)).toEqual([]);
    });

    it.each([
      ['a number', { venueId: 42 }],
      ['an empty string', { venueId: '' }],
      ['a malformed venue', { venueId: 'venue a/..' }],
      ['an array', { venueId: ['venue-a'] }],
    ])('venueId as %s is 400 naming venueId', async (_case, body) => {
      const created = await createUser(current(), guest());
      const response = await expire(created._id).send(body).expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'venueId', message: expect.any(String) }],
      });
    });
  });

  it.each([
    ['an unknown id', '01900000-0000-7000-8000-000000000000'],
    ['a 500-character id', 'e'.repeat(500)],
    ['%ZZ', '%ZZ'],
    ['an encoded ../', '..%2F'],
  ])('%s is 404', async (_case, id) => {
    const response = await expire(id).expect(404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});

describeEachDatabase('DELETE /api/v1/hotspot-users/:id', (current) => {
  const remove = (id: string, token: string = current().adminToken) =>
    current().http.delete(`${USERS}/${id}`).set('Authorization', `Bearer ${token}`);
  const getUser = (id: string) => current().http.get(`${USERS}/${id}`).set('Authorization', `Bearer ${current().adminToken}`);

  async function expectGone(testApp: TestApp, userId: string): Promise<void> {
    expect((await getUser(userId).expect(404)).body).toEqual(NOT_FOUND);
    expect(await countRows(testApp, 'hotspot_users', 'id', userId)).toBe(0);
    expect(await countRows(testApp, 'hotspot_user_venues', 'user_id', userId)).toBe(0);
    expect(await countRows(testApp, 'devices', 'user_id', userId)).toBe(0);
    expect(await countRows(testApp, 'sessions', 'user_id', userId)).toBe(0);
  }

  it('with active sessions: 200, the user and its rows are gone, one job reason deleted remains', async () => {
    const testApp = current();
    const created = await createUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
    const inA = await startSession(testApp, { userId: created._id, ipAddress: '10.3.0.1', nasId: 'nas-3' });
    const inB = await startSession(testApp, { userId: created._id, venueId: 'venue-b', macAddress: 'AA:BB:CC:30:00:02' });
    const stopped = await startSession(testApp, { userId: created._id, macAddress: 'AA:BB:CC:30:00:03' });
    await testApp.app.get(SessionsService).stop(stopped.id);
    expect(await countRows(testApp, 'devices', 'user_id', created._id)).toBe(3);

    const response = await remove(created._id).expect(200);
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
    const created = await createUser(testApp, guest());
    const stopped = await startSession(testApp, { userId: created._id });
    await testApp.app.get(SessionsService).stop(stopped.id);
    expect((await remove(created._id).expect(200)).body).toEqual(DELETED);
    await expectGone(testApp, created._id);
    expect(await jobsOf(testApp, created._id)).toEqual([]);
  });

  it('deletes blocked and expired users too; their earlier jobs stay', async () => {
    const testApp = current();
    const blocked = await createUser(testApp, guest());
    await testApp.http
      .put(`${USERS}/${blocked._id}`)
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ status: 'blocked' })
      .expect(200);
    const expired = await createUser(testApp, guest());
    await startSession(testApp, { userId: expired._id });
    await testApp.http.post(`${USERS}/${expired._id}/expire`).set('Authorization', `Bearer ${testApp.adminToken}`).expect(200);

    for (const user of [blocked, expired]) {
      expect((await remove(user._id).expect(200)).body).toEqual(DELETED);
      await expectGone(testApp, user._id);
    }
    expect((await jobsOf(testApp, blocked._id)).map((job) => job.reason)).toEqual(['blocked']);
    expect((await jobsOf(testApp, expired._id)).map((job) => job.reason)).toEqual(['expired']);
  });

  it('frees the username for a new user, and a second DELETE is 404', async () => {
    const testApp = current();
    const created = await createUser(testApp);
    await remove(created._id).expect(200);
    expect((await remove(created._id).expect(404)).body).toEqual(NOT_FOUND);
    await createUser(testApp, { username: created.username });
  });

  it('an unknown query parameter is 400 naming it, and the user stays', async () => {
    const testApp = current();
    const created = await createUser(testApp, guest());
    const response = await remove(`${created._id}?force=true`).expect(400);
    expect(response.body).toEqual({
      success: false,
      message: 'Validation error',
      errors: [{ field: 'force', message: expect.any(String) }],
    });
    await getUser(created._id).expect(200);
  });

  it('?venueId= of one of its venues works; of another venue is 404 and keeps the user', async () => {
    const testApp = current();
    const created = await createUser(testApp, guest({ venueIds: ['venue-a', 'venue-b'] }));
    expect((await remove(`${created._id}?venueId=venue-c`).expect(404)).body).toEqual(NOT_FOUND);
    await getUser(created._id).expect(200);
    expect((await remove(`${created._id}?venueId=venue-b`).expect(200)).body).toEqual(DELETED);
    await expectGone(testApp, created._id);
  });

  it.each([
    ['an unknown id', '01900000-0000-7000-8000-000000000000'],
    ['a 500-character id', 'd'.repeat(500)],
    ['%ZZ', '%ZZ'],
    ['an encoded ../', '..%2F..%2F'],
  ])('%s is 404', async (_case, id) => {
    const response = await remove(id).expect(404);
    expect(response.body).toEqual(NOT_FOUND);
  });
});
