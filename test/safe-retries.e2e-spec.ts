import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import { IdempotencyKeyEntity } from '../src/idempotency/entities/idempotency-key.entity.js';
import { IdempotencyService } from '../src/idempotency/idempotency.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { api, USERS_PATH } from './support/api-client.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { MESSAGES, NOT_FOUND, validationError } from './support/expected.js';
import { givenGuest, givenUser, givenUserWithSessions, guestBody, userBody } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Safe retries for integrators: Idempotency-Key on POST create and POST expire (the same request
 * again replays the first answer, another request with the key is a 422), Location on the 201, and
 * ETag / If-Match on a user (a change from a stale ETag is a 412 and changes nothing).
 */

const HOUR = 3600 * 1000;
const REUSED = { success: false, message: 'Idempotency-Key reused with a different request' };
const IN_PROGRESS = { success: false, message: 'A request with this Idempotency-Key is in progress' };
const PRECONDITION_FAILED = { success: false, message: 'Precondition Failed' };

let keys = 0;
/** A key no other test uses. */
const newKey = () => `retry-${Date.now().toString(36)}-${++keys}`;

describe.each(databaseKinds())('safe retries [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    testApp = await startTestApp(kind, {}, { clock });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const createWithKey = (body: object, key: string, token?: string) =>
    api(testApp).users.create(body, { token }).set('Idempotency-Key', key);

  const expireWithKey = (id: string, key: string, headers: Record<string, string> = {}) => {
    let call = api(testApp).users.expire(id).set('Idempotency-Key', key);
    for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
    return call;
  };

  const usersNamed = (username: string) => testApp.dataSource.getRepository(HotspotUserEntity).countBy({ username });

  const usersCalled = (name: string) => testApp.dataSource.getRepository(HotspotUserEntity).countBy({ name });

  const etagOf = async (id: string) => (await api(testApp).users.get(id).expect(200)).headers.etag;

  describe('Idempotency-Key on create', () => {
    it('a retried create makes one user and replays the first answer: 201, body, Location, ETag, marked replayed', async () => {
      const body = userBody();
      const key = newKey();
      const first = await createWithKey(body, key).expect(201);
      expect(first.body).toMatchObject({ success: true, message: MESSAGES.created, data: { username: body.username } });
      expect(first.headers.location).toBe(`${USERS_PATH}/${first.body.data._id}`);
      expect(first.headers.etag).toBe('"v1"');
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      const retry = await createWithKey(body, key).expect(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.headers.etag).toBe('"v1"');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await usersNamed(String(body.username))).toBe(1);
    });

    it('replays the first answer even after the user changed, and without re-checking the body', async () => {
      const body = userBody({ expiresAt: new Date(clock.now().getTime() + HOUR).toISOString() });
      const key = newKey();
      const first = await createWithKey(body, key).expect(201);
      await api(testApp).users.update(first.body.data._id, { name: 'Renamed' }).expect(200);
      clock.advance(2 * HOUR); // expiresAt now lies in the past: the same body sent fresh would be a 400
      try {
        const retry = await createWithKey(body, key).expect(201);
        expect(retry.body).toEqual(first.body);
        expect(retry.headers.etag).toBe('"v1"');
      } finally {
        await testApp.database.run((em) => em.query('UPDATE hotspot_users SET expires_at = NULL'));
      }
    });

    it('a body with its fields in another order is the same request', async () => {
      const body = guestBody();
      const key = newKey();
      const first = await createWithKey(body, key).expect(201);
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const retry = await createWithKey(reordered, key).expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
    });

    it('the same key with another body is a 422 and creates nothing', async () => {
      const key = newKey();
      await createWithKey(guestBody(), key).expect(201);
      const other = guestBody();
      const reused = await createWithKey(other, key).expect(422);
      expect(reused.body).toEqual(REUSED);
      expect(await usersCalled(String(other.name))).toBe(0);
    });

    it('the same key on another path is another request: 422', async () => {
      const key = newKey();
      const created = await createWithKey(guestBody(), key).expect(201);
      const reused = await expireWithKey(created.body.data._id, key).expect(422);
      expect(reused.body).toEqual(REUSED);
      expect((await api(testApp).users.get(created.body.data._id).expect(200)).body.data.status).toBe('active');
    });

    it('10 concurrent creates with one key make exactly one user; every other answer is its replay or a 409', async () => {
      const body = userBody();
      const key = newKey();
      const answers = await Promise.all(Array.from({ length: 10 }, () => createWithKey(body, key)));

      expect(await usersNamed(String(body.username))).toBe(1);
      const created = answers.filter((answer) => answer.status === 201);
      expect(created.filter((answer) => answer.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      for (const answer of created) expect(answer.body).toEqual(created[0].body);
      for (const answer of answers.filter((each) => each.status !== 201)) {
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual(IN_PROGRESS);
      }
      const later = await createWithKey(body, key).expect(201);
      expect(later.body).toEqual(created[0].body);
    });

    it('a 400 answer is kept and replayed', async () => {
      const key = newKey();
      const invalid = guestBody({ name: '' });
      const first = await createWithKey(invalid, key).expect(400);
      expect(first.body).toEqual(validationError('name'));
      const retry = await createWithKey(invalid, key).expect(400);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');
    });

    it('a 409 answer is kept: the retry replays it even once the name is free again', async () => {
      const holder = await givenUser(testApp);
      const key = newKey();
      const clash = userBody({ username: holder.username });
      const first = await createWithKey(clash, key).expect(409);
      await api(testApp).users.remove(holder._id).expect(200);

      const retry = await createWithKey(clash, key).expect(409);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await usersNamed(String(holder.username))).toBe(0);
    });

    it('keys are per token: the same key from two tokens makes two users', async () => {
      const other = await testApp.createToken({ permissions: ['write'] });
      const key = newKey();
      const body = guestBody();
      const mine = await createWithKey(body, key).expect(201);
      const theirs = await createWithKey(body, key, other).expect(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.data._id).not.toBe(mine.body.data._id);
      expect(await usersCalled(String(body.name))).toBe(2);
    });

    it('a key older than 24 hours is new again, and the sweep deletes it', async () => {
      const key = newKey();
      await createWithKey(guestBody(), key).expect(201);
      clock.advance(24 * HOUR);
      await createWithKey(guestBody(), key).expect(422);
      clock.advance(1);
      const other = guestBody();
      const fresh = await createWithKey(other, key).expect(201);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(await usersCalled(String(other.name))).toBe(1);

      const forgotten = newKey();
      await createWithKey(guestBody(), forgotten).expect(201);
      const stored = () => testApp.dataSource.getRepository(IdempotencyKeyEntity).countBy({ key: forgotten });
      expect(await stored()).toBe(1);
      clock.advance(24 * HOUR + 1);
      expect(await testApp.app.get(IdempotencyService).forgetExpired(1000)).toBeGreaterThanOrEqual(1);
      expect(await stored()).toBe(0);
    });

    it('refuses a key that is empty, longer than 255 characters or not printable ASCII with a 400 naming it', async () => {
      for (const key of ['', 'k'.repeat(256), 'clé']) {
        const body = guestBody();
        const answer = await createWithKey(body, key).expect(400);
        expect(answer.body).toEqual(validationError('Idempotency-Key'));
        expect(await usersCalled(String(body.name))).toBe(0);
      }
      await createWithKey(guestBody(), `${'k'.repeat(254)} `.trim() + '~').expect(201);
    });

    it('without a key, a retry is a second request as before', async () => {
      const body = guestBody();
      await api(testApp).users.create(body).expect(201);
      await api(testApp).users.create(body).expect(201);
      expect(await usersCalled(String(body.name))).toBe(2);
    });
  });

  describe('Idempotency-Key on expire', () => {
    it('a retried expire replays the first answer without expiring again', async () => {
      const { user } = await givenUserWithSessions(testApp, { sessions: 2 });
      const key = newKey();
      const first = await expireWithKey(user._id, key).expect(200);
      expect(first.body).toMatchObject({ success: true, message: MESSAGES.expired, data: { expiredSessions: 2 } });
      expect(first.headers.etag).toBe('"v2"');

      const retry = await expireWithKey(user._id, key).expect(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.etag).toBe('"v2"');
      expect(retry.headers['idempotent-replayed']).toBe('true');
      // A second expire would have moved the version on.
      expect(await etagOf(user._id)).toBe('"v2"');
    });

    it('a 404 is kept; the same key with another body is a 422', async () => {
      const key = newKey();
      await expireWithKey('no-such-user', key).expect(404, NOT_FOUND);
      const retry = await expireWithKey('no-such-user', key).expect(404, NOT_FOUND);
      expect(retry.headers['idempotent-replayed']).toBe('true');

      const user = await givenGuest(testApp);
      const expireKey = newKey();
      await expireWithKey(user._id, expireKey).expect(200);
      const reused = await api(testApp)
        .users.expire(user._id, { venueId: 'venue-a' })
        .set('Idempotency-Key', expireKey)
        .expect(422);
      expect(reused.body).toEqual(REUSED);
    });
  });

  describe('ETag and If-Match', () => {
    it('GET gives the ETag; a PUT from it succeeds with a new one; a PUT from the old one is a 412 and changes nothing', async () => {
      const user = await givenGuest(testApp, { name: 'First' });
      const etag = await etagOf(user._id);
      expect(etag).toBe('"v1"');

      const updated = await api(testApp).users.update(user._id, { name: 'Second' }).set('If-Match', etag).expect(200);
      expect(updated.headers.etag).toBe('"v2"');

      const stale = await api(testApp).users.update(user._id, { name: 'Third' }).set('If-Match', etag).expect(412);
      expect(stale.body).toEqual(PRECONDITION_FAILED);
      const current = await api(testApp).users.get(user._id).expect(200);
      expect(current.body.data.name).toBe('Second');
      expect(current.headers.etag).toBe('"v2"');
    });

    it('If-Match matches any of a list of tags, never a weak one; * matches any existing user', async () => {
      const user = await givenGuest(testApp);
      await api(testApp).users.update(user._id, { name: 'a' }).set('If-Match', 'W/"v1"').expect(412);
      await api(testApp).users.update(user._id, { name: 'b' }).set('If-Match', '"v9", "v1"').expect(200);
      await api(testApp).users.update(user._id, { name: 'c' }).set('If-Match', '*').expect(200);
      expect(await etagOf(user._id)).toBe('"v3"');
      await api(testApp).users.update('no-such-user', { name: 'd' }).set('If-Match', '*').expect(404, NOT_FOUND);
    });

    it('a malformed If-Match is a 400 naming it', async () => {
      const user = await givenGuest(testApp);
      const answer = await api(testApp).users.update(user._id, { name: 'x' }).set('If-Match', 'v1').expect(400);
      expect(answer.body).toEqual(validationError('If-Match'));
      await api(testApp).users.remove(user._id).set('If-Match', '"v1" junk').expect(400);
      expect(await etagOf(user._id)).toBe('"v1"');
    });

    it('DELETE from a stale ETag is a 412 and the user stays; from the current one it deletes', async () => {
      const user = await givenGuest(testApp);
      await api(testApp).users.update(user._id, { name: 'moved on' }).expect(200);
      const stale = await api(testApp).users.remove(user._id).set('If-Match', '"v1"').expect(412);
      expect(stale.body).toEqual(PRECONDITION_FAILED);
      await api(testApp).users.get(user._id).expect(200);
      await api(testApp).users.remove(user._id).set('If-Match', '"v2"').expect(200);
      await api(testApp).users.get(user._id).expect(404);
    });

    it('expire from a stale ETag is a 412 and the user stays active; with * it expires, answering the new ETag', async () => {
      const user = await givenGuest(testApp);
      await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
      const stale = await api(testApp).users.expire(user._id).set('If-Match', '"v1"').expect(412);
      expect(stale.body).toEqual(PRECONDITION_FAILED);
      expect((await api(testApp).users.get(user._id).expect(200)).body.data.status).toBe('blocked');

      const expired = await api(testApp).users.expire(user._id).set('If-Match', '*').expect(200);
      expect(expired.headers.etag).toBe('"v3"');
      expect(expired.body.data.user.status).toBe('expired');
    });

    it('sessions and devices leave the ETag alone; the automatic expiry moves it on', async () => {
      const { user } = await givenUserWithSessions(testApp, {
        sessions: 1,
        user: { expiresAt: new Date(clock.now().getTime() + HOUR).toISOString() },
      });
      expect(await etagOf(user._id)).toBe('"v1"');
      clock.advance(2 * HOUR);
      expect(await testApp.app.get(HotspotUsersService).expireDue(100)).toBeGreaterThanOrEqual(1);
      expect(await etagOf(user._id)).toBe('"v2"');
    });
  });

  describe('OpenAPI', () => {
    it('declares the headers and answers of safe retries on the operations concerned', async () => {
      const document = (await testApp.http.get('/api/docs-json').expect(200)).body;
      const users = document.paths['/api/v1/hotspot-users'];
      const user = document.paths['/api/v1/hotspot-users/{id}'];
      const expire = document.paths['/api/v1/hotspot-users/{id}/expire'];
      const headerNames = (operation: { parameters: Array<{ in: string; name: string }> }) =>
        operation.parameters.filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name);

      expect(headerNames(users.post)).toContain('Idempotency-Key');
      expect(headerNames(expire.post)).toEqual(expect.arrayContaining(['Idempotency-Key', 'If-Match']));
      expect(headerNames(user.put)).toContain('If-Match');
      expect(headerNames(user.delete)).toContain('If-Match');

      expect(Object.keys(users.post.responses['201'].headers)).toEqual(
        expect.arrayContaining(['Location', 'ETag', 'Idempotent-Replayed']),
      );
      expect(Object.keys(expire.post.responses['200'].headers)).toEqual(
        expect.arrayContaining(['ETag', 'Idempotent-Replayed']),
      );
      expect(Object.keys(user.get.responses['200'].headers)).toContain('ETag');
      expect(Object.keys(user.put.responses['200'].headers)).toContain('ETag');
      for (const operation of [users.post, expire.post]) {
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['409', '422']));
      }
      for (const operation of [user.put, user.delete, expire.post]) expect(operation.responses['412']).toBeDefined();
    });
  });
});
