import type { Response } from 'supertest';
import { api } from './support/api-client.js';
import { givenUser, userBody } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

type Clash = [field: 'username' | 'email' | 'phone', venueId: string];

const byFieldThenMessage = (a: { field: string; message: string }, b: { field: string; message: string }) =>
  a.field.localeCompare(b.field) || a.message.localeCompare(b.message);

/** 409 with exactly one entry per clash (in any order), each naming the field and the venue. */
function expectConflict(response: Response, clashes: Clash[]): void {
  expect(response.status).toBe(409);
  expect(response.body).toEqual({ success: false, message: 'Conflict', errors: expect.any(Array) });
  const expected = clashes.map(([field, venueId]) => ({ field, message: `${field} already used in venue ${venueId}` }));
  expect([...response.body.errors].sort(byFieldThenMessage)).toEqual(expected.sort(byFieldThenMessage));
}

async function count(testApp: TestApp, sql: string, params: unknown[]): Promise<number> {
  const [row] = await testApp.dataSource.query(sql, params);
  return Number(row.n);
}

describeEachDatabase('hotspot users uniqueness', (current) => {
  const users = () => api(current()).users;
  const post = (body: Record<string, unknown>) => users().create(body);
  const put = (id: string, body: Record<string, unknown>) => users().update(id, body);
  const get = (id: string) => users().get(id);

  describe('username', () => {
    it('is unique per venue, case-insensitively, with the exact 409 body', async () => {
      await post(userBody({ username: 'Alice', venueIds: ['uq-user-1'] })).expect(201);
      for (const username of ['alice', 'ALICE', 'Alice', 'aLiCe']) {
        const response = await post(userBody({ username, venueIds: ['uq-user-1'] }));
        expect(response.body).toEqual({
          success: false,
          message: 'Conflict',
          errors: [{ field: 'username', message: 'username already used in venue uq-user-1' }],
        });
        expect(response.status).toBe(409);
      }
      expect(
        await count(current(), 'SELECT COUNT(*) AS n FROM hotspot_users WHERE LOWER(username) = ?', ['alice']),
      ).toBe(1);
    });

    it('may be used again in another venue', async () => {
      await post(userBody({ username: 'Bob', venueIds: ['uq-user-2'] })).expect(201);
      const response = await post(userBody({ username: 'bob', venueIds: ['uq-user-3'] })).expect(201);
      expect(response.body.data.username).toBe('bob');
    });

    it("a guest's username counts too", async () => {
      await post({ name: 'G', loginMethod: 'guest', username: 'lobby', venueIds: ['uq-user-4'] }).expect(201);
      expectConflict(await post(userBody({ username: 'LOBBY', venueIds: ['uq-user-4'] })), [['username', 'uq-user-4']]);
      expectConflict(await post({ name: 'G2', loginMethod: 'guest', username: 'Lobby', venueIds: ['uq-user-4'] }), [
        ['username', 'uq-user-4'],
      ]);
    });

    it('guests without a username never clash with each other', async () => {
      for (let i = 0; i < 3; i += 1) {
        await post({ name: `Nameless ${i}`, loginMethod: 'guest', venueIds: ['uq-user-5'] }).expect(201);
      }
    });
  });

  describe('email and phone', () => {
    it('email is unique per venue, case-insensitively', async () => {
      await post(userBody({ email: 'A@x.com', venueIds: ['uq-mail'] })).expect(201);
      expectConflict(await post(userBody({ email: 'a@X.com', venueIds: ['uq-mail'] })), [['email', 'uq-mail']]);
      expectConflict(await post({ name: 'G', loginMethod: 'guest', email: 'A@X.COM', venueIds: ['uq-mail'] }), [
        ['email', 'uq-mail'],
      ]);
      await post(userBody({ email: 'a@X.com', venueIds: ['uq-mail-other'] })).expect(201);
    });

    it('phone compares the digits and the +', async () => {
      await post(userBody({ phone: '+90 532 1234567', venueIds: ['uq-phone'] })).expect(201);
      for (const phone of ['+905321234567', '+90 (532) 123-45-67', '+90-532-123-45-67']) {
        expectConflict(await post(userBody({ phone, venueIds: ['uq-phone'] })), [['phone', 'uq-phone']]);
      }
      // Without the + it is another key.
      await post(userBody({ phone: '905321234567', venueIds: ['uq-phone'] })).expect(201);
      expectConflict(await post(userBody({ phone: '90 532 123 45 67', venueIds: ['uq-phone'] })), [
        ['phone', 'uq-phone'],
      ]);
      await post(userBody({ phone: '+905321234567', venueIds: ['uq-phone-other'] })).expect(201);
    });
  });

  describe('one entry per clash', () => {
    it('several fields in several venues', async () => {
      await post(
        userBody({
          username: 'Multi',
          email: 'multi@example.com',
          phone: '+1 555 000 1111',
          venueIds: ['uq-m1', 'uq-m2'],
        }),
      ).expect(201);
      const response = await post(
        userBody({
          username: 'MULTI',
          email: 'Multi@Example.com',
          phone: '+15550001111',
          venueIds: ['uq-m2', 'uq-m3', 'uq-m1'],
        }),
      );
      expectConflict(response, [
        ['username', 'uq-m1'],
        ['username', 'uq-m2'],
        ['email', 'uq-m1'],
        ['email', 'uq-m2'],
        ['phone', 'uq-m1'],
        ['phone', 'uq-m2'],
      ]);
      expect(
        await count(current(), 'SELECT COUNT(*) AS n FROM hotspot_user_venues WHERE venue_id = ?', ['uq-m3']),
      ).toBe(0);
    });

    it('clashes with different users in different venues', async () => {
      await post(userBody({ username: 'split', venueIds: ['uq-s1'] })).expect(201);
      await post(userBody({ email: 'split@example.com', venueIds: ['uq-s2'] })).expect(201);
      await post(userBody({ phone: '5550002222', venueIds: ['uq-s3'] })).expect(201);
      const response = await post(
        userBody({
          username: 'Split',
          email: 'SPLIT@example.com',
          phone: '555 000 2222',
          venueIds: ['uq-s1', 'uq-s2', 'uq-s3'],
        }),
      );
      expectConflict(response, [
        ['username', 'uq-s1'],
        ['email', 'uq-s2'],
        ['phone', 'uq-s3'],
      ]);
    });
  });

  describe('expired, blocked and deleted users', () => {
    it("an expired user's username, email and phone are free again", async () => {
      const first = await givenUser(current(), {
        username: 'Carol',
        email: 'carol@example.com',
        phone: '+44 20 7946 0000',
        venueIds: ['uq-exp'],
      });
      await users().expire(first._id).expect(200);

      const second = await post(
        userBody({ username: 'carol', email: 'CAROL@example.com', phone: '+442079460000', venueIds: ['uq-exp'] }),
      ).expect(201);
      expect(second.body.data.username).toBe('carol');
      // The expired user keeps its data; only the keys are released.
      expect((await get(first._id).expect(200)).body.data).toMatchObject({
        status: 'expired',
        username: 'Carol',
        email: 'carol@example.com',
      });
      // And the new holder is protected again.
      expectConflict(await post(userBody({ username: 'CAROL', venueIds: ['uq-exp'] })), [['username', 'uq-exp']]);
    });

    it('a user expired by PUT frees its username too', async () => {
      const first = await givenUser(current(), { username: 'dave', venueIds: ['uq-exp-put'] });
      await put(first._id, { status: 'expired' }).expect(200);
      await post(userBody({ username: 'Dave', venueIds: ['uq-exp-put'] })).expect(201);
    });

    it("a blocked user's username is still taken", async () => {
      const first = await givenUser(current(), { username: 'erin', venueIds: ['uq-blocked'] });
      await put(first._id, { status: 'blocked' }).expect(200);
      expectConflict(await post(userBody({ username: 'ERIN', venueIds: ['uq-blocked'] })), [
        ['username', 'uq-blocked'],
      ]);
    });

    it("a deleted user's username is free", async () => {
      const first = await givenUser(current(), { username: 'frank', venueIds: ['uq-deleted'] });
      await users().remove(first._id).expect(200);
      await post(userBody({ username: 'Frank', venueIds: ['uq-deleted'] })).expect(201);
    });
  });

  describe('PUT', () => {
    it('changing the username into a clash is 409 and changes nothing', async () => {
      await givenUser(current(), { username: 'Grace', venueIds: ['uq-put-1'] });
      const other = await givenUser(current(), { username: 'heidi', venueIds: ['uq-put-1'] });
      const before = (await get(other._id).expect(200)).body.data;

      expectConflict(await put(other._id, { username: 'grace' }), [['username', 'uq-put-1']]);
      expect((await get(other._id).expect(200)).body.data).toEqual(before);
    });

    it('changing email or phone into a clash is 409', async () => {
      await givenUser(current(), { email: 'ivan@example.com', phone: '+7 495 000 0000', venueIds: ['uq-put-2'] });
      const other = await givenUser(current(), { venueIds: ['uq-put-2'] });
      expectConflict(await put(other._id, { email: 'IVAN@example.com' }), [['email', 'uq-put-2']]);
      expectConflict(await put(other._id, { phone: '+74950000000' }), [['phone', 'uq-put-2']]);
      expectConflict(await put(other._id, { email: 'Ivan@Example.com', phone: '+7 (495) 000-00-00' }), [
        ['email', 'uq-put-2'],
        ['phone', 'uq-put-2'],
      ]);
    });

    it('changing venueIds into a venue where the username is taken is 409 and changes nothing', async () => {
      await givenUser(current(), { username: 'judy', venueIds: ['uq-put-a'] });
      const mover = await givenUser(current(), { username: 'Judy', venueIds: ['uq-put-b'] });
      expectConflict(await put(mover._id, { venueIds: ['uq-put-b', 'uq-put-a'] }), [['username', 'uq-put-a']]);

      expect((await get(mover._id).expect(200)).body.data.venueIds).toEqual(['uq-put-b']);
      const rows = await current().dataSource.query('SELECT venue_id FROM hotspot_user_venues WHERE user_id = ?', [
        mover._id,
      ]);
      expect(rows).toEqual([{ venue_id: 'uq-put-b' }]);
    });

    it('a user never clashes with itself (same or re-cased values)', async () => {
      const user = await givenUser(current(), {
        username: 'kim',
        email: 'kim@example.com',
        phone: '5551234567',
        venueIds: ['uq-self'],
      });
      const response = await put(user._id, {
        username: 'KIM',
        email: 'Kim@Example.com',
        phone: '555 123 4567',
        venueIds: ['uq-self', 'uq-self-2'],
      }).expect(200);
      expect(response.body.data).toMatchObject({
        username: 'KIM',
        email: 'Kim@Example.com',
        venueIds: ['uq-self', 'uq-self-2'],
      });
      await put(user._id, {}).expect(200);
    });
  });

  describe('concurrent creates', () => {
    it('ten creates of one username in one venue: one 201, nine 409, never a 500, one row', async () => {
      const venueId = 'uq-race';
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          post(userBody({ username: i % 2 === 0 ? 'RaceUser' : 'raceuser', venueIds: [venueId] })),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.status === 409)) {
        expect(response.body).toEqual({
          success: false,
          message: 'Conflict',
          errors: [{ field: 'username', message: `username already used in venue ${venueId}` }],
        });
      }
      expect(
        await count(current(), 'SELECT COUNT(*) AS n FROM hotspot_users WHERE LOWER(username) = ?', ['raceuser']),
      ).toBe(1);
      expect(
        await count(
          current(),
          'SELECT COUNT(*) AS n FROM hotspot_user_venues WHERE venue_id = ? AND username_key = ?',
          [venueId, 'raceuser'],
        ),
      ).toBe(1);
      expect(
        await count(current(), 'SELECT COUNT(*) AS n FROM hotspot_user_venues WHERE venue_id = ?', [venueId]),
      ).toBe(1);
    });

    it('ten creates of one email across two venues: one 201, nine 409 naming both venues', async () => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          post({
            name: `Racer ${i}`,
            loginMethod: 'guest',
            email: i % 2 === 0 ? 'race@example.com' : 'RACE@example.com',
            venueIds: i % 2 === 0 ? ['uq-race-x', 'uq-race-y'] : ['uq-race-y', 'uq-race-x'],
          }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.status === 409)) {
        expectConflict(response, [
          ['email', 'uq-race-x'],
          ['email', 'uq-race-y'],
        ]);
      }
      expect(
        await count(current(), 'SELECT COUNT(*) AS n FROM hotspot_users WHERE LOWER(email) = ?', ['race@example.com']),
      ).toBe(1);
    });
  });
});
