import type { Response } from 'supertest';
import { createUser, userBody } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const USERS = '/api/v1/hotspot-users';
const NOT_FOUND = { success: false, message: 'Kullanıcı bulunamadı' };
const FORBIDDEN = { success: false, message: 'Forbidden' };
const UNAUTHORIZED = { success: false, message: 'Unauthorized' };

type Method = 'get' | 'post' | 'put' | 'delete';

function guest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { loginMethod: 'guest', username: undefined, password: undefined, ...overrides };
}

/** 403 Forbidden whose `errors` name exactly `field`. */
function expectForbiddenNaming(response: Response, field: string): void {
  expect(response.status).toBe(403);
  expect(response.body).toEqual({ success: false, message: 'Forbidden', errors: [{ field, message: expect.any(String) }] });
}

/** 403 for a user the token covers only in part: `errors`, when present, may only name venueIds. */
function expectForbiddenPartialCover(response: Response): void {
  expect(response.status).toBe(403);
  expect(response.body.success).toBe(false);
  expect(response.body.message).toBe('Forbidden');
  if (response.body.errors !== undefined) {
    expect(response.body.errors).toEqual([{ field: 'venueIds', message: expect.any(String) }]);
  }
  expect(Object.keys(response.body).sort()).toEqual(
    response.body.errors === undefined ? ['message', 'success'] : ['errors', 'message', 'success'],
  );
}

async function userState(testApp: TestApp, id: string): Promise<{ status: string; name: string } | undefined> {
  const rows: Array<{ status: string; name: string }> = await testApp.dataSource.query(
    'SELECT status, name FROM hotspot_users WHERE id = ?',
    [id],
  );
  return rows[0];
}

async function jobCount(testApp: TestApp, id: string): Promise<number> {
  const rows: Array<{ n: unknown }> = await testApp.dataSource.query('SELECT COUNT(*) AS n FROM unauth_jobs WHERE user_id = ?', [id]);
  return Number(rows[0].n);
}

async function usersNamed(testApp: TestApp, username: string): Promise<number> {
  const rows: Array<{ n: unknown }> = await testApp.dataSource.query('SELECT COUNT(*) AS n FROM hotspot_users WHERE username = ?', [
    username,
  ]);
  return Number(rows[0].n);
}

