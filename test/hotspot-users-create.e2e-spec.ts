import { verify } from '@node-rs/argon2';
import type { Response } from 'supertest';
import { api } from './support/api-client.js';
import { MESSAGES } from './support/expected.js';
import { userBody } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const CREATED = MESSAGES.created;
/** ISO 8601 in UTC with milliseconds, as every timestamp is returned (docs/api.md, "Records"). */
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Every field of the returned HotspotUser (the v1 fields plus the added `macAddress`). */
/** The v1 record's fields, and the additions firstLoginAt and validFor (validity from the first login). */
const RECORD_FIELDS = [
  '_id',
  'batchId',
  'createdAt',
  'devices',
  'email',
  'expiresAt',
  'firstLoginAt',
  'loginMethod',
  'macAddress',
  'metadata',
  'name',
  'phone',
  'planId',
  'room',
  'status',
  'updatedAt',
  'username',
  'validFor',
  'venueIds',
];

interface UserRow {
  id: string;
  name: string;
  username: string | null;
  email: string | null;
  phone: string | null;
  mac_address: string | null;
  login_method: string;
  status: string;
  password_hash: string | null;
  metadata: string | Record<string, unknown>;
}

interface VenueRow {
  venue_id: string;
  position: number | string;
  user_status: string;
  username_key: string | null;
  email_key: string | null;
  phone_key: string | null;
}

