import type { Response } from 'supertest';
import type { HotspotUserDto } from '../src/hotspot-users/dto/hotspot-user.response.js';
import { api, type ApiCall } from './support/api-client.js';
import { DELETED, FORBIDDEN, forbiddenNaming, NOT_FOUND, UNAUTHORIZED, validationError } from './support/expected.js';
import { givenGuest, givenUserWithSessions, userBody } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

/** One request of a table, labelled for the failure message; a null token sends no Authorization header. */
type Call = [label: string, send: (token: string | null) => ApiCall<{ success: boolean; data?: unknown }>];

/** What a change that succeeded must have left behind, given the answer's body. */
type Done = (testApp: TestApp, user: HotspotUserDto, body: { success: boolean; data?: unknown }) => Promise<void>;

/** 403 Forbidden whose `errors` name exactly `field`. */
function expectForbiddenNaming(response: Pick<Response, 'status' | 'body'>, field: string): void {
  expect(response.status).toBe(403);
  expect(response.body).toEqual(forbiddenNaming(field));
}

async function userState(testApp: TestApp, id: string): Promise<{ status: string; name: string } | undefined> {
  const rows: Array<{ status: string; name: string }> = await testApp.dataSource.query(
    'SELECT status, name FROM hotspot_users WHERE id = ?',
    [id],
  );
  return rows[0];
}

async function jobCount(testApp: TestApp, id: string): Promise<number> {
  const rows: Array<{ n: unknown }> = await testApp.dataSource.query(
    'SELECT COUNT(*) AS n FROM unauth_jobs WHERE user_id = ?',
    [id],
  );
  return Number(rows[0].n);
}

async function usersNamed(testApp: TestApp, username: string): Promise<number> {
  const rows: Array<{ n: unknown }> = await testApp.dataSource.query(
    'SELECT COUNT(*) AS n FROM hotspot_users WHERE username = ?',
    [username],
  );
  return Number(rows[0].n);
}

