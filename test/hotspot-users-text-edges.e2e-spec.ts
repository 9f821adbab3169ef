import type { Response } from 'supertest';
import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import { createUser, userBody } from './support/factories.js';
import { describeEachDatabase } from './support/test-app.js';

/**
 * Text and date values at the edges of what the columns hold: each is either stored and returned
 * exactly, or refused with a 400 naming its field, on both databases; never a 500.
 */

const USERS = '/api/v1/hotspot-users';

/** A 400 validation error with exactly one entry, for `field`. */
function expectRefused(response: Response, field: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 400,
    body: { success: false, message: 'Validation error', errors: [{ field, message: expect.any(String) }] },
  });
}

/** A valid address of exactly `length` UTF-16 units whose local part is `local` (domain labels of at most 63). */
function emailOf(local: string, length: number): string {
  let rest = length - local.length - 1 - '.com'.length;
  const labels: string[] = [];
  while (rest > 63) {
    labels.push('a'.repeat(62));
    rest -= 63;
  }
  labels.push('b'.repeat(rest));
  return `${local}@${labels.join('.')}.com`;
}

const LONE_HIGH = '\uD800';
const LONE_LOW = '\uDC00';
const ASTRAL = '\u{1F600}';

describeEachDatabase('hotspot users: values at the edges of storage', (current) => {
  const auth = () => `Bearer ${current().adminToken}`;
  const post = (body: Record<string, unknown>) => current().http.post(USERS).set('Authorization', auth()).send(body);
  const put = (id: string, body: Record<string, unknown>) =>
    current().http.put(`${USERS}/${id}`).set('Authorization', auth()).send(body);
  const get = (path: string) => current().http.get(path).set('Authorization', auth());
  const stored = async (id: string) => (await get(`${USERS}/${id}`).expect(200)).body.data;

  let userId: string;
  beforeAll(async () => {
    userId = (await createUser(current(), { venueIds: ['edge-venue'] }))._id;
  });

  describe('control characters and lone surrogates', () => {
    const BAD = [
      ['NUL', 'a\u0000b'],
      ['a tab inside', 'a\tb'],
      ['a newline inside', 'a\nb'],
      ['U+001F', 'a\u001fb'],
      ['DEL', 'a\u007fb'],
      ['a lone high surrogate', `a${LONE_HIGH}b`],
      ['a lone low surrogate', `a${LONE_LOW}b`],
      ['a low then high surrogate', `a${LONE_LOW}${LONE_HIGH}b`],
    ];

    it.each(BAD)('name with %s is refused on POST and PUT', async (_case, bad) => {
      expectRefused(await post(userBody({ name: `Guest ${bad}` })), 'name');
      expectRefused(await put(userId, { name: `Guest ${bad}` }), 'name');
    });

    it.each(BAD)('email with %s is refused on POST and PUT', async (_case, bad) => {
      for (const email of [`"${bad}"@example.com`, `user@exam${bad}ple.com`, `${bad}@example.com`]) {
        expectRefused(await post(userBody({ email })), 'email');
        expectRefused(await put(userId, { email }), 'email');
      }
    });

    it.each(BAD)('username, phone, macAddress and venueIds with %s are refused naming each', async (_case, bad) => {
      expectRefused(await post(userBody({ username: `user${bad}` })), 'username');
      expectRefused(await put(userId, { username: `user${bad}` }), 'username');
      expectRefused(await post(userBody({ phone: `0532 ${bad} 123 45 67` })), 'phone');
      expectRefused(await put(userId, { phone: `0532 ${bad} 123 45 67` }), 'phone');
      expectRefused(await post(userBody({ macAddress: `AA:BB:CC${bad}:DD:EE:FF` })), 'macAddress');
      expectRefused(await post(userBody({ venueIds: ['edge-venue', `v${bad}`] })), 'venueIds.1');
      expectRefused(await put(userId, { venueIds: [`v${bad}`] }), 'venueIds.0');
    });

    it('the message names the rule', async () => {
      const response = await post(userBody({ name: 'a\u0000b' }));
      expect(response.body.errors).toEqual([
        { field: 'name', message: 'name must not contain control characters or lone surrogates' },
      ]);
    });

    it.each([
      ['a right-to-left override', 'Guest \u202Egnp.exe'],
      ['a left-to-right embedding', '\u202AAyşe'],
      ['a first-strong isolate', 'Ayşe \u2068Yılmaz\u2069'],
    ])('name and room with %s are refused on POST and PUT, naming the rule', async (_case, bad) => {
      const message = 'must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069)';
      for (const field of ['name', 'room']) {
        const created = await post(userBody({ [field]: bad }));
        expectRefused(created, field);
        expect(created.body.errors).toContainEqual({ field, message: `${field} ${message}` });
        expectRefused(await put(userId, { [field]: bad }), field);
      }
    });

    it.each([
      ['venueId', 'edge\u0000venue'],
      ['venueId', 'edge\u007f'],
      ['macAddress', 'AA:BB:CC:DD:EE:F\u0000'],
      ['macAddress', '\u001fAA:BB:CC:DD:EE:FF'],
    ])('list: %s with a control character is refused naming it', async (parameter, value) => {
      const query = new URLSearchParams({ venueId: 'edge-venue', [parameter]: value });
      expectRefused(await get(`${USERS}?${query}`), parameter);
    });

    it('nothing refused was stored', async () => {
      const [row] = await current().dataSource.query('SELECT COUNT(*) AS n FROM hotspot_users WHERE id <> ?', [userId]);
      expect(Number(row.n)).toBe(0);
    });
  });

  describe('lengths counted as the columns count them', () => {
    it('a name of 255 astral characters is stored and returned exactly; 256 are refused', async () => {
      const name = ASTRAL.repeat(255);
      const created = await post(userBody({ name })).expect(201);
      expect(created.body.data.name).toBe(name);
      expect((await stored(created.body.data._id)).name).toBe(name);
      expectRefused(await post(userBody({ name: ASTRAL.repeat(256) })), 'name');
      expect((await put(userId, { name })).body.data.name).toBe(name);
      expect((await stored(userId)).name).toBe(name);
    });

    it('a name counts variation selectors as characters: 255 are stored, 256 refused', async () => {
      const heart = '\u2764\uFE0F';
      const name = `${heart.repeat(127)}x`;
      expect([...name]).toHaveLength(255);
      const created = await post(userBody({ name })).expect(201);
      expect((await stored(created.body.data._id)).name).toBe(name);
      expectRefused(await post(userBody({ name: heart.repeat(128) })), 'name');
      expectRefused(await put(userId, { name: `${heart.repeat(200)}` }), 'name');
    });

    it('a phone of 32 characters is stored; 33 with valid digits are refused', async () => {
      const phone = `+90${' '.repeat(16)}532 123 45 67`;
      expect(phone).toHaveLength(32);
      const created = await post(userBody({ phone })).expect(201);
      expect((await stored(created.body.data._id)).phone).toBe(phone);
      const tooLong = `${phone.slice(0, 3)} ${phone.slice(3)}`;
      expectRefused(await post(userBody({ phone: tooLong })), 'phone');
      expectRefused(await put(userId, { phone: tooLong }), 'phone');
    });

    it('an email whose lower-case form outgrows 254 characters is refused; one that fits is stored', async () => {
      // İ lower-cases to i + U+0307: one character more in the uniqueness key.
      const tooLong = emailOf(`${'İ'.repeat(30)}x`, 254);
      expect(tooLong).toHaveLength(254);
      expect(tooLong.toLowerCase()).toHaveLength(284);
      expectRefused(await post(userBody({ email: tooLong })), 'email');
      expectRefused(await put(userId, { email: tooLong }), 'email');

      const fits = emailOf(`İ${'x'.repeat(10)}`, 253);
      const created = await post(userBody({ email: fits })).expect(201);
      expect(created.body.data.email).toBe(fits);
      expect((await stored(created.body.data._id)).email).toBe(fits);
      // The key is what makes the address unique: the lower-case spelling clashes.
      const clash = await post(userBody({ email: fits.toLowerCase() }));
      expect(clash.status).toBe(409);
    });

    it('an email with astral characters is stored as sent', async () => {
      const email = `x@${'a'.repeat(60)}.${ASTRAL.repeat(20)}.${'b'.repeat(60)}.com`;
      const created = await post(userBody({ email }));
      expect(created.status).toBe(201);
      expect((await stored(created.body.data._id)).email).toBe(email);
    });
  });

  describe('expiresAt up to 9999-12-31T23:59:59.999Z in UTC', () => {
    it.each([
      ['an offset that carries it into year 10000', '9999-12-31T23:00:00-05:00'],
      ['one millisecond too late', '10000-01-01T00:00:00Z'],
      ['the last minute with a negative offset', '9999-12-31T23:59:59.999-00:01'],
    ])('%s is refused on POST and PUT', async (_case, expiresAt) => {
      expectRefused(await post(userBody({ expiresAt })), 'expiresAt');
      expectRefused(await put(userId, { expiresAt }), 'expiresAt');
    });

    it('the very last instant is stored, returned exactly and not swept as expired', async () => {
      const created = await post(userBody({ expiresAt: '9999-12-31T23:59:59.999Z' })).expect(201);
      const id = created.body.data._id;
      expect(created.body.data.expiresAt).toBe('9999-12-31T23:59:59.999Z');
      const viaOffset = await put(id, { expiresAt: '10000-01-01T04:59:59.999+05:00' });
      expect(viaOffset.status).toBe(400);
      await put(id, { expiresAt: '9999-12-31T18:59:59.999-05:00' }).expect(200);
      await current().app.get(HotspotUsersService).expireDue(100);
      const after = await stored(id);
      expect(after).toMatchObject({ status: 'active', expiresAt: '9999-12-31T23:59:59.999Z' });
    });
  });

  describe('stored as given', () => {
    it('NFC and NFD spellings of a name are each kept as sent', async () => {
      const nfc = 'Jos\u00e9';
      const nfd = 'Jose\u0301';
      const a = await post(userBody({ name: nfc })).expect(201);
      const b = await post(userBody({ name: nfd })).expect(201);
      expect((await stored(a.body.data._id)).name).toBe(nfc);
      expect((await stored(b.body.data._id)).name).toBe(nfd);
    });

    it('metadata with lone surrogates, control characters and astral characters round-trips', async () => {
      const metadata = {
        lone: `a${LONE_HIGH}b${LONE_LOW}`,
        controls: '\u0000\u0001\t\n\u001f\u007f\u0085',
        astral: ASTRAL.repeat(3),
        [`key${LONE_LOW}\u0000`]: [1, -0.5, 1e300, true, null, { deep: `${ASTRAL}${LONE_HIGH}` }],
        'e\u0301': 'Jose\u0301',
      };
      const created = await post(userBody({ metadata })).expect(201);
      expect(created.body.data.metadata).toEqual(metadata);
      expect((await stored(created.body.data._id)).metadata).toEqual(metadata);
      await put(userId, { metadata }).expect(200);
      expect((await stored(userId)).metadata).toEqual(metadata);
    });

    it('metadata with a number JSON cannot hold (1e400) is refused', async () => {
      const raw = JSON.stringify(userBody()).replace(/}$/, ',"metadata":{"big":1e400}}');
      const response = await current()
        .http.post(USERS)
        .set('Authorization', auth())
        .set('Content-Type', 'application/json')
        .send(raw);
      expectRefused(response, 'metadata');
    });
  });
});
