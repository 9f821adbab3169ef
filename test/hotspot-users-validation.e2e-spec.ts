import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import type { Response } from 'supertest';
import { createUser, userBody } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const USERS = '/api/v1/hotspot-users';

/**
 * A 400 whose body is exactly the spec's ErrorResponse for a validation failure, with one entry
 * per expected field (in any order) and nothing else.
 */
function expectValidation(response: Response, fields: string[]): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 400,
    body: {
      success: false,
      message: 'Validation error',
      errors: expect.any(Array),
    },
  });
  const errors = response.body.errors as Array<{ field: unknown; message: unknown }>;
  for (const entry of errors) {
    expect(entry).toEqual({ field: expect.any(String), message: expect.any(String) });
    expect((entry.message as string).length).toBeGreaterThan(0);
  }
  expect(errors.map((entry) => entry.field).sort()).toEqual([...fields].sort());
}

/** `levels` nested objects, the outermost counting as level 1. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 1; level < levels; level += 1) value = { child: value };
  return value;
}

function without(body: Record<string, unknown>, ...fields: string[]): Record<string, unknown> {
  const copy = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}

async function userCount(testApp: TestApp): Promise<number> {
  const [row] = await testApp.dataSource.query('SELECT COUNT(*) AS n FROM hotspot_users');
  return Number(row.n);
}

describeEachDatabase('hotspot users validation', (current) => {
  const auth = () => `Bearer ${current().adminToken}`;
  const post = (body: Record<string, unknown>) => current().http.post(USERS).set('Authorization', auth()).send(body);
  const put = (id: string, body: Record<string, unknown>) =>
    current().http.put(`${USERS}/${id}`).set('Authorization', auth()).send(body);
  const getPath = (path: string) => current().http.get(path).set('Authorization', auth());
  const guest = (overrides: Record<string, unknown> = {}) => ({
    name: 'Guest',
    loginMethod: 'guest',
    venueIds: ['val-venue'],
    ...overrides,
  });

  describe('POST: required fields', () => {
    it.each([['name'], ['loginMethod'], ['venueIds']])('a missing %s is a 400 naming it', async (field) => {
      expectValidation(await post(without(userBody(), field)), [field]);
    });

    it('an empty body names name, loginMethod and venueIds', async () => {
      expectValidation(await post({}), ['name', 'loginMethod', 'venueIds']);
    });

    it.each([
      ['username', ['username']],
      ['password', ['password']],
    ])('username_password without %s is a 400 naming it (spec rule 1)', async (field, fields) => {
      expectValidation(await post(without(userBody(), field)), fields);
    });

    it('username_password without username and password names both', async () => {
      expectValidation(await post(without(userBody(), 'username', 'password')), ['username', 'password']);
    });

    it('username_password with username null or "" is a 400 naming username', async () => {
      expectValidation(await post(userBody({ username: null })), ['username']);
      expectValidation(await post(userBody({ username: '' })), ['username']);
    });

    it('a failed create writes nothing', async () => {
      const before = await userCount(current());
      expectValidation(await post(without(userBody(), 'password')), ['password']);
      expectValidation(await post(userBody({ loginMethod: 'sms' })), ['loginMethod']);
      expect(await userCount(current())).toBe(before);
    });
  });

  describe('POST: loginMethod', () => {
    it.each(['social', 'sms'])('%s exists but is refused on create', async (loginMethod) => {
      expectValidation(await post(userBody({ loginMethod })), ['loginMethod']);
    });

    it.each([['admin'], ['GUEST'], [5], [null], [['guest']]])('%j is refused', async (loginMethod) => {
      expectValidation(await post(userBody({ loginMethod })), ['loginMethod']);
    });
  });

  describe('POST: guest users', () => {
    it('a password on a guest is a 400 naming password', async () => {
      expectValidation(await post(guest({ password: 'secret-1' })), ['password']);
      expectValidation(await post(guest({ username: 'guest-with-pw', password: 'secret-1' })), ['password']);
    });

    it('expiresAt on a guest is a 400 naming expiresAt', async () => {
      expectValidation(await post(guest({ expiresAt: '2031-01-01T00:00:00Z' })), ['expiresAt']);
    });
  });

  describe('POST: expiresAt', () => {
    it('in the past is refused', async () => {
      expectValidation(await post(userBody({ expiresAt: '2020-01-01T00:00:00Z' })), ['expiresAt']);
      expectValidation(await post(userBody({ expiresAt: new Date(Date.now() - 60_000).toISOString() })), ['expiresAt']);
    });

    it.each([
      ['without a zone', '2031-01-01T12:00:00'],
      ['a date alone', '2031-01-01'],
      ['not a date', 'tomorrow'],
      ['a number', 1924992000000],
      ['an empty string', ''],
    ])('%s is refused', async (_case, expiresAt) => {
      expectValidation(await post(userBody({ expiresAt })), ['expiresAt']);
    });

    it('in the future with a zone is accepted', async () => {
      await post(userBody({ expiresAt: '2031-01-01T12:00:00+02:00' })).expect(201);
    });
  });

  describe('POST: name', () => {
    it.each([
      ['a number', 123],
      ['an array', ['Ayşe']],
      ['an object', { first: 'Ayşe' }],
      ['a boolean', true],
      ['null', null],
      ['empty', ''],
      ['blank after trimming', '   \t '],
      ['256 characters', 'n'.repeat(256)],
      ['256 characters once trimmed', ` ${'n'.repeat(256)} `],
    ])('%s is refused', async (_case, name) => {
      expectValidation(await post(userBody({ name })), ['name']);
    });

    it('255 characters (after trimming) are accepted', async () => {
      const response = await post(userBody({ name: `  ${'n'.repeat(255)}  ` })).expect(201);
      expect(response.body.data.name).toBe('n'.repeat(255));
    });
  });

  describe('POST: username', () => {
    it.each([
      ['a space', 'bad user'],
      ['a slash', 'bad/user'],
      ['a non-ASCII letter', 'kullanıcı'],
      ['a quote', "o'brien"],
      ['65 characters', 'u'.repeat(65)],
      ['a number', 12345],
    ])('%s is refused', async (_case, username) => {
      expectValidation(await post(userBody({ username })), ['username']);
    });

    it('64 characters of letters, digits and ._@+- are accepted', async () => {
      const username = `Ab9._@+-${'x'.repeat(56)}`;
      expect(username).toHaveLength(64);
      const response = await post(userBody({ username })).expect(201);
      expect(response.body.data.username).toBe(username);
    });
  });

  describe('POST: password', () => {
    it.each([
      ['3 characters', 'abc'],
      ['129 characters', 'p'.repeat(129)],
      ['empty', ''],
      ['a number', 12345],
    ])('%s is refused', async (_case, password) => {
      expectValidation(await post(userBody({ password })), ['password']);
    });

    it.each([
      ['4 characters', '1234'],
      ['128 characters', 'p'.repeat(128)],
    ])('%s are accepted', async (_case, password) => {
      await post(userBody({ password })).expect(201);
    });
  });

  describe('POST: email', () => {
    /** A syntactically valid address of exactly `length` characters (local part 64). */
    const emailOfLength = (length: number) => {
      const local = 'l'.repeat(64);
      const tail = length - 64 - 1 - 'a'.repeat(63).length * 2 - 2 - '.com'.length;
      return `${local}@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(tail)}.com`;
    };

    it.each([
      ['not an address', 'not-an-email'],
      ['without a domain', 'someone@'],
      ['with a space', 'some one@example.com'],
      ['255 characters', emailOfLength(255)],
      ['a number', 42],
    ])('%s is refused', async (_case, email) => {
      if (typeof email === 'string' && _case.startsWith('255')) expect(email).toHaveLength(255);
      expectValidation(await post(userBody({ email })), ['email']);
    });

    it('254 characters are accepted', async () => {
      const email = emailOfLength(254);
      expect(email).toHaveLength(254);
      const response = await post(userBody({ email })).expect(201);
      expect(response.body.data.email).toBe(email);
    });
  });

  describe('POST: phone', () => {
    it.each([
      ['6 digits', '123456'],
      ['16 digits', '1234567890123456'],
      ['16 digits with a plus and spaces', '+90 532 123 45 67 8901'],
      ['letters', '0532-CALL-NOW'],
      ['a plus that does not lead', '90+5321234567'],
      ['a dot', '0532.123.45.67'],
      ['a number', 5321234567],
    ])('%s is refused', async (_case, phone) => {
      expectValidation(await post(userBody({ phone })), ['phone']);
    });

    it.each([['+90 (532) 123-45-67'], ['1234567'], ['+123456789012345'], ['0532 123 45 67']])(
      '%s is accepted and returned as sent',
      async (phone) => {
        const response = await post(userBody({ phone })).expect(201);
        expect(response.body.data.phone).toBe(phone);
      },
    );
  });

  describe('POST: macAddress', () => {
    it.each([
      ['AA:BB:CC:DD:EE:11'],
      ['aa-bb-cc-dd-ee-11'],
      ['aabb.ccdd.ee11'],
      ['aabbccddee11'],
      ['aa:bb:cc:dd:ee:11'],
      ['AABB.CCDD.EE11'],
    ])('the accepted form %s is stored as AA:BB:CC:DD:EE:11', async (macAddress) => {
      const response = await post(userBody({ macAddress })).expect(201);
      expect(response.body.data.macAddress).toBe('AA:BB:CC:DD:EE:11');
    });

    it.each([
      ['mixed separators', 'aa:bb-cc:dd-ee:ff'],
      ['colons and dashes', 'AA:BB:CC:DD:EE-FF'],
      ['dots and dashes', 'aabb.ccdd-eeff'],
      ['five octets', 'AA:BB:CC:DD:EE'],
      ['seven octets', 'AA:BB:CC:DD:EE:FF:00'],
      ['a non-hex digit', 'GG:BB:CC:DD:EE:FF'],
      ['dotted groups of two', 'aa.bb.cc.dd.ee.ff'],
      ['empty', ''],
      ['a number', 112233445566],
    ])('%s is refused', async (_case, macAddress) => {
      expectValidation(await post(userBody({ macAddress })), ['macAddress']);
    });
  });

  describe('POST: venueIds', () => {
    it.each([
      ['empty', []],
      ['51 entries', Array.from({ length: 51 }, (_, i) => `v${i}`)],
      ['a string', 'val-venue'],
      ['null', null],
      ['an object', { 0: 'val-venue' }],
    ])('%s is refused naming venueIds', async (_case, venueIds) => {
      expectValidation(await post(userBody({ venueIds })), ['venueIds']);
    });

    it.each([
      ['a space', ['ok-venue', 'bad venue'], 'venueIds.1'],
      ['a number', ['ok-venue', 'ok-2', 7], 'venueIds.2'],
      ['an empty string', [''], 'venueIds.0'],
      ['65 characters', ['ok-venue', 'v'.repeat(65)], 'venueIds.1'],
      ['a slash', ['a/b'], 'venueIds.0'],
    ])('an element with %s is refused naming its path', async (_case, venueIds, field) => {
      expectValidation(await post(userBody({ venueIds })), [field]);
    });

    it('every bad element is its own entry, a wrong type named as such', async () => {
      const response = await post(userBody({ venueIds: ['ok-venue', 5, null, ['x'], 'bad venue'] }));
      expectValidation(response, ['venueIds.1', 'venueIds.2', 'venueIds.3', 'venueIds.4']);
      expect(response.body.errors).toEqual([
        { field: 'venueIds.1', message: 'venueIds.1 must be a string' },
        { field: 'venueIds.2', message: 'venueIds.2 must be a string' },
        { field: 'venueIds.3', message: 'venueIds.3 must be a string' },
        { field: 'venueIds.4', message: 'venueIds.4 must be 1-64 characters of A-Za-z0-9_.:-' },
      ]);
    });

    it('50 entries (and 64-character ids of A-Za-z0-9_.:-) are accepted', async () => {
      const venueIds = Array.from({ length: 50 }, (_, i) => `Aa0_.:-${String(i).padStart(57, '0')}`);
      expect(venueIds[0]).toHaveLength(64);
      const response = await post(userBody({ venueIds })).expect(201);
      expect(response.body.data.venueIds).toEqual(venueIds);
    });
  });

  describe('POST: metadata', () => {
    it.each([
      ['an array', []],
      ['null', null],
      ['a string', '{"a":1}'],
      ['a number', 5],
      ['true', true],
    ])('%s is refused', async (_case, metadata) => {
      expectValidation(await post(userBody({ metadata })), ['metadata']);
    });

    it('9 levels deep are refused, 8 accepted', async () => {
      expectValidation(await post(userBody({ metadata: nested(9) })), ['metadata']);
      expectValidation(await post(userBody({ metadata: { shallow: 1, deep: [nested(8)] } })), ['metadata']);
      const response = await post(userBody({ metadata: nested(8) })).expect(201);
      expect(response.body.data.metadata).toEqual(nested(8));
    });

    it('more than 16 KiB serialised is refused, exactly 16 KiB accepted', async () => {
      // {"x":"…"} is 8 bytes around the value.
      expectValidation(await post(userBody({ metadata: { x: 'a'.repeat(16 * 1024 - 7) } })), ['metadata']);
      const response = await post(userBody({ metadata: { x: 'a'.repeat(16 * 1024 - 8) } })).expect(201);
      expect(JSON.stringify(response.body.data.metadata)).toHaveLength(16 * 1024);
    });

    it('counts UTF-8 bytes, not characters', async () => {
      // 8200 two-byte characters: 8208 characters but 16408 bytes.
      expectValidation(await post(userBody({ metadata: { x: 'ş'.repeat(8200) } })), ['metadata']);
    });

    it.each(['constructor', 'prototype'])('the key %s is refused, at the top and nested', async (key) => {
      expectValidation(await post(userBody({ metadata: { [key]: { a: 1 } } })), ['metadata']);
      expectValidation(await post(userBody({ metadata: { ok: { deeper: { [key]: 'x' } } } })), ['metadata']);
    });

    it('the key __proto__ is refused, at the top and nested (raw JSON text)', async () => {
      const body = JSON.stringify(userBody());
      for (const metadata of ['{"__proto__":{"isAdmin":true}}', '{"ok":{"__proto__":{"isAdmin":true}}}']) {
        const raw = `${body.slice(0, -1)},"metadata":${metadata}}`;
        const response = await current()
          .http.post(USERS)
          .set('Authorization', auth())
          .set('Content-Type', 'application/json')
          .send(raw);
        expectValidation(response, ['metadata']);
      }
    });
  });

  describe('POST: metadata kept as sent', () => {
    it('keys named like the members every object inherits are kept, at every level', async () => {
      const metadata = { toString: 1, valueOf: { hasOwnProperty: [2, { isPrototypeOf: 'x' }] }, room: '1204' };
      const created = await post(userBody({ metadata })).expect(201);
      expect(created.body.data.metadata).toEqual(metadata);
      const stored = await getPath(`${USERS}/${created.body.data._id}`).expect(200);
      expect(stored.body.data.metadata).toEqual(metadata);
    });

    it('an integer beyond ±9007199254740991 (which JSON.parse would round) is refused (raw JSON text)', async () => {
      const body = JSON.stringify(userBody());
      for (const metadata of ['{"id":9007199254740993}', '{"ids":[1,{"big":-18446744073709551615}]}']) {
        const response = await current()
          .http.post(USERS)
          .set('Authorization', auth())
          .set('Content-Type', 'application/json')
          .send(`${body.slice(0, -1)},"metadata":${metadata}}`);
        expectValidation(response, ['metadata']);
      }
      const kept = await post(userBody({ metadata: { id: '9007199254740993', safe: 9007199254740991 } })).expect(201);
      expect(kept.body.data.metadata).toEqual({ id: '9007199254740993', safe: 9007199254740991 });
    });
  });

  describe('POST: unknown fields', () => {
    it.each([
      ['_id', 'abc'],
      ['createdAt', '2030-01-01T00:00:00.000Z'],
      ['updatedAt', '2030-01-01T00:00:00.000Z'],
      ['devices', []],
      ['status', 'active'],
      ['emial', 'typo@example.com'],
      ['passwordHash', '$argon2id$whatever'],
    ])('%s is refused naming it', async (field, value) => {
      expectValidation(await post(userBody({ [field]: value })), [field]);
    });

    it.each(['toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'])(
      '%s, a member every object inherits, is refused naming it',
      async (field) => {
        const before = await userCount(current());
        expectValidation(await post(userBody({ [field]: 1 })), [field]);
        expect(await userCount(current())).toBe(before);
      },
    );

    it('each unknown field gets its own entry', async () => {
      const response = await post(
        userBody({ _id: 'x', createdAt: '2030-01-01T00:00:00Z', devices: [], status: 'blocked', nmae: 'typo' }),
      );
      expectValidation(response, ['_id', 'createdAt', 'devices', 'status', 'nmae']);
    });
  });

  it('several bad fields give several entries', async () => {
    const response = await post({
      name: '',
      loginMethod: 'username_password',
      username: 'bad user',
      password: 'abc',
      email: 'nope',
      phone: '12',
      macAddress: 'zz',
      venueIds: [],
      metadata: [],
      extra: 1,
    });
    expectValidation(response, [
      'name',
      'username',
      'password',
      'email',
      'phone',
      'macAddress',
      'venueIds',
      'metadata',
      'extra',
    ]);
  });

  describe('PUT', () => {
    let userId: string;
    let guestId: string;

    beforeAll(async () => {
      userId = (
        await createUser(current(), {
          venueIds: ['put-venue'],
          email: 'put@example.com',
          phone: '+90 532 000 11 22',
          expiresAt: '2031-01-01T00:00:00Z',
        })
      )._id;
      guestId = (
        await createUser(current(), {
          loginMethod: 'guest',
          username: undefined,
          password: undefined,
          venueIds: ['put-venue'],
        })
      )._id;
    });

    it("macAddress (an addition to v1) replaces the user's MAC in any accepted form, null clears it, audited", async () => {
      const changed = await put(userId, { macAddress: 'aabb.ccdd.ee42' }).expect(200);
      expect(changed.body.data.macAddress).toBe('AA:BB:CC:DD:EE:42');
      const found = await getPath(`${USERS}?venueId=put-venue&macAddress=AA-BB-CC-DD-EE-42`).expect(200);
      expect(found.body.data.map((user: { _id: string }) => user._id)).toEqual([userId]);
      const events = await current()
        .dataSource.getRepository(AuditEventEntity)
        .find({ where: { targetId: userId, action: 'user.update' }, order: { occurredAt: 'ASC' } });
      expect(events.at(-1)?.changedFields).toEqual(['macAddress']);
      expect((await put(userId, { macAddress: null }).expect(200)).body.data.macAddress).toBeNull();
      for (const bad of ['zz', 'AA:BB:CC:DD:EE', 'AA:BB-CC:DD:EE:FF', 42]) {
        expectValidation(await put(userId, { macAddress: bad }), ['macAddress']);
      }
    });

    it('password is refused as an unknown field', async () => {
      expectValidation(await put(userId, { password: 'new-secret' }), ['password']);
    });

    it('valueOf, a member every object inherits, is refused naming it, and nothing changes', async () => {
      expectValidation(await put(userId, { name: 'Changed', valueOf: 1 }), ['valueOf']);
      expect((await getPath(`${USERS}/${userId}`).expect(200)).body.data.name).not.toBe('Changed');
    });

    it.each([['username_password'], ['guest'], ['sms']])(
      'loginMethod %s is refused with the exact "cannot be changed" entry',
      async (loginMethod) => {
        const response = await put(userId, { loginMethod }).expect(400);
        expect(response.body).toEqual({
          success: false,
          message: 'Validation error',
          errors: [{ field: 'loginMethod', message: 'loginMethod cannot be changed' }],
        });
      },
    );

    it.each([
      ['_id', 'x'],
      ['createdAt', '2030-01-01T00:00:00Z'],
      ['devices', []],
      ['naem', 'typo'],
    ])('unknown field %s is refused naming it', async (field, value) => {
      expectValidation(await put(userId, { [field]: value }), [field]);
    });

    it.each([
      ['name', null],
      ['name', '  '],
      ['status', 'deleted'],
      ['status', null],
      ['venueIds', []],
      ['venueIds', null],
      ['metadata', null],
      ['metadata', []],
      ['metadata', { constructor: { a: 1 } }],
      ['metadata', { ok: { prototype: 1 } }],
      ['expiresAt', '2020-01-01T00:00:00Z'],
      ['expiresAt', '2031-01-01T00:00:00'],
      ['email', 'nope'],
      ['phone', '123'],
    ])('%s = %j is refused', async (field, value) => {
      expectValidation(await put(userId, { [field]: value }), [field]);
    });

    it.each([[null], ['']])(
      'username %j on a username_password user is refused and changes nothing',
      async (username) => {
        const before = (await getPath(`${USERS}/${userId}`).expect(200)).body.data;
        expectValidation(await put(userId, { username }), ['username']);
        const after = (await getPath(`${USERS}/${userId}`).expect(200)).body.data;
        expect(after).toEqual(before);
      },
    );

    it('expiresAt on a guest is refused', async () => {
      expectValidation(await put(guestId, { expiresAt: '2031-01-01T00:00:00Z' }), ['expiresAt']);
    });

    it('several bad fields give several entries', async () => {
      expectValidation(await put(userId, { name: '', status: 'gone', password: 'x', loginMethod: 'guest' }), [
        'name',
        'status',
        'password',
        'loginMethod',
      ]);
    });

    it('email, phone and expiresAt null clear them', async () => {
      const response = await put(userId, { email: null, phone: null, expiresAt: null }).expect(200);
      expect(response.body).toEqual({
        success: true,
        message: 'Kullanıcı başarıyla güncellendi',
        data: expect.objectContaining({ _id: userId, email: null, phone: null, expiresAt: null }),
      });
      const fetched = await getPath(`${USERS}/${userId}`).expect(200);
      expect(fetched.body.data).toMatchObject({ email: null, phone: null, expiresAt: null });
      const [row] = await current().dataSource.query(
        'SELECT email, phone, expires_at FROM hotspot_users WHERE id = ?',
        [userId],
      );
      expect(row).toEqual({ email: null, phone: null, expires_at: null });
      const [venue] = await current().dataSource.query(
        'SELECT email_key, phone_key FROM hotspot_user_venues WHERE user_id = ?',
        [userId],
      );
      expect(venue).toEqual({ email_key: null, phone_key: null });
    });

    it('a guest username null clears it', async () => {
      await put(guestId, { username: 'guest-named' }).expect(200);
      const response = await put(guestId, { username: null }).expect(200);
      expect(response.body.data.username).toBeNull();
    });
  });

  describe('query parameters', () => {
    let userId: string;

    beforeAll(async () => {
      userId = (await createUser(current(), { venueIds: ['query-venue'] }))._id;
    });

    it.each([
      ['a typo of status', 'venueId=query-venue&stauts=active', 'stauts'],
      ['an unknown parameter', 'venueId=query-venue&sort=name', 'sort'],
      ['offset', 'venueId=query-venue&offset=10', 'offset'],
    ])('list: %s is refused naming it', async (_case, query, field) => {
      expectValidation(await getPath(`${USERS}?${query}`), [field]);
    });

    it.each(['toString', 'hasOwnProperty', '__proto__', 'constructor'])(
      'list, get and sessions: %s, a member every object inherits, is refused naming it',
      async (field) => {
        expectValidation(await getPath(`${USERS}?venueId=query-venue&${field}=1`), [field]);
        expectValidation(await getPath(`${USERS}/${userId}?${field}=1`), [field]);
        expectValidation(await getPath(`${USERS}/${userId}/sessions?${field}=1`), [field]);
      },
    );

    it('get: an unknown parameter is refused naming it', async () => {
      expectValidation(await getPath(`${USERS}/${userId}?foo=1`), ['foo']);
      expectValidation(await getPath(`${USERS}/${userId}?venueId=query-venue&page=1`), ['page']);
    });

    it.each([
      ['status', 'venueId=query-venue&status=active&status=blocked'],
      ['status', 'venueId=query-venue&status=active&status=active'],
      ['venueId', 'venueId=query-venue&venueId=other-venue'],
      ['page', 'venueId=query-venue&page=1&page=2'],
      ['limit', 'venueId=query-venue&limit=5&limit=5'],
      ['macAddress', 'venueId=query-venue&macAddress=AA:BB:CC:DD:EE:FF&macAddress=AA:BB:CC:DD:EE:FF'],
    ])('list: a repeated %s is refused naming it', async (field, query) => {
      expectValidation(await getPath(`${USERS}?${query}`), [field]);
    });

    it('get: a repeated venueId is refused naming it', async () => {
      expectValidation(await getPath(`${USERS}/${userId}?venueId=query-venue&venueId=query-venue`), ['venueId']);
    });

    it.each([['0'], ['1.5'], ['1e1'], [''], ['-1'], ['abc'], ['+1'], [' 1'], ['0x1']])(
      'list: page=%j is refused',
      async (page) => {
        expectValidation(await getPath(`${USERS}?venueId=query-venue&page=${encodeURIComponent(page)}`), ['page']);
      },
    );

    it.each([['0'], ['101'], ['1.5'], ['1e1'], ['']])('list: limit=%j is refused', async (limit) => {
      expectValidation(await getPath(`${USERS}?venueId=query-venue&limit=${encodeURIComponent(limit)}`), ['limit']);
    });

    it('list: page=01 is page 1, limit=100, limit=010 and zeros beyond nine digits are accepted', async () => {
      const first = await getPath(`${USERS}?venueId=query-venue&page=01`).expect(200);
      expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
      expect(first.body.data.map((user: { _id: string }) => user._id)).toEqual([userId]);
      const hundred = await getPath(`${USERS}?venueId=query-venue&limit=100`).expect(200);
      expect(hundred.body.pagination).toEqual({ page: 1, limit: 100, total: 1, pages: 1 });
      const ten = await getPath(`${USERS}?venueId=query-venue&limit=010`).expect(200);
      expect(ten.body.pagination).toEqual({ page: 1, limit: 10, total: 1, pages: 1 });
      const padded = await getPath(`${USERS}?venueId=query-venue&limit=0000000010&page=00000000001`).expect(200);
      expect(padded.body.pagination).toEqual({ page: 1, limit: 10, total: 1, pages: 1 });
    });

    it.each([['bad venue'], ['a/b'], ['v'.repeat(65)], ['ven%ue']])('list: venueId=%j is refused', async (venueId) => {
      expectValidation(await getPath(`${USERS}?venueId=${encodeURIComponent(venueId)}`), ['venueId']);
    });

    it('list: an empty venueId is refused', async () => {
      expectValidation(await getPath(`${USERS}?venueId=`), ['venueId']);
    });

    it('get: a malformed venueId is refused', async () => {
      expectValidation(await getPath(`${USERS}/${userId}?venueId=${encodeURIComponent('bad venue')}`), ['venueId']);
    });

    it.each([['deleted'], ['ACTIVE'], ['']])('list: status=%j is refused', async (status) => {
      expectValidation(await getPath(`${USERS}?venueId=query-venue&status=${status}`), ['status']);
    });

    it.each([['aa:bb-cc:dd-ee:ff'], ['not-a-mac']])('list: macAddress=%j is refused', async (macAddress) => {
      expectValidation(await getPath(`${USERS}?venueId=query-venue&macAddress=${encodeURIComponent(macAddress)}`), [
        'macAddress',
      ]);
    });

    it('several bad parameters give several entries', async () => {
      expectValidation(await getPath(`${USERS}?venueId=query-venue&page=0&limit=101&status=x&stauts=y`), [
        'page',
        'limit',
        'status',
        'stauts',
      ]);
    });
  });
});