async function userRow(testApp: TestApp, id: string): Promise<UserRow> {
  const rows: UserRow[] = await testApp.dataSource.query('SELECT * FROM hotspot_users WHERE id = ?', [id]);
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function venueRows(testApp: TestApp, id: string): Promise<VenueRow[]> {
  return testApp.dataSource.query(
    `SELECT venue_id, position, user_status, username_key, email_key, phone_key
       FROM hotspot_user_venues WHERE user_id = ? ORDER BY position`,
    [id],
  );
}

/** No trace of the password or of its hash, under any key, anywhere in a response. */
function expectNoPassword(response: Response, password: string): void {
  expect(response.text).not.toContain(password);
  expect(response.text).not.toMatch(/"password(_?hash)?"\s*:/i);
  expect(response.text).not.toContain('$argon2');
}

describeEachDatabase('POST /api/v1/hotspot-users (create)', (current) => {
  const post = (body: Record<string, unknown>) => api(current()).users.create(body);
  const get = (id: string) => api(current()).users.get(id);

  it('creates a username_password user: 201, the success message and the full record', async () => {
    const before = Date.now();
    const response = await post({
      name: 'Ayşe Yılmaz',
      loginMethod: 'username_password',
      username: 'ayse.room-1204',
      password: 'sunrise42',
      email: 'ayse@example.com',
      phone: '+90 532 123 45 67',
      room: ' 1204 ',
      macAddress: 'aa-bb-cc-dd-ee-ff',
      venueIds: ['create-venue-1'],
      expiresAt: '2031-01-31T12:00:00Z',
      metadata: { roomNumber: '1204', nights: 3, vip: true, tags: ['a', 'b'], nested: { x: null } },
    });
    const after = Date.now();

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      message: CREATED,
      data: {
        _id: expect.any(String),
        name: 'Ayşe Yılmaz',
        username: 'ayse.room-1204',
        email: 'ayse@example.com',
        phone: '+90 532 123 45 67',
        room: '1204',
        macAddress: 'AA:BB:CC:DD:EE:FF',
        loginMethod: 'username_password',
        venueIds: ['create-venue-1'],
        status: 'active',
        expiresAt: '2031-01-31T12:00:00.000Z',
        validFor: null,
        firstLoginAt: null,
        devices: [],
        metadata: { roomNumber: '1204', nights: 3, vip: true, tags: ['a', 'b'], nested: { x: null } },
        createdAt: expect.stringMatching(ISO_UTC_MS),
        updatedAt: expect.stringMatching(ISO_UTC_MS),
        batchId: null,
        planId: null,
      },
    });
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(RECORD_FIELDS);
    expect(data._id.length).toBeGreaterThan(0);
    expect(data.updatedAt).toBe(data.createdAt);
    const created = Date.parse(data.createdAt);
    expect(created).toBeGreaterThanOrEqual(before - 5);
    expect(created).toBeLessThanOrEqual(after + 5);
    expectNoPassword(response, 'sunrise42');
  });

  it('returns the same record from a GET afterwards (what was stored is what was answered)', async () => {
    const created = await post(
      userBody({
        email: 'same@example.com',
        phone: '5321234567',
        macAddress: 'AABB.CCDD.EE01',
        venueIds: ['create-venue-2', 'create-venue-3'],
        expiresAt: '2032-02-29T23:59:59.999Z',
        metadata: { k: 'v' },
      }),
    ).expect(201);
    const fetched = await get(created.body.data._id).expect(200);
    expect(fetched.body).toEqual({ success: true, data: created.body.data });
    expect(fetched.body.data.macAddress).toBe('AA:BB:CC:DD:EE:01');
    expectNoPassword(fetched, 'secret-1');
  });

  it('fills unset optional fields with null, devices with [] and metadata with {}', async () => {
    const body = userBody({ venueIds: ['create-venue-4'] });
    const response = await post(body).expect(201);
    expect(response.body).toEqual({
      success: true,
      message: CREATED,
      data: {
        _id: expect.any(String),
        name: body.name,
        username: body.username,
        email: null,
        phone: null,
        room: null,
        macAddress: null,
        loginMethod: 'username_password',
        venueIds: ['create-venue-4'],
        status: 'active',
        expiresAt: null,
        validFor: null,
        firstLoginAt: null,
        devices: [],
        metadata: {},
        createdAt: expect.stringMatching(ISO_UTC_MS),
        updatedAt: expect.stringMatching(ISO_UTC_MS),
        batchId: null,
        planId: null,
      },
    });
    expect(response.body.data.updatedAt).toBe(response.body.data.createdAt);
  });

  it('stores the password only as an argon2id hash that verifies, and never returns it', async () => {
    const password = 'p4ss-Word';
    const response = await post(userBody({ password, venueIds: ['create-venue-5'] })).expect(201);
    expectNoPassword(response, password);

    const row = await userRow(current(), response.body.data._id);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(password);
    expect(await verify(row.password_hash!, password)).toBe(true);
    expect(await verify(row.password_hash!, 'p4ss-word')).toBe(false);

    const list = await api(current()).users.list({ venueId: 'create-venue-5' }).expect(200);
    expect(list.body.data).toHaveLength(1);
    expectNoPassword(list, password);
  });

  it('trims the name', async () => {
    const response = await post(userBody({ name: '  \t Mehmet Öz \n ' })).expect(201);
    expect(response.body.data.name).toBe('Mehmet Öz');
    expect((await userRow(current(), response.body.data._id)).name).toBe('Mehmet Öz');
  });

  it.each([
    ['AA:BB:CC:DD:EE:0F', 'upper case with colons'],
    ['aa:bb:cc:dd:ee:0f', 'lower case with colons'],
    ['aa-bb-cc-dd-ee-0f', 'dashes'],
    ['AA-BB-CC-DD-EE-0F', 'upper case dashes'],
    ['aabb.ccdd.ee0f', 'dotted groups of four'],
    ['aabbccddee0f', 'bare hex'],
    ['AaBbCcDdEe0F', 'bare hex, mixed case'],
  ])('normalises the macAddress %s (%s) to AA:BB:CC:DD:EE:0F, in the record and in the table', async (mac) => {
    const response = await post(userBody({ macAddress: mac })).expect(201);
    expect(response.body.data.macAddress).toBe('AA:BB:CC:DD:EE:0F');
    expect(response.body.data.devices).toEqual([]);
    expect((await userRow(current(), response.body.data._id)).mac_address).toBe('AA:BB:CC:DD:EE:0F');
  });

  it('drops repeated venueIds and keeps the order of first appearance', async () => {
    const response = await post(
      userBody({ venueIds: ['dedupe-c', 'dedupe-a', 'dedupe-c', 'dedupe-b', 'dedupe-a'] }),
    ).expect(201);
    expect(response.body.data.venueIds).toEqual(['dedupe-c', 'dedupe-a', 'dedupe-b']);

    const rows = await venueRows(current(), response.body.data._id);
    expect(rows.map((row) => [row.venue_id, Number(row.position)])).toEqual([
      ['dedupe-c', 0],
      ['dedupe-a', 1],
      ['dedupe-b', 2],
    ]);
    const fetched = await get(response.body.data._id).expect(200);
    expect(fetched.body.data.venueIds).toEqual(['dedupe-c', 'dedupe-a', 'dedupe-b']);
  });

  it('writes one venue row per venue carrying the normalised uniqueness keys', async () => {
    const response = await post(
      userBody({
        username: 'Key.Holder',
        email: 'Key.Holder@Example.COM',
        phone: '+90 (532) 765-43-21',
        venueIds: ['keys-1', 'keys-2'],
      }),
    ).expect(201);
    const rows = await venueRows(current(), response.body.data._id);
    expect(rows).toEqual([
      expect.objectContaining({ venue_id: 'keys-1', user_status: 'active' }),
      expect.objectContaining({ venue_id: 'keys-2', user_status: 'active' }),
    ]);
    for (const row of rows) {
      expect(row.username_key).toBe('key.holder');
      expect(row.email_key).toBe('key.holder@example.com');
      expect(row.phone_key).toBe('+905327654321');
    }
    // The record keeps what the caller sent.
    expect(response.body.data).toMatchObject({
      username: 'Key.Holder',
      email: 'Key.Holder@Example.COM',
      phone: '+90 (532) 765-43-21',
    });
  });

  it.each([
    ['2031-06-15T15:30:00+03:00', '2031-06-15T12:30:00.000Z'],
    ['2031-06-15T15:30:00.5+03:00', '2031-06-15T12:30:00.500Z'],
    ['2031-06-15T07:30:00-05:00', '2031-06-15T12:30:00.000Z'],
    ['2031-06-15T12:30Z', '2031-06-15T12:30:00.000Z'],
    ['2031-06-15T12:30:00.123Z', '2031-06-15T12:30:00.123Z'],
  ])('returns expiresAt %s in UTC with milliseconds as %s', async (input, expected) => {
    const response = await post(userBody({ expiresAt: input })).expect(201);
    expect(response.body.data.expiresAt).toBe(expected);
    const fetched = await get(response.body.data._id).expect(200);
    expect(fetched.body.data.expiresAt).toBe(expected);
  });

  it('creates a guest without username or password', async () => {
    const response = await post({ name: 'Walk-in', loginMethod: 'guest', venueIds: ['guest-venue'] }).expect(201);
    expect(response.body).toEqual({
      success: true,
      message: CREATED,
      data: {
        _id: expect.any(String),
        name: 'Walk-in',
        username: null,
        email: null,
        phone: null,
        room: null,
        macAddress: null,
        loginMethod: 'guest',
        venueIds: ['guest-venue'],
        status: 'active',
        expiresAt: null,
        validFor: null,
        firstLoginAt: null,
        devices: [],
        metadata: {},
        createdAt: expect.stringMatching(ISO_UTC_MS),
        updatedAt: expect.stringMatching(ISO_UTC_MS),
        batchId: null,
        planId: null,
      },
    });
    const row = await userRow(current(), response.body.data._id);
    expect(row.password_hash).toBeNull();
    expect(row.login_method).toBe('guest');
    const [venue] = await venueRows(current(), response.body.data._id);
    expect(venue.username_key).toBeNull();
  });

  it('creates a guest with a username (and still no password)', async () => {
    const response = await post({
      name: 'Guest With Name',
      loginMethod: 'guest',
      username: 'Lobby-Guest.7',
      email: 'guest7@example.com',
      venueIds: ['guest-venue'],
    }).expect(201);
    expect(response.body.data).toMatchObject({
      loginMethod: 'guest',
      username: 'Lobby-Guest.7',
      email: 'guest7@example.com',
      expiresAt: null,
    });
    expect((await userRow(current(), response.body.data._id)).password_hash).toBeNull();
    const [venue] = await venueRows(current(), response.body.data._id);
    expect(venue.username_key).toBe('lobby-guest.7');
  });

  it('treats null optional fields of a username_password user as unset', async () => {
    const response = await post(
      userBody({ email: null, phone: null, macAddress: null, expiresAt: null, venueIds: ['null-venue'] }),
    ).expect(201);
    expect(response.body.data).toMatchObject({ email: null, phone: null, macAddress: null, expiresAt: null });
    const row = await userRow(current(), response.body.data._id);
    expect(row).toMatchObject({ email: null, phone: null, mac_address: null });
  });

  it('treats null optional fields of a guest (username included) as unset', async () => {
    const response = await post({
      name: 'Null Guest',
      loginMethod: 'guest',
      username: null,
      email: null,
      phone: null,
      macAddress: null,
      expiresAt: null,
      venueIds: ['null-venue'],
    }).expect(201);
    expect(response.body.data).toMatchObject({
      username: null,
      email: null,
      phone: null,
      macAddress: null,
      expiresAt: null,
      metadata: {},
      devices: [],
    });
  });

  it('gives every user its own opaque string _id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const response = await post({ name: `Id ${i}`, loginMethod: 'guest', venueIds: ['id-venue'] }).expect(201);
      expect(typeof response.body.data._id).toBe('string');
      ids.add(response.body.data._id);
    }
    expect(ids.size).toBe(3);
  });

  it('stores metadata as given and returns it unchanged', async () => {
    const metadata = { unicode: 'çğıöşü 🚀', number: 1.5, list: [1, { a: [] }], empty: {}, nothing: null };
    const response = await post(userBody({ metadata })).expect(201);
    expect(response.body.data.metadata).toEqual(metadata);
    expect((await get(response.body.data._id).expect(200)).body.data.metadata).toEqual(metadata);
  });
});