describeEachDatabase('permission levels', (current) => {
  const users = () => api(current()).users;

  let read: string;
  let write: string;
  let deleteOnly: string;
  beforeAll(async () => {
    read = await current().createToken({ permissions: ['read'] });
    write = await current().createToken({ permissions: ['write'] });
    deleteOnly = await current().createToken({ permissions: ['delete'] });
  });

  describe('a read token', () => {
    it('may list and get', async () => {
      const created = await givenGuest(current());
      const list = await users().list({ venueId: 'venue-a' }, { token: read }).expect(200);
      expect(list.body.data.map((user) => user._id)).toContain(created._id);
      expect((await users().get(created._id, { token: read }).expect(200)).body).toEqual({
        success: true,
        data: created,
      });
    });

    it('gets 403 Forbidden on create, update, delete and expire, and nothing changes', async () => {
      const testApp = current();
      const created = await givenGuest(testApp);
      const body = userBody();
      const calls: Call[] = [
        ['POST create', (token) => users().create(body, { token })],
        ['PUT', (token) => users().update(created._id, { name: 'Changed', status: 'blocked' }, { token })],
        ['DELETE', (token) => users().remove(created._id, { token })],
        ['POST expire', (token) => users().expire(created._id, { token })],
        ['POST expire with venueId', (token) => users().expire(created._id, { token, venueId: 'venue-a' })],
      ];
      for (const [label, send] of calls) {
        const response = await send(read);
        expect({ label, status: response.status, body: response.body }).toEqual({
          label,
          status: 403,
          body: FORBIDDEN,
        });
        expect(response.headers['www-authenticate']).toBeUndefined();
      }
      expect(await usersNamed(testApp, body.username as string)).toBe(0);
      expect(await userState(testApp, created._id)).toEqual({ status: 'active', name: created.name });
      expect(await jobCount(testApp, created._id)).toBe(0);
    });

    it('gets 403, not 400, for invalid bodies and 403, not 404, for unknown ids', async () => {
      const created = await givenGuest(current());
      const calls: Call[] = [
        [
          'POST invalid',
          (token) => users().create({ name: '', loginMethod: 'nope', venueIds: 'x', _id: 'forged' }, { token }),
        ],
        ['POST {}', (token) => users().create({}, { token })],
        [
          'PUT invalid',
          (token) => users().update(created._id, { status: 'gone', loginMethod: 'guest', unknown: 1 }, { token }),
        ],
        ['POST expire invalid', (token) => users().expire(created._id, { token, body: { venueId: 42, extra: true } })],
        ['PUT unknown id', (token) => users().update('no-such-user', { name: 'x' }, { token })],
        ['DELETE unknown id', (token) => users().remove('no-such-user', { token })],
        ['POST expire unknown id', (token) => users().expire('no-such-user', { token })],
        ['PUT ?venueId=venue-z', (token) => users().update(created._id, {}, { token, venueId: 'venue-z' })],
      ];
      for (const [label, send] of calls) {
        const response = await send(read);
        expect({ label, status: response.status, body: response.body }).toEqual({
          label,
          status: 403,
          body: FORBIDDEN,
        });
      }
    });
  });

  describe('a write token', () => {
    it('may get, create, update and expire', async () => {
      const created = await givenGuest(current(), {}, { token: write });
      await users().list({ venueId: 'venue-a' }, { token: write }).expect(200);
      await users().get(created._id, { token: write }).expect(200);
      const updated = await users().update(created._id, { name: 'Written' }, { token: write }).expect(200);
      expect(updated.body.data.name).toBe('Written');
      const expired = await users().expire(created._id, { token: write }).expect(200);
      expect(expired.body.data.user.status).toBe('expired');
    });

    it('gets 403 on DELETE only, and the user stays', async () => {
      const testApp = current();
      const created = await givenGuest(testApp);
      const response = await users().remove(created._id, { token: write }).expect(403);
      expect(response.body).toEqual(FORBIDDEN);
      expect(await userState(testApp, created._id)).toEqual({ status: 'active', name: created.name });
      const unknown = await users().remove('no-such-user', { token: write }).expect(403);
      expect(unknown.body).toEqual(FORBIDDEN);
    });

    it('gets 400 for an invalid body (permission passed, validation next)', async () => {
      const response = await users()
        .create({ loginMethod: 'guest', venueIds: ['venue-a'] }, { token: write })
        .expect(400);
      expect(response.body).toEqual(validationError('name'));
    });
  });

  it('a token holding only delete may do everything', async () => {
    const testApp = current();
    const token = deleteOnly;
    const created = await givenGuest(testApp, {}, { token });
    await users().list({ venueId: 'venue-a' }, { token }).expect(200);
    await users().get(created._id, { token }).expect(200);
    await users().update(created._id, { name: 'By Delete' }, { token }).expect(200);
    await users().expire(created._id, { token }).expect(200);
    expect((await users().remove(created._id, { token }).expect(200)).body).toEqual(DELETED);
    expect(await userState(testApp, created._id)).toBeUndefined();
  });

  describe('no token, or an invalid one, is 401 on every endpoint', () => {
    const endpoints = (id: string): Call[] => [
      ['GET list of venue-a', (token) => users().list({ venueId: 'venue-a' }, { token })],
      ['GET list', (token) => users().list({}, { token })],
      ['GET', (token) => users().get(id, { token })],
      ['GET unknown id', (token) => users().get('no-such-user', { token })],
      ['POST', (token) => users().create(userBody(), { token })],
      ['POST invalid', (token) => users().create({ name: '' }, { token })],
      ['PUT', (token) => users().update(id, { status: 'blocked' }, { token })],
      ['PUT invalid', (token) => users().update(id, { status: 'bogus' }, { token })],
      ['DELETE', (token) => users().remove(id, { token })],
      ['POST expire', (token) => users().expire(id, { token })],
      ['POST expire with venueId', (token) => users().expire(id, { token, venueId: 'venue-a' })],
    ];

    it.each([
      ['no Authorization header', null],
      ['an unknown token', 'hsp_no-such-token-0123456789abcdefghijklmnopq'],
    ])('%s', async (_case, token) => {
      const testApp = current();
      const created = await givenGuest(testApp);
      for (const [label, send] of endpoints(created._id)) {
        const response = await send(token);
        expect({ label, status: response.status, body: response.body }).toEqual({
          label,
          status: 401,
          body: UNAUTHORIZED,
        });
        expect(response.headers['www-authenticate']).toBe('Bearer');
      }
      expect(await userState(testApp, created._id)).toEqual({ status: 'active', name: created.name });
    });
  });
});