describeEachDatabase('permission levels', (current) => {
  const call = (method: Method, path: string, token?: string, body?: unknown) => {
    let request = current().http[method](path);
    if (token !== undefined) request = request.set('Authorization', `Bearer ${token}`);
    if (body !== undefined) request = request.send(body as object);
    return request;
  };

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
      const created = await createUser(current(), guest());
      const list = await call('get', `${USERS}?venueId=venue-a`, read).expect(200);
      expect(list.body.data.map((user: { _id: string }) => user._id)).toContain(created._id);
      expect((await call('get', `${USERS}/${created._id}`, read).expect(200)).body).toEqual({ success: true, data: created });
    });

    it('gets 403 Forbidden on create, update, delete and expire, and nothing changes', async () => {
      const testApp = current();
      const created = await createUser(testApp, guest());
      const body = userBody();
      for (const [method, path, payload] of [
        ['post', USERS, body],
        ['put', `${USERS}/${created._id}`, { name: 'Changed', status: 'blocked' }],
        ['delete', `${USERS}/${created._id}`, undefined],
        ['post', `${USERS}/${created._id}/expire`, undefined],
        ['post', `${USERS}/${created._id}/expire`, { venueId: 'venue-a' }],
      ] as Array<[Method, string, unknown]>) {
        const response = await call(method, path, read, payload);
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
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
      const created = await createUser(current(), guest());
      const cases: Array<[Method, string, unknown]> = [
        ['post', USERS, { name: '', loginMethod: 'nope', venueIds: 'x', _id: 'forged' }],
        ['post', USERS, {}],
        ['put', `${USERS}/${created._id}`, { status: 'gone', loginMethod: 'guest', unknown: 1 }],
        ['post', `${USERS}/${created._id}/expire`, { venueId: 42, extra: true }],
        ['put', `${USERS}/no-such-user`, { name: 'x' }],
        ['delete', `${USERS}/no-such-user`, undefined],
        ['post', `${USERS}/no-such-user/expire`, undefined],
        ['put', `${USERS}/${created._id}?venueId=venue-z`, {}],
      ];
      for (const [method, path, payload] of cases) {
        const response = await call(method, path, read, payload);
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
          status: 403,
          body: FORBIDDEN,
        });
      }
    });
  });

  describe('a write token', () => {
    it('may get, create, update and expire', async () => {
      const testApp = current();
      const created = await createUser(testApp, guest(), write);
      await call('get', `${USERS}?venueId=venue-a`, write).expect(200);
      await call('get', `${USERS}/${created._id}`, write).expect(200);
      const updated = await call('put', `${USERS}/${created._id}`, write, { name: 'Written' }).expect(200);
      expect(updated.body.data.name).toBe('Written');
      const expired = await call('post', `${USERS}/${created._id}/expire`, write).expect(200);
      expect(expired.body.data.user.status).toBe('expired');
    });

    it('gets 403 on DELETE only, and the user stays', async () => {
      const testApp = current();
      const created = await createUser(testApp, guest());
      const response = await call('delete', `${USERS}/${created._id}`, write).expect(403);
      expect(response.body).toEqual(FORBIDDEN);
      expect(await userState(testApp, created._id)).toEqual({ status: 'active', name: created.name });
      const unknown = await call('delete', `${USERS}/no-such-user`, write).expect(403);
      expect(unknown.body).toEqual(FORBIDDEN);
    });

    it('gets 400 for an invalid body (permission passed, validation next)', async () => {
      const response = await call('post', USERS, write, { loginMethod: 'guest', venueIds: ['venue-a'] }).expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'name', message: expect.any(String) }],
      });
    });
  });

  it('a token holding only delete may do everything', async () => {
    const testApp = current();
    const created = await createUser(testApp, guest(), deleteOnly);
    await call('get', `${USERS}?venueId=venue-a`, deleteOnly).expect(200);
    await call('get', `${USERS}/${created._id}`, deleteOnly).expect(200);
    await call('put', `${USERS}/${created._id}`, deleteOnly, { name: 'By Delete' }).expect(200);
    await call('post', `${USERS}/${created._id}/expire`, deleteOnly).expect(200);
    expect((await call('delete', `${USERS}/${created._id}`, deleteOnly).expect(200)).body).toEqual({
      success: true,
      message: 'Kullanıcı başarıyla silindi',
    });
    expect(await userState(testApp, created._id)).toBeUndefined();
  });

  describe('no token, or an invalid one, is 401 on every endpoint', () => {
    const endpoints = (id: string): Array<[Method, string, unknown]> => [
      ['get', `${USERS}?venueId=venue-a`, undefined],
      ['get', USERS, undefined],
      ['get', `${USERS}/${id}`, undefined],
      ['get', `${USERS}/no-such-user`, undefined],
      ['post', USERS, userBody()],
      ['post', USERS, { name: '' }],
      ['put', `${USERS}/${id}`, { status: 'blocked' }],
      ['put', `${USERS}/${id}`, { status: 'bogus' }],
      ['delete', `${USERS}/${id}`, undefined],
      ['post', `${USERS}/${id}/expire`, undefined],
      ['post', `${USERS}/${id}/expire`, { venueId: 'venue-a' }],
    ];

    it.each([
      ['no Authorization header', undefined],
      ['an unknown token', 'hsp_no-such-token-0123456789abcdefghijklmnopq'],
    ])('%s', async (_case, token) => {
      const testApp = current();
      const created = await createUser(testApp, guest());
      for (const [method, path, payload] of endpoints(created._id)) {
        const response = await call(method, path, token, payload);
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
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

  const tokens = {} as Record<TokenKind, string>;
  const readers = {} as Record<TokenKind, string>;
  const users = {} as Record<UserKind, { _id: string; [field: string]: unknown }>;

  beforeAll(async () => {
    const testApp = current();
    tokens.unrestricted = await testApp.createToken({ permissions: ['delete'] });
    tokens.one = await testApp.createToken({ permissions: ['delete'], venueIds: ['venue-a'] });
    tokens.two = await testApp.createToken({ permissions: ['delete'], venueIds: ['venue-a', 'venue-b'] });
    readers.unrestricted = await testApp.createToken({ permissions: ['read'] });
    readers.one = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-a'] });
    readers.two = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-a', 'venue-b'] });
    for (const kind of Object.keys(VENUES) as UserKind[]) {
      users[kind] = await createUser(testApp, guest({ name: `Scope ${kind}`, venueIds: VENUES[kind] }));
    }
  });

  const call = (method: Method, path: string, token: string, body?: unknown) => {
    let request = current().http[method](path).set('Authorization', `Bearer ${token}`);
    if (body !== undefined) request = request.send(body as object);
    return request;
  };

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
        const response = await call('get', `${USERS}/${users[userKind]._id}`, token);
        expect(response.status).toBe(status);
        expect(response.body).toEqual(status === 200 ? { success: true, data: users[userKind] } : NOT_FOUND);
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

    async function expectUnchanged(testApp: TestApp, id: string, name: string): Promise<void> {
      expect(await userState(testApp, id)).toEqual({ status: 'active', name });
      expect(await jobCount(testApp, id)).toBe(0);
    }

    function expectRefusal(response: Response, status: number): void {
      if (status === 404) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      } else {
        expectForbiddenPartialCover(response);
      }
    }

    it.each(table)('PUT: %s token, user in %s → %i', async (tokenKind, userKind, status) => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: VENUES[userKind] }));
      const response = await call('put', `${USERS}/${user._id}`, tokens[tokenKind], { name: 'Renamed', status: 'blocked' });
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual({ ...user, name: 'Renamed', status: 'blocked', updatedAt: expect.any(String) });
        expect(await userState(testApp, user._id)).toEqual({ status: 'blocked', name: 'Renamed' });
      } else {
        expectRefusal(response, status);
        await expectUnchanged(testApp, user._id, user.name as string);
      }
    });

    it.each(table)('DELETE: %s token, user in %s → %i', async (tokenKind, userKind, status) => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: VENUES[userKind] }));
      const response = await call('delete', `${USERS}/${user._id}`, tokens[tokenKind]);
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true, message: 'Kullanıcı başarıyla silindi' });
        expect(await userState(testApp, user._id)).toBeUndefined();
      } else {
        expectRefusal(response, status);
        await expectUnchanged(testApp, user._id, user.name as string);
      }
    });

    it.each(table)('POST expire: %s token, user in %s → %i', async (tokenKind, userKind, status) => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: VENUES[userKind] }));
      const response = await call('post', `${USERS}/${user._id}/expire`, tokens[tokenKind]);
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual({ expiredSessions: 0, user: expect.objectContaining({ status: 'expired' }) });
        expect(await userState(testApp, user._id)).toEqual({ status: 'expired', name: user.name });
      } else {
        expectRefusal(response, status);
        await expectUnchanged(testApp, user._id, user.name as string);
      }
    });

    it('a partly covered user that is expired is 403, not 409; an invisible one 404', async () => {
      const testApp = current();
      const partly = await createUser(testApp, guest({ venueIds: ['venue-a', 'venue-c'] }));
      const invisible = await createUser(testApp, guest({ venueIds: ['venue-c'] }));
      for (const user of [partly, invisible]) {
        await call('post', `${USERS}/${user._id}/expire`, tokens.unrestricted).expect(200);
      }
      expectForbiddenPartialCover(await call('put', `${USERS}/${partly._id}`, tokens.one, {}));
      const hidden = await call('put', `${USERS}/${invisible._id}`, tokens.one, {});
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND);
      // For a token that covers it, the state check comes last.
      const refused = await call('put', `${USERS}/${partly._id}`, tokens.unrestricted, {});
      expect(refused.status).toBe(409);
      // Existence (the user is not in that venue) comes before state.
      const notThere = await call('put', `${USERS}/${partly._id}?venueId=venue-b`, tokens.unrestricted, {});
      expect(notThere.status).toBe(404);
      expect(notThere.body).toEqual(NOT_FOUND);
    });
  });

  describe('list', () => {
    const ids = (response: Response) => (response.body.data as Array<{ _id: string }>).map((user) => user._id);

    it('a one-venue token without venueId lists its venue', async () => {
      const withDefault = await call('get', `${USERS}?limit=100`, tokens.one).expect(200);
      const explicit = await call('get', `${USERS}?venueId=venue-a&limit=100`, tokens.one).expect(200);
      expect(withDefault.body).toEqual(explicit.body);
      expect(ids(withDefault)).toEqual(expect.arrayContaining([users.A._id, users.AB._id, users.AC._id]));
      expect(ids(withDefault)).not.toContain(users.B._id);
      expect(ids(withDefault)).not.toContain(users.C._id);
      for (const user of withDefault.body.data as Array<{ venueIds: string[] }>) expect(user.venueIds).toContain('venue-a');
      expect(withDefault.body.pagination).toEqual({ page: 1, limit: 100, total: ids(withDefault).length, pages: 1 });
      // A read-level one-venue token too.
      expect((await call('get', USERS, readers.one).expect(200)).body.data.length).toBeGreaterThan(0);
    });

    it.each([
      ['two', 'a two-venue token'],
      ['unrestricted', 'an unrestricted token'],
    ] as Array<[TokenKind, string]>)('%s: without venueId is 400 naming venueId', async (tokenKind) => {
      const response = await call('get', USERS, tokens[tokenKind]).expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'venueId', message: expect.any(String) }],
      });
    });

    it('a two-venue token lists either of its venues', async () => {
      const inB = await call('get', `${USERS}?venueId=venue-b&limit=100`, tokens.two).expect(200);
      expect(ids(inB)).toEqual(expect.arrayContaining([users.B._id, users.AB._id]));
      expect(ids(inB)).not.toContain(users.A._id);
      expect(ids(inB)).not.toContain(users.AC._id);
      expect(ids(inB)).not.toContain(users.C._id);
    });

    it.each([
      ['one', 'venue-b'],
      ['one', 'venue-c'],
      ['two', 'venue-c'],
    ] as Array<[TokenKind, string]>)('%s token listing %s outside it: 403 naming venueId', async (tokenKind, venueId) => {
      expectForbiddenNaming(await call('get', `${USERS}?venueId=${venueId}`, tokens[tokenKind]), 'venueId');
      expectForbiddenNaming(await call('get', `${USERS}?venueId=${venueId}`, readers[tokenKind]), 'venueId');
    });

    it('an unrestricted token lists any venue', async () => {
      const inC = await call('get', `${USERS}?venueId=venue-c&limit=100`, tokens.unrestricted).expect(200);
      expect(ids(inC)).toEqual(expect.arrayContaining([users.C._id, users.AC._id]));
    });
  });

  describe('?venueId= on get, put and delete', () => {
    it('outside the token is 403 naming venueId, even for a user that does not exist', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      for (const id of [user._id, 'no-such-user']) {
        expectForbiddenNaming(await call('get', `${USERS}/${id}?venueId=venue-b`, tokens.one), 'venueId');
        expectForbiddenNaming(await call('get', `${USERS}/${id}?venueId=venue-c`, readers.two), 'venueId');
        expectForbiddenNaming(await call('put', `${USERS}/${id}?venueId=venue-b`, tokens.one, { name: 'X' }), 'venueId');
        expectForbiddenNaming(await call('delete', `${USERS}/${id}?venueId=venue-c`, tokens.two), 'venueId');
      }
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('inside the token but the user is not in it: 404', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      for (const token of [tokens.two, tokens.unrestricted]) {
        expect((await call('get', `${USERS}/${user._id}?venueId=venue-b`, token).expect(404)).body).toEqual(NOT_FOUND);
        expect((await call('put', `${USERS}/${user._id}?venueId=venue-b`, token, { name: 'X' }).expect(404)).body).toEqual(
          NOT_FOUND,
        );
        expect((await call('delete', `${USERS}/${user._id}?venueId=venue-b`, token).expect(404)).body).toEqual(NOT_FOUND);
      }
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('inside the token and the user: as without it', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-a', 'venue-c'] }));
      await call('get', `${USERS}/${user._id}?venueId=venue-a`, tokens.one).expect(200);
      // Reading with a venue of the user in scope works; changing still needs full cover.
      expectForbiddenPartialCover(await call('put', `${USERS}/${user._id}?venueId=venue-a`, tokens.one, { name: 'X' }));
      await call('put', `${USERS}/${user._id}?venueId=venue-c`, tokens.unrestricted, { name: 'Y' }).expect(200);
    });
  });

  describe('POST expire body venueId', () => {
    it('outside the token: 403 naming venueId, nothing changes', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      expectForbiddenNaming(await call('post', `${USERS}/${user._id}/expire`, tokens.one, { venueId: 'venue-b' }), 'venueId');
      expectForbiddenNaming(await call('post', `${USERS}/${user._id}/expire`, tokens.two, { venueId: 'venue-c' }), 'venueId');
      expectForbiddenNaming(await call('post', `${USERS}/no-such-user/expire`, tokens.one, { venueId: 'venue-b' }), 'venueId');
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('inside the token but not one of the user\'s venues: 404', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      const response = await call('post', `${USERS}/${user._id}/expire`, tokens.two, { venueId: 'venue-b' }).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
      expect(await userState(testApp, user._id)).toEqual({ status: 'active', name: user.name });
    });

    it('omitted: works for a fully covered user', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-b', 'venue-a'] }));
      const response = await call('post', `${USERS}/${user._id}/expire`, tokens.two).expect(200);
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
        expectForbiddenNaming(await call('post', USERS, tokens[tokenKind], body), 'venueIds');
        expect(await usersNamed(testApp, body.username as string)).toBe(0);
      }
    });

    it('create inside: 201', async () => {
      const one = await call('post', USERS, tokens.one, userBody({ venueIds: ['venue-a'] })).expect(201);
      expect(one.body.data.venueIds).toEqual(['venue-a']);
      const two = await call('post', USERS, tokens.two, userBody({ venueIds: ['venue-b', 'venue-a'] })).expect(201);
      expect(two.body.data.venueIds).toEqual(['venue-b', 'venue-a']);
    });

    it('PUT with a venue outside: 403 naming venueIds, venues unchanged; inside: 200', async () => {
      const testApp = current();
      const user = await createUser(testApp, guest({ venueIds: ['venue-a'] }));
      expectForbiddenNaming(await call('put', `${USERS}/${user._id}`, tokens.one, { venueIds: ['venue-a', 'venue-b'] }), 'venueIds');
      expectForbiddenNaming(await call('put', `${USERS}/${user._id}`, tokens.two, { venueIds: ['venue-c'] }), 'venueIds');
      // Venue scope comes before existence.
      expectForbiddenNaming(await call('put', `${USERS}/no-such-user`, tokens.one, { venueIds: ['venue-b'] }), 'venueIds');
      const rows: Array<{ venue_id: string }> = await testApp.dataSource.query(
        'SELECT venue_id FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
        [user._id],
      );
      expect(rows).toEqual([{ venue_id: 'venue-a' }]);

      const moved = await call('put', `${USERS}/${user._id}`, tokens.two, { venueIds: ['venue-b'] }).expect(200);
      expect(moved.body.data.venueIds).toEqual(['venue-b']);
      // Now outside the one-venue token altogether.
      expect((await call('get', `${USERS}/${user._id}`, tokens.one).expect(404)).body).toEqual(NOT_FOUND);
    });
  });

  describe('order of checks: 401, permission 403, validation 400, venue 403, existence 404, state 409', () => {
    it('401 before 403: DELETE without a token is 401, not 403', async () => {
      const response = await current().http.delete(`${USERS}/${users.C._id}`).expect(401);
      expect(response.body).toEqual(UNAUTHORIZED);
    });

    it('permission 403 before validation 400: a read token sending invalid bodies', async () => {
      for (const [method, path, body] of [
        ['post', USERS, { loginMethod: 'username_password', venueIds: ['venue-z'] }],
        ['put', `${USERS}/${users.A._id}`, { status: 'nope' }],
        ['post', `${USERS}/${users.A._id}/expire`, { unknownField: 1 }],
      ] as Array<[Method, string, unknown]>) {
        const response = await call(method, path, readers.one, body);
        expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 403, body: FORBIDDEN });
      }
    });

    it('validation 400 before venue 403', async () => {
      const create = await call('post', USERS, tokens.one, { loginMethod: 'guest', venueIds: ['venue-z'] }).expect(400);
      expect(create.body.errors).toEqual([{ field: 'name', message: expect.any(String) }]);
      const update = await call('put', `${USERS}/${users.A._id}?venueId=venue-z`, tokens.one, { status: 'nope' }).expect(400);
      expect(update.body.errors).toEqual([{ field: 'status', message: expect.any(String) }]);
      const list = await call('get', `${USERS}?venueId=venue-z&limit=0`, tokens.one).expect(400);
      expect(list.body.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
    });

    it('venue 403 before existence 404', async () => {
      expectForbiddenNaming(await call('get', `${USERS}/no-such-user?venueId=venue-z`, tokens.one), 'venueId');
      expectForbiddenNaming(await call('delete', `${USERS}/no-such-user?venueId=venue-z`, tokens.two), 'venueId');
    });
  });
});