describeEachDatabase('venue scope', (current) => {
  type TokenKind = 'unrestricted' | 'one' | 'two';
  type UserKind = 'A' | 'B' | 'C' | 'AB' | 'AC';
  const VENUES: Record<UserKind, string[]> = {
    A: ['venue-a'],
    B: ['venue-b'],
    C: ['venue-c'],
    AB: ['venue-a', 'venue-b'],
    AC: ['venue-a', 'venue-c'],
  };
  const users = () => api(current()).users;

  const tokens = {} as Record<TokenKind, string>;
  const readers = {} as Record<TokenKind, string>;
  /** One user per venue combination, made before the tests; they only read them. */
  const seeded = {} as Record<UserKind, HotspotUserDto>;

  beforeAll(async () => {
    const testApp = current();
    tokens.unrestricted = await testApp.createToken({ permissions: ['delete'] });
    tokens.one = await testApp.createToken({ permissions: ['delete'], venueIds: ['venue-a'] });
    tokens.two = await testApp.createToken({ permissions: ['delete'], venueIds: ['venue-a', 'venue-b'] });
    readers.unrestricted = await testApp.createToken({ permissions: ['read'] });
    readers.one = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-a'] });
    readers.two = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-a', 'venue-b'] });
    for (const kind of Object.keys(VENUES) as UserKind[]) {
      seeded[kind] = await givenGuest(testApp, { name: `Scope ${kind}`, venueIds: VENUES[kind] });
    }
  });

  it("a user of two venues: a token of one sees that venue's sessions only, in the list and in the jobs", async () => {
    const testApp = current();
    const { user, sessions } = await givenUserWithSessions(testApp, { venues: ['venue-a', 'venue-b'] });
    const [atA, atB] = sessions;
    await users().update(user._id, { status: 'blocked' }).expect(200);
    const [{ id: jobId }] = await testApp.dataSource.query<Array<{ id: string }>>(
      'SELECT id FROM unauth_jobs WHERE user_id = ?',
      [user._id],
    );
    const read = (path: string, token: string) =>
      testApp.http.get(path).set('Authorization', `Bearer ${token}`).expect(200);

    const mine = await read(`/api/v1/hotspot-users/${user._id}/sessions`, readers.one);
    expect(mine.body.data.map((session: { id: string }) => session.id)).toEqual([atA.id]);
    expect(mine.body.pagination.total).toBe(1);
    const all = await read(`/api/v1/hotspot-users/${user._id}/sessions`, readers.unrestricted);
    expect(all.body.data.map((session: { id: string }) => session.id).sort()).toEqual([atA.id, atB.id].sort());

    const job = await read(`/api/v1/unauth-jobs/${jobId}`, readers.one);
    expect(job.body.data.sessions.map((session: { id: string }) => session.id)).toEqual([atA.id]);
    const jobs = await read(`/api/v1/hotspot-users/${user._id}/unauth-jobs`, readers.one);
    expect(jobs.body.data[0].sessions.map((session: { id: string }) => session.id)).toEqual([atA.id]);
    for (const answer of [mine, job, jobs]) {
      expect(JSON.stringify(answer.body)).not.toContain(atB.ipAddress!);
      expect(JSON.stringify(answer.body)).not.toContain(atB.macAddress);
    }
    const whole = await read(`/api/v1/unauth-jobs/${jobId}`, readers.two);
    expect(whole.body.data.sessions).toHaveLength(2);
  });

  describe('reading a user needs an overlap, else 404', () => {
    const table: Array<[TokenKind, UserKind, number]> = [
      ['unrestricted', 'A', 200],
      ['unrestricted', 'B', 200],
      ['unrestricted', 'C', 200],
      ['unrestricted', 'AB', 200],
      ['unrestricted', 'AC', 200],
      ['one', 'A', 200],
      ['one', 'B', 404],
      ['one', 'C', 404],
      ['one', 'AB', 200],
      ['one', 'AC', 200],
      ['two', 'A', 200],
      ['two', 'B', 200],
      ['two', 'C', 404],
      ['two', 'AB', 200],
      ['two', 'AC', 200],
    ];
    it.each(table)('%s token, user in %s → %i', async (tokenKind, userKind, status) => {
      for (const token of [tokens[tokenKind], readers[tokenKind]]) {
        const response = await users().get(seeded[userKind]._id, { token });
        expect(response.status).toBe(status);
        expect(response.body).toEqual(status === 200 ? { success: true, data: seeded[userKind] } : NOT_FOUND);
      }
    });
  });

  describe('changing a user needs the token to cover all its venues: none in common 404, part 403', () => {
    const table: Array<[TokenKind, UserKind, number]> = [
      ['unrestricted', 'A', 200],
      ['unrestricted', 'C', 200],
      ['unrestricted', 'AC', 200],
      ['one', 'A', 200],
      ['one', 'B', 404],
      ['one', 'C', 404],
      ['one', 'AB', 403],
      ['one', 'AC', 403],
      ['two', 'A', 200],
      ['two', 'B', 200],
      ['two', 'C', 404],
      ['two', 'AB', 200],
      ['two', 'AC', 403],
    ];

    /** Each change: how it is sent, and what a success leaves behind. */
    const changes: Record<
      string,
      { send: (id: string, token: string) => ApiCall<{ success: boolean; data?: unknown }>; expectDone: Done }
    > = {
      PUT: {
        send: (id, token) => users().update(id, { name: 'Renamed', status: 'blocked' }, { token }),
        expectDone: async (testApp, user, body) => {
          expect(body.data).toEqual({ ...user, name: 'Renamed', status: 'blocked', updatedAt: expect.any(String) });
          expect(await userState(testApp, user._id)).toEqual({ status: 'blocked', name: 'Renamed' });
        },
      },
      DELETE: {
        send: (id, token) => users().remove(id, { token }),
        expectDone: async (testApp, user, body) => {
          expect(body).toEqual(DELETED);
          expect(await userState(testApp, user._id)).toBeUndefined();
        },
      },
      'POST expire': {
        send: (id, token) => users().expire(id, { token }),
        expectDone: async (testApp, user, body) => {
          expect(body.data).toEqual({ expiredSessions: 0, user: expect.objectContaining({ status: 'expired' }) });
          expect(await userState(testApp, user._id)).toEqual({ status: 'expired', name: user.name });
        },
      },
    };
    const cases = Object.keys(changes).flatMap((change) => table.map((row) => [change, ...row] as const));

    it.each(cases)('%s: %s token, user in %s → %i', async (change, tokenKind, userKind, status) => {
      const testApp = current();
      const user = await givenGuest(testApp, { venueIds: VENUES[userKind] });
      const response = await changes[change].send(user._id, tokens[tokenKind]);
      expect(response.status).toBe(status);
      if (status === 200) {
        await changes[change].expectDone(testApp, user, response.body);
      } else {
        // Refused: a 404 as for an unknown user, or a 403 naming the venues the token does not cover.
        expect(response.body).toEqual(status === 404 ? NOT_FOUND : forbiddenNaming('venueIds'));
        expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
        expect(await jobCount(testApp, user._id)).toBe(0);
      }
    });

    it('a partly covered user that is expired is 403, not 409; an invisible one 404', async () => {
      const partly = await givenGuest(current(), { venueIds: ['venue-a', 'venue-c'] });
      const invisible = await givenGuest(current(), { venueIds: ['venue-c'] });
      for (const user of [partly, invisible]) {
        await users().expire(user._id, { token: tokens.unrestricted }).expect(200);
      }
      expectForbiddenNaming(await users().update(partly._id, {}, { token: tokens.one }), 'venueIds');
      const hidden = await users().update(invisible._id, {}, { token: tokens.one });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND);
      // For a token that covers it, the state check comes last.
      const refused = await users().update(partly._id, {}, { token: tokens.unrestricted });
      expect(refused.status).toBe(409);
      // Existence (the user is not in that venue) comes before state.
      const notThere = await users().update(partly._id, {}, { token: tokens.unrestricted, venueId: 'venue-b' });
      expect(notThere.status).toBe(404);
      expect(notThere.body).toEqual(NOT_FOUND);
    });
  });

  describe('list', () => {
    const ids = (response: { body: { data: HotspotUserDto[] } }) => response.body.data.map((user) => user._id);

    it('a one-venue token without venueId lists its venue', async () => {
      const withDefault = await users().list({ limit: 100 }, { token: tokens.one }).expect(200);
      const explicit = await users().list({ venueId: 'venue-a', limit: 100 }, { token: tokens.one }).expect(200);
      expect(withDefault.body).toEqual(explicit.body);
      expect(ids(withDefault)).toEqual(expect.arrayContaining([seeded.A._id, seeded.AB._id, seeded.AC._id]));
      expect(ids(withDefault)).not.toContain(seeded.B._id);
      expect(ids(withDefault)).not.toContain(seeded.C._id);
      for (const user of withDefault.body.data) expect(user.venueIds).toContain('venue-a');
      expect(withDefault.body.pagination).toEqual({ page: 1, limit: 100, total: ids(withDefault).length, pages: 1 });
      // A read-level one-venue token too.
      expect((await users().list({}, { token: readers.one }).expect(200)).body.data.length).toBeGreaterThan(0);
    });

    it.each([
      ['two', 'a two-venue token'],
      ['unrestricted', 'an unrestricted token'],
    ] as Array<[TokenKind, string]>)('%s: without venueId is 400 naming venueId', async (tokenKind) => {
      const response = await users().list({}, { token: tokens[tokenKind] }).expect(400);
      expect(response.body).toEqual(validationError('venueId'));
    });

    it('a two-venue token lists either of its venues', async () => {
      const inB = await users().list({ venueId: 'venue-b', limit: 100 }, { token: tokens.two }).expect(200);
      expect(ids(inB)).toEqual(expect.arrayContaining([seeded.B._id, seeded.AB._id]));
      expect(ids(inB)).not.toContain(seeded.A._id);
      expect(ids(inB)).not.toContain(seeded.AC._id);
      expect(ids(inB)).not.toContain(seeded.C._id);
    });

    it.each([
      ['one', 'venue-b'],
      ['one', 'venue-c'],
      ['two', 'venue-c'],
    ] as Array<[TokenKind, string]>)(
      '%s token listing %s outside it: 403 naming venueId',
      async (tokenKind, venueId) => {
        expectForbiddenNaming(await users().list({ venueId }, { token: tokens[tokenKind] }), 'venueId');
        expectForbiddenNaming(await users().list({ venueId }, { token: readers[tokenKind] }), 'venueId');
      },
    );

    it('an unrestricted token lists any venue', async () => {
      const inC = await users().list({ venueId: 'venue-c', limit: 100 }, { token: tokens.unrestricted }).expect(200);
      expect(ids(inC)).toEqual(expect.arrayContaining([seeded.C._id, seeded.AC._id]));
    });
  });

  describe('?venueId= on get, put and delete', () => {
    it('outside the token is 403 naming venueId, even for a user that does not exist', async () => {
      const testApp = current();
      const user = await givenGuest(testApp, { venueIds: ['venue-a'] });
      for (const id of [user._id, 'no-such-user']) {
        expectForbiddenNaming(await users().get(id, { token: tokens.one, venueId: 'venue-b' }), 'venueId');
        expectForbiddenNaming(await users().get(id, { token: readers.two, venueId: 'venue-c' }), 'venueId');
        expectForbiddenNaming(
          await users().update(id, { name: 'X' }, { token: tokens.one, venueId: 'venue-b' }),
          'venueId',
        );
        expectForbiddenNaming(await users().remove(id, { token: tokens.two, venueId: 'venue-c' }), 'venueId');
      }
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('inside the token but the user is not in it: 404', async () => {
      const testApp = current();
      const user = await givenGuest(testApp, { venueIds: ['venue-a'] });
      for (const token of [tokens.two, tokens.unrestricted]) {
        const inB = { token, venueId: 'venue-b' };
        expect((await users().get(user._id, inB).expect(404)).body).toEqual(NOT_FOUND);
        expect((await users().update(user._id, { name: 'X' }, inB).expect(404)).body).toEqual(NOT_FOUND);
        expect((await users().remove(user._id, inB).expect(404)).body).toEqual(NOT_FOUND);
      }
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('inside the token and the user: as without it', async () => {
      const user = await givenGuest(current(), { venueIds: ['venue-a', 'venue-c'] });
      await users().get(user._id, { token: tokens.one, venueId: 'venue-a' }).expect(200);
      // Reading with a venue of the user in scope works; changing still needs full cover.
      expectForbiddenNaming(
        await users().update(user._id, { name: 'X' }, { token: tokens.one, venueId: 'venue-a' }),
        'venueIds',
      );
      await users().update(user._id, { name: 'Y' }, { token: tokens.unrestricted, venueId: 'venue-c' }).expect(200);
    });
  });

  describe('POST expire body venueId', () => {
    it('outside the token: 403 naming venueId, nothing changes', async () => {
      const testApp = current();
      const user = await givenGuest(testApp, { venueIds: ['venue-a'] });
      expectForbiddenNaming(await users().expire(user._id, { token: tokens.one, venueId: 'venue-b' }), 'venueId');
      expectForbiddenNaming(await users().expire(user._id, { token: tokens.two, venueId: 'venue-c' }), 'venueId');
      expectForbiddenNaming(await users().expire('no-such-user', { token: tokens.one, venueId: 'venue-b' }), 'venueId');
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it("inside the token but not one of the user's venues: 404", async () => {
      const testApp = current();
      const user = await givenGuest(testApp, { venueIds: ['venue-a'] });
      const response = await users().expire(user._id, { token: tokens.two, venueId: 'venue-b' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('omitted: works for a fully covered user', async () => {
      const user = await givenGuest(current(), { venueIds: ['venue-b', 'venue-a'] });
      const response = await users().expire(user._id, { token: tokens.two }).expect(200);
      expect(response.body.data.user.status).toBe('expired');
    });
  });

  describe('venueIds of a create or a PUT must lie inside the token', () => {
    it('create with a venue outside: 403 naming venueIds, no user stored', async () => {
      const testApp = current();
      for (const [tokenKind, venueIds] of [
        ['one', ['venue-a', 'venue-b']],
        ['one', ['venue-c']],
        ['two', ['venue-b', 'venue-c']],
      ] as Array<[TokenKind, string[]]>) {
        const body = userBody({ venueIds });
        expectForbiddenNaming(await users().create(body, { token: tokens[tokenKind] }), 'venueIds');
        expect(await usersNamed(testApp, body.username as string)).toBe(0);
      }
    });

    it('create inside: 201', async () => {
      const one = await users()
        .create(userBody({ venueIds: ['venue-a'] }), { token: tokens.one })
        .expect(201);
      expect(one.body.data.venueIds).toEqual(['venue-a']);
      const two = await users()
        .create(userBody({ venueIds: ['venue-b', 'venue-a'] }), { token: tokens.two })
        .expect(201);
      expect(two.body.data.venueIds).toEqual(['venue-b', 'venue-a']);
    });

    it('PUT with a venue outside: 403 naming venueIds, venues unchanged; inside: 200', async () => {
      const testApp = current();
      const user = await givenGuest(testApp, { venueIds: ['venue-a'] });
      expectForbiddenNaming(
        await users().update(user._id, { venueIds: ['venue-a', 'venue-b'] }, { token: tokens.one }),
        'venueIds',
      );
      expectForbiddenNaming(
        await users().update(user._id, { venueIds: ['venue-c'] }, { token: tokens.two }),
        'venueIds',
      );
      // Venue scope comes before existence.
      expectForbiddenNaming(
        await users().update('no-such-user', { venueIds: ['venue-b'] }, { token: tokens.one }),
        'venueIds',
      );
      const rows: Array<{ venue_id: string }> = await testApp.dataSource.query(
        'SELECT venue_id FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
        [user._id],
      );
      expect(rows).toEqual([{ venue_id: 'venue-a' }]);

      const moved = await users()
        .update(user._id, { venueIds: ['venue-b'] }, { token: tokens.two })
        .expect(200);
      expect(moved.body.data.venueIds).toEqual(['venue-b']);
      // Now outside the one-venue token altogether.
      expect((await users().get(user._id, { token: tokens.one }).expect(404)).body).toEqual(NOT_FOUND);
    });
  });

  describe('order of checks: 401, permission 403, validation 400, venue 403, existence 404, state 409', () => {
    it('401 before 403: DELETE without a token is 401, not 403', async () => {
      const response = await users().remove(seeded.C._id, { token: null }).expect(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    });

    it('permission 403 before validation 400: a read token sending invalid bodies', async () => {
      const calls: Call[] = [
        ['POST', (token) => users().create({ loginMethod: 'username_password', venueIds: ['venue-z'] }, { token })],
        ['PUT', (token) => users().update(seeded.A._id, { status: 'nope' }, { token })],
        ['POST expire', (token) => users().expire(seeded.A._id, { token, body: { unknownField: 1 } })],
      ];
      for (const [label, send] of calls) {
        const response = await send(readers.one);
        expect({ label, status: response.status, body: response.body }).toEqual({
          label,
          status: 403,
          body: FORBIDDEN,
        });
      }
    });

    it('validation 400 before venue 403', async () => {
      const create = await users()
        .create({ loginMethod: 'guest', venueIds: ['venue-z'] }, { token: tokens.one })
        .expect(400);
      expect(create.body.errors).toEqual([{ field: 'name', message: expect.any(String) }]);
      const update = await users()
        .update(seeded.A._id, { status: 'nope' }, { token: tokens.one, venueId: 'venue-z' })
        .expect(400);
      expect(update.body.errors).toEqual([{ field: 'status', message: expect.any(String) }]);
      const list = await users().list({ venueId: 'venue-z', limit: 0 }, { token: tokens.one }).expect(400);
      expect(list.body.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
    });

    it('venue 403 before existence 404', async () => {
      expectForbiddenNaming(await users().get('no-such-user', { token: tokens.one, venueId: 'venue-z' }), 'venueId');
      expectForbiddenNaming(await users().remove('no-such-user', { token: tokens.two, venueId: 'venue-z' }), 'venueId');
    });
  });
});
