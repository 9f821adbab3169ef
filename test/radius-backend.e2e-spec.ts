import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { PasswordHasher } from '../src/common/passwords/password-hasher.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { StaleSessionsSweeper } from '../src/radius/stale-sessions.sweeper.js';
import { DeviceEntity } from '../src/sessions/entities/device.entity.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { api, USERS_PATH } from './support/api-client.js';
import { givenGuest, givenUser, startSession, uniqueDevice } from './support/factories.js';
import { classUserId, givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { describeEachDatabase, startTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'secret-1';
const INVALID = { 'reply:Reply-Message': { value: 'Invalid username or password', do_xlat: false } };
const message = (text: string) => ({ 'reply:Reply-Message': { value: text, do_xlat: false } });

let acctSequence = 0;
/** A unique accounting id, as the stock acct_unique policy would compute one. */
const uniqueId = () => `acct-${++acctSequence}-${Date.now().toString(36)}`;

/**
 * The FreeRADIUS back end over HTTP, with bodies shaped as rlm_rest sends them: authorize decides
 * Accept or Reject in one round trip, accounting fills sessions and devices, post-auth records.
 */
describeEachDatabase('RADIUS back end', (current) => {
  let token: string;
  let nas: TestNas;

  beforeAll(async () => {
    token = await current().createToken({ permissions: ['radius'] });
    nas = await givenNas(current(), 'venue-a');
  });

  const authorize = (attributes: Record<string, string | number | string[]>, at: Pick<TestNas, 'name' | 'ip'> = nas) =>
    radiusCall(current(), token, 'authorize', at, rlmBody(attributes));
  const account = (attributes: Record<string, string | number | string[]>, at: Pick<TestNas, 'name' | 'ip'> = nas) =>
    radiusCall(current(), token, 'accounting', at, rlmBody(attributes));
  const sessionsOf = async (userId: string) =>
    (await current().dataSource.getRepository(SessionEntity).findBy({ userId })).sort((a, b) =>
      a.id.localeCompare(b.id),
    );
  const jobsOf = (userId: string) => current().dataSource.getRepository(UnauthJobEntity).findBy({ userId });

  describe('authorize', () => {
    it('accepts the right PAP password: Auth-Type Accept, Session-Timeout until expiresAt, the interim interval and Class', async () => {
      const expiresAt = new Date(Date.now() + 3_600_000);
      const user = await givenUser(current(), { expiresAt: expiresAt.toISOString() });
      const response = await authorize({ 'User-Name': user.username!.toUpperCase(), 'User-Password': PASSWORD });
      expect(response.status).toBe(200);
      expect(response.body['control:Auth-Type']).toBe('Accept');
      expect(response.body['reply:Session-Timeout']).toBeGreaterThan(3590);
      expect(response.body['reply:Session-Timeout']).toBeLessThanOrEqual(3600);
      expect(response.body['reply:Acct-Interim-Interval']).toBe(300);
      expect(response.body['reply:Class'].do_xlat).toBe(false);
      expect(classUserId(response.body['reply:Class'].value)).toBe(user._id);
    });

    it('caps Session-Timeout at RADIUS_MAX_SESSION_SECONDS for a user without expiresAt', async () => {
      const user = await givenUser(current());
      const response = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD }).expect(200);
      expect(response.body['reply:Session-Timeout']).toBe(86_400);
    });

    it('answers a wrong password and an unknown user with the same 401 message', async () => {
      const user = await givenUser(current());
      const wrong = await authorize({ 'User-Name': user.username!, 'User-Password': 'not-it' });
      const unknown = await authorize({ 'User-Name': 'nobody-at-all', 'User-Password': PASSWORD });
      expect([wrong.status, unknown.status]).toEqual([401, 401]);
      expect(wrong.body).toEqual(INVALID);
      expect(unknown.body).toEqual(INVALID);
    });

    it('names blocked, expired and another venue only after the right password', async () => {
      const blocked = await givenUser(current());
      await api(current()).users.update(blocked._id, { status: 'blocked' }).expect(200);
      const lapsed = await givenUser(current(), { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      await current()
        .dataSource.getRepository(HotspotUserEntity)
        .update({ id: lapsed._id }, { expiresAt: new Date(Date.now() - 1000) });
      const elsewhere = await givenUser(current(), { venueIds: ['venue-b'] });

      for (const [user, text] of [
        [blocked, 'Account blocked'],
        [lapsed, 'Account expired'],
        [elsewhere, 'Account not valid at this location'],
      ] as const) {
        const right = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD });
        expect({ status: right.status, body: right.body }).toEqual({ status: 401, body: message(text) });
        const wrong = await authorize({ 'User-Name': user.username!, 'User-Password': 'not-it' });
        expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: INVALID });
      }
    });

    it('checks a password changed after a login anew: the old one is refused at once, the new one accepted', async () => {
      const user = await givenUser(current());
      const login = (password: string) => authorize({ 'User-Name': user.username!, 'User-Password': password });
      // The second login finds the password verified already.
      await login(PASSWORD).expect(200);
      await login(PASSWORD).expect(200);
      const newHash = await current().app.get(PasswordHasher).hash('secret-2');
      await current().dataSource.getRepository(HotspotUserEntity).update({ id: user._id }, { passwordHash: newHash });

      const old = await login(PASSWORD);
      expect({ status: old.status, body: old.body }).toEqual({ status: 401, body: INVALID });
      const renewed = await login('secret-2').expect(200);
      expect(classUserId(renewed.body['reply:Class'].value)).toBe(user._id);
      expect((await login(PASSWORD)).status).toBe(401);
    });

    it("a verified password never vouches for the user's standing: blocked, expired or moved after a login is refused", async () => {
      const login = (user: { username: string | null }) =>
        authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD });
      const blocked = await givenUser(current());
      const lapsed = await givenUser(current(), { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      const moved = await givenUser(current());
      for (const user of [blocked, lapsed, moved]) await login(user).expect(200);

      await api(current()).users.update(blocked._id, { status: 'blocked' }).expect(200);
      await current()
        .dataSource.getRepository(HotspotUserEntity)
        .update({ id: lapsed._id }, { expiresAt: new Date(Date.now() - 1000) });
      await api(current())
        .users.update(moved._id, { venueIds: ['venue-b'] })
        .expect(200);
      for (const [user, text] of [
        [blocked, 'Account blocked'],
        [lapsed, 'Account expired'],
        [moved, 'Account not valid at this location'],
      ] as const) {
        const refused = await login(user);
        expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: message(text) });
      }

      await api(current()).users.update(blocked._id, { status: 'active' }).expect(200);
      await login(blocked).expect(200);
    });

    it('refuses CHAP with a message that the NAS must use PAP', async () => {
      const user = await givenUser(current());
      const response = await authorize({
        'User-Name': user.username!,
        'CHAP-Password': '0x0102',
        'CHAP-Challenge': '0x03',
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(message('Authentication method not supported: the NAS must use PAP'));
    });

    it('a request without User-Name is refused as an unknown user, whatever it carries', async () => {
      const response = await authorize({ 'User-Password': PASSWORD });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(message('Invalid username or password'));
    });

    it('MAC authentication: a guest registered with the MAC, without password or with the MAC repeated', async () => {
      const { macAddress } = uniqueDevice();
      const guest = await givenGuest(current(), { macAddress });
      const dashed = macAddress.replace(/:/g, '-').toLowerCase();
      const bare = await authorize({ 'User-Name': dashed, 'Calling-Station-Id': macAddress });
      expect(bare.status).toBe(200);
      expect(classUserId(bare.body['reply:Class'].value)).toBe(guest._id);
      await authorize({ 'User-Name': dashed, 'User-Password': dashed, 'Calling-Station-Id': dashed }).expect(200);

      const other = uniqueDevice().macAddress;
      const unknown = await authorize({ 'User-Name': other, 'Calling-Station-Id': other });
      expect({ status: unknown.status, body: unknown.body }).toEqual({
        status: 401,
        body: message('Device not registered'),
      });
    });

    it('repairs a non-ASCII password as rlm_rest encodes it (one code point per UTF-8 byte)', async () => {
      const user = await givenUser(current(), { password: 'şifre-ğü-josé' });
      const response = await authorize({ 'User-Name': user.username!, 'User-Password': 'şifre-ğü-josé' });
      expect(response.status).toBe(200);
      expect(classUserId(response.body['reply:Class'].value)).toBe(user._id);
    });

    it('refuses an unknown NAS (name or source address) with a generic message', async () => {
      const user = await givenUser(current());
      const attributes = { 'User-Name': user.username!, 'User-Password': PASSWORD };
      for (const stranger of [
        { name: 'no-such-nas', ip: nas.ip },
        { name: nas.name, ip: '192.0.2.1' },
      ]) {
        const response = await authorize(attributes, stranger);
        expect({ status: response.status, body: response.body }).toEqual({
          status: 401,
          body: message('Access denied'),
        });
      }
    });

    it('serves only the NASes of a venue-restricted radius token', async () => {
      const user = await givenUser(current());
      const restricted = await current().createToken({ permissions: ['radius'], venueIds: ['venue-b'] });
      const body = rlmBody({ 'User-Name': user.username!, 'User-Password': PASSWORD });
      const response = await radiusCall(current(), restricted, 'authorize', nas, body);
      expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: message('Access denied') });
    });

    it('a read token cannot call it', async () => {
      const read = await current().createToken({ permissions: ['read'] });
      await radiusCall(current(), read, 'authorize', nas, rlmBody({ 'User-Name': 'x', 'User-Password': 'y' })).expect(
        403,
      );
    });

    it.each([
      ['an array body', [1, 2]],
      ['an attribute that is no object', { 'User-Name': 'alice' }],
      ['a value longer than an attribute', { 'User-Name': { type: 'string', value: ['x'.repeat(600)] } }],
      ['too many values', { Class: { type: 'octets', value: Array.from({ length: 65 }, () => '0x00') } }],
      ['a value of the wrong type', { 'User-Name': { type: 'string', value: [{ nested: true }] } }],
    ])('answers 400 with the validation body for %s', async (_title, body) => {
      const response = await radiusCall(current(), token, 'authorize', nas, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, message: 'Validation error' });
      expect(response.body.errors.length).toBeGreaterThan(0);
    });

    it('control characters and numbers where text belongs are a reject, never a 500', async () => {
      const control = await authorize({ 'User-Name': 'ali\u0000ce', 'User-Password': 'x\u0007' });
      expect(control.status).toBe(401);
      const numbers = await radiusCall(current(), token, 'authorize', nas, {
        'User-Name': { type: 'string', value: [42] },
        'User-Password': { type: 'string', value: [7] },
      });
      expect(numbers.status).toBe(401);
    });
  });

  describe('accounting', () => {
    it('Start, Interim-Update and Stop make a session and a device, visible in the v1 API', async () => {
      const user = await givenUser(current());
      const { macAddress } = uniqueDevice();
      const id = uniqueId();
      const common = {
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': id,
        'Acct-Session-Id': '81a00001',
        'Calling-Station-Id': macAddress.replace(/:/g, '-'),
        'Called-Station-Id': 'lobby-ap',
        'Framed-IP-Address': '10.5.50.23',
      };
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      const afterStart = await api(current()).users.get(user._id).expect(200);
      expect(afterStart.body.data.devices).toEqual([expect.objectContaining({ macAddress, status: 'active' })]);

      await account({
        ...common,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 300,
        'Acct-Input-Octets': 5,
        'Acct-Input-Gigawords': 1,
        'Acct-Output-Octets': 1000,
      }).expect(204);
      const active = await current()
        .http.get(`${USERS_PATH}/${user._id}/sessions?status=active`)
        .set('Authorization', `Bearer ${current().adminToken}`)
        .expect(200);
      expect(active.body).toMatchObject({ success: true, pagination: { page: 1, limit: 20, total: 1, pages: 1 } });
      expect(active.body.data[0]).toMatchObject({
        venueId: 'venue-a',
        macAddress,
        ipAddress: '10.5.50.23',
        nas: nas.name,
        status: 'active',
        endedAt: null,
        sessionTime: 300,
        inputOctets: 2 ** 32 + 5,
        outputOctets: 1000,
        terminateCause: null,
      });

      await account({
        ...common,
        'Acct-Status-Type': 2,
        'Acct-Session-Time': 600,
        'Acct-Terminate-Cause': 'User-Request',
      }).expect(204);
      const ended = await current()
        .http.get(`${USERS_PATH}/${user._id}/sessions?status=ended`)
        .set('Authorization', `Bearer ${current().adminToken}`)
        .expect(200);
      expect(ended.body.data).toEqual([
        expect.objectContaining({
          status: 'stopped',
          sessionTime: 600,
          terminateCause: 'User-Request',
          endedAt: expect.any(String),
        }),
      ]);
    });

    it('Interim-Updates out of order never lower the counters nor bring back an older address; one without an address keeps the known one', async () => {
      const user = await givenUser(current());
      const { macAddress } = uniqueDevice();
      const common = {
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': macAddress,
      };
      const interim = (attributes: Record<string, string | number>) =>
        account({ ...common, 'Acct-Status-Type': 'Interim-Update', ...attributes }).expect(204);
      const stored = async () => {
        const [session] = await sessionsOf(user._id);
        return {
          status: session.status,
          sessionTime: session.sessionTime,
          inputOctets: session.inputOctets,
          outputOctets: session.outputOctets,
          ipAddress: session.ipAddress,
        };
      };
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      await interim({
        'Acct-Session-Time': 600,
        'Acct-Input-Octets': 7,
        'Acct-Input-Gigawords': 3,
        'Framed-IP-Address': '10.5.50.9',
      });
      const later = {
        status: 'active',
        sessionTime: 600,
        inputOctets: String(3 * 2 ** 32 + 7),
        outputOctets: null,
        ipAddress: '10.5.50.9',
      };
      expect(await stored()).toEqual(later);

      // Older packets arriving late: lower counters, and no address or an older one.
      await interim({ 'Acct-Session-Time': 300, 'Acct-Input-Octets': 4_000_000_000, 'Acct-Input-Gigawords': 2 });
      expect(await stored()).toEqual(later);
      await interim({ 'Acct-Session-Time': 450, 'Framed-IP-Address': '10.5.50.8' });
      expect(await stored()).toEqual(later);

      // Output octets for the first time, the session time and input octets higher, a new address.
      await interim({
        'Acct-Session-Time': 900,
        'Acct-Input-Octets': 8,
        'Acct-Input-Gigawords': 3,
        'Acct-Output-Octets': 5,
        'Framed-IP-Address': '10.5.50.10',
      });
      expect(await stored()).toEqual({
        status: 'active',
        sessionTime: 900,
        inputOctets: String(3 * 2 ** 32 + 8),
        outputOctets: '5',
        ipAddress: '10.5.50.10',
      });
      const device = await current()
        .dataSource.getRepository(DeviceEntity)
        .findOneByOrFail({ userId: user._id, macAddress });
      const [session] = await sessionsOf(user._id);
      expect(device).toMatchObject({ status: 'active', lastSeenAt: session.lastAccountingAt });
    });

    it('an address attribute that is no IP address is not kept', async () => {
      const user = await givenUser(current());
      await account({
        'Acct-Status-Type': 'Start',
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Framed-IP-Address': 'not-an-ip',
        'NAS-IP-Address': '10.0.0.300',
      }).expect(204);
      expect(await sessionsOf(user._id)).toEqual([
        expect.objectContaining({ status: 'active', ipAddress: null, nasIpAddress: null }),
      ]);
    });

    it('counters beyond 2^53 come back exact, and at the 64-bit cap stay integers however often sent', async () => {
      const user = await givenUser(current());
      const common = {
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': uniqueDevice().macAddress,
      };
      const interim = (attributes: Record<string, string | number>) =>
        account({ ...common, 'Acct-Status-Type': 'Interim-Update', ...attributes }).expect(204);
      const listed = async () => {
        const response = await current()
          .http.get(`${USERS_PATH}/${user._id}/sessions`)
          .set('Authorization', `Bearer ${current().adminToken}`)
          .expect(200);
        const [session] = response.body.data as Array<{ inputOctets: unknown; outputOctets: unknown }>;
        return [session.inputOctets, session.outputOctets];
      };
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      // 2^53 + 1, which a double cannot hold.
      await interim({ 'Acct-Input-Octets': 1, 'Acct-Input-Gigawords': 2 ** 21 });
      expect(await listed()).toEqual(['9007199254740993', null]);
      for (let packet = 0; packet < 3; packet += 1) {
        await interim({
          'Acct-Input-Octets': 4_294_967_295,
          'Acct-Input-Gigawords': 4_294_967_295,
          'Acct-Output-Octets': 4_294_967_295,
          'Acct-Output-Gigawords': 4_294_967_295,
        });
      }
      expect(await listed()).toEqual(['9223372036854775807', '9223372036854775807']);
      const [stored]: Array<{ input: string; output: string }> = await current().dataSource.query(
        'SELECT CAST(input_octets AS CHAR) AS input, CAST(output_octets AS CHAR) AS output FROM sessions WHERE user_id = ?',
        [user._id],
      );
      expect(stored).toEqual({ input: '9223372036854775807', output: '9223372036854775807' });
    });

    it('a session never starts before its user existed, whatever Acct-Session-Time says', async () => {
      const user = await givenUser(current());
      await account({
        'Acct-Status-Type': 'Interim-Update',
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Acct-Session-Time': 4_294_967_295,
      }).expect(204);
      const [session] = await sessionsOf(user._id);
      expect(session.startedAt.getTime()).toBe(new Date(user.createdAt).getTime());
      expect(session.sessionTime).toBe(2_147_483_647);
    });

    it('the same Start sent several times at once records one session', async () => {
      const user = await givenUser(current());
      const start = {
        'Acct-Status-Type': 'Start',
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': uniqueDevice().macAddress,
      };
      const responses = await Promise.all([1, 2, 3].map(() => account(start)));
      expect(responses.map((r) => r.status)).toEqual([204, 204, 204]);
      await account(start).expect(204);
      expect(await sessionsOf(user._id)).toHaveLength(1);
    });

    it('a Stop without Start creates the ended session; Class ties it to the user', async () => {
      const user = await givenUser(current());
      const accept = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD }).expect(200);
      await account({
        'Acct-Status-Type': 'Stop',
        'User-Name': 'whatever-the-nas-says',
        Class: accept.body['reply:Class'].value,
        'Acct-Unique-Session-Id': uniqueId(),
        'Acct-Session-Time': 42,
      }).expect(204);
      expect(await sessionsOf(user._id)).toEqual([expect.objectContaining({ status: 'stopped', sessionTime: 42 })]);
    });

    it('drops a packet of an unknown user with 204', async () => {
      await account({
        'Acct-Status-Type': 'Start',
        'User-Name': 'nobody-here',
        'Acct-Unique-Session-Id': uniqueId(),
      }).expect(204);
    });

    it('refuses an unknown NAS with 403, so FreeRADIUS does not acknowledge it', async () => {
      const response = await account(
        { 'Acct-Status-Type': 'Start', 'User-Name': 'x', 'Acct-Unique-Session-Id': uniqueId() },
        { name: 'stranger', ip: nas.ip },
      );
      expect(response.status).toBe(403);
    });

    it('Accounting-On ends every open session of that NAS, and only of that NAS', async () => {
      const other = await givenNas(current(), 'venue-a');
      const user = await givenUser(current());
      const start = (at: TestNas) =>
        account(
          { 'Acct-Status-Type': 'Start', 'User-Name': user.username!, 'Acct-Unique-Session-Id': uniqueId() },
          at,
        ).expect(204);
      await start(nas);
      await start(other);
      await account({ 'Acct-Status-Type': 'Accounting-On', 'NAS-IP-Address': '10.99.0.1' }).expect(204);
      const sessions = await sessionsOf(user._id);
      expect(sessions.map((s) => [s.nasClientId, s.status, s.terminateCause]).sort()).toEqual(
        [
          [nas.id, 'stopped', 'NAS-Reboot'],
          [other.id, 'active', null],
        ].sort(),
      );
    });

    it('Accounting-On from one host of a NAS registered as a network ends only the sessions from that host', async () => {
      const user = await givenUser(current());
      const neighbour = { name: nas.name, ip: nas.ip.replace(/\.7$/, '.8') };
      const start = (at: Pick<TestNas, 'name' | 'ip'>) =>
        account(
          { 'Acct-Status-Type': 'Start', 'User-Name': user.username!, 'Acct-Unique-Session-Id': uniqueId() },
          at,
        ).expect(204);
      await start(nas);
      await start(neighbour);
      await account({ 'Acct-Status-Type': 'Accounting-On' }, neighbour).expect(204);
      const sessions = await sessionsOf(user._id);
      expect(sessions.map((s) => [s.nasSourceIp, s.status]).sort()).toEqual(
        [
          [nas.ip, 'active'],
          [neighbour.ip, 'stopped'],
        ].sort(),
      );
    });

    it("a blocked user's Interim-Update ends that session with one enforcement job, even when retransmitted", async () => {
      const user = await givenUser(current());
      const interim = {
        'Acct-Status-Type': 'Interim-Update',
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': uniqueDevice().macAddress,
      };
      await api(current()).users.update(user._id, { status: 'blocked' }).expect(200);
      const jobsBefore = (await jobsOf(user._id)).length;
      await account(interim).expect(204);
      await account(interim).expect(204);

      const [session] = await sessionsOf(user._id);
      expect(session).toMatchObject({ status: 'expired', terminateCause: 'enforcement', endedAt: expect.any(Date) });
      const jobs = (await jobsOf(user._id)).filter((job) => job.reason === 'enforcement');
      expect(jobs).toHaveLength(1);
      expect(jobs[0].sessions.map((s) => s.id)).toEqual([session.id]);
      expect((await jobsOf(user._id)).length).toBe(jobsBefore + 1);
    });

    it('an Interim-Update after the expiresAt of an active user, before the sweep ran, ends the session with an enforcement job', async () => {
      const user = await givenUser(current());
      const common = { 'User-Name': user.username!, 'Acct-Unique-Session-Id': uniqueId() };
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      // Lapsed but still 'active' in the table: what the expiry sweep would find on its next round.
      await current()
        .dataSource.getRepository(HotspotUserEntity)
        .update({ id: user._id }, { expiresAt: new Date(Date.now() - 1000) });
      await account({ ...common, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 60 }).expect(204);

      const [session] = await sessionsOf(user._id);
      expect(session).toMatchObject({ status: 'expired', terminateCause: 'enforcement', sessionTime: 60 });
      const jobs = (await jobsOf(user._id)).filter((job) => job.reason === 'enforcement');
      expect(jobs.map((job) => job.sessions.map((s) => s.id))).toEqual([[session.id]]);
    });

    /**
     * A user of venue-a and venue-b logged in at the venue-a NAS, its session started and updated
     * once (sessionTime 30) on the common path; `common` holds the attributes every later packet repeats.
     */
    async function onlineInTwoVenues() {
      const user = await givenUser(current(), { venueIds: ['venue-a', 'venue-b'] });
      const accept = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD }).expect(200);
      const common = {
        Class: accept.body['reply:Class'].value,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': uniqueDevice().macAddress,
      };
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      await account({ ...common, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 30 }).expect(204);
      expect(await sessionsOf(user._id)).toEqual([expect.objectContaining({ status: 'active', sessionTime: 30 })]);
      return { user, common };
    }

    it("a user moved out of the NAS's venue while online: the PUT ends that session, later Interim-Updates add counters to it while its job is under way", async () => {
      const { user, common } = await onlineInTwoVenues();

      await api(current())
        .users.update(user._id, { venueIds: ['venue-b'] })
        .expect(200);
      const [ended] = await sessionsOf(user._id);
      expect(ended).toMatchObject({ status: 'expired', endedAt: expect.any(Date) });
      await account({ ...common, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 60 }).expect(204);

      expect(await sessionsOf(user._id)).toEqual([expect.objectContaining({ status: 'expired', sessionTime: 60 })]);
      expect((await jobsOf(user._id)).map((job) => [job.reason, job.sessions.map((s) => s.id)])).toEqual([
        ['venue-removed', [ended.id]],
      ]);
    });

    it("an Interim-Update of an active session whose user is no longer in the session's venue ends it with an enforcement job", async () => {
      const { user, common } = await onlineInTwoVenues();
      // The venue row gone with the session still active: what a packet handled alongside the PUT can leave.
      await current().dataSource.query('DELETE FROM hotspot_user_venues WHERE user_id = ? AND venue_id = ?', [
        user._id,
        'venue-a',
      ]);

      await account({ ...common, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 60 }).expect(204);
      await account({ ...common, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 90 }).expect(204);

      const [session] = await sessionsOf(user._id);
      expect(session).toMatchObject({ status: 'expired', terminateCause: 'enforcement', sessionTime: 90 });
      const jobs = (await jobsOf(user._id)).filter((job) => job.reason === 'enforcement');
      expect(jobs.map((job) => job.sessions.map((s) => s.id))).toEqual([[session.id]]);
    });

    it("a Start whose Class names a user of another venue only is enforced, never an active session in this NAS's venue", async () => {
      const user = await givenUser(current(), { venueIds: ['venue-b'] });
      const elsewhere = await givenNas(current(), 'venue-b');
      const accept = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD }, elsewhere).expect(200);

      await account({
        'Acct-Status-Type': 'Start',
        Class: accept.body['reply:Class'].value,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': uniqueDevice().macAddress,
      }).expect(204);

      const sessions = await sessionsOf(user._id);
      expect(sessions).toEqual([
        expect.objectContaining({ venueId: 'venue-a', status: 'expired', terminateCause: 'enforcement' }),
      ]);
      const jobs = (await jobsOf(user._id)).filter((job) => job.reason === 'enforcement');
      expect(jobs.map((job) => job.sessions.map((s) => s.id))).toEqual([[sessions[0].id]]);
    });

    it('an Interim-Update of a known session that names a new device records the device', async () => {
      const user = await givenUser(current());
      const accept = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD }).expect(200);
      const common = { Class: accept.body['reply:Class'].value, 'Acct-Unique-Session-Id': uniqueId() };
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      expect(await current().dataSource.getRepository(DeviceEntity).findBy({ userId: user._id })).toEqual([]);

      const { macAddress } = uniqueDevice();
      await account({
        ...common,
        'Acct-Status-Type': 'Interim-Update',
        'Calling-Station-Id': macAddress,
        'Acct-Input-Octets': 700,
      }).expect(204);
      const [session] = await sessionsOf(user._id);
      expect(session).toMatchObject({ status: 'active', inputOctets: '700' });
      const devices = await current().dataSource.getRepository(DeviceEntity).findBy({ userId: user._id });
      expect(devices).toEqual([expect.objectContaining({ macAddress, status: 'active' })]);
    });

    /** A user who logged in (its Accept's Class in hand) and was then deleted, and an Interim-Update naming it. */
    async function deletedUsersInterim() {
      const user = await givenUser(current());
      const accept = await authorize({ 'User-Name': user.username!, 'User-Password': PASSWORD }).expect(200);
      await api(current()).users.remove(user._id).expect(200);
      const interim = {
        'Acct-Status-Type': 'Interim-Update',
        Class: accept.body['reply:Class'].value,
        'Acct-Unique-Session-Id': uniqueId(),
      };
      return { user, interim };
    }

    it("a deleted user's Interim-Update (tied by Class) writes one enforcement job", async () => {
      const { user, interim } = await deletedUsersInterim();
      await account(interim).expect(204);
      await account(interim).expect(204);
      expect((await jobsOf(user._id)).filter((job) => job.reason === 'enforcement')).toHaveLength(1);
    });

    it('a deleted user still reported online after its enforcement job failed gets another job, once per failure', async () => {
      const { user, interim } = await deletedUsersInterim();
      await account(interim).expect(204);
      const enforcement = async () =>
        (await jobsOf(user._id)).filter((job) => job.reason === 'enforcement').map((job) => job.status);
      await current().dataSource.query("UPDATE unauth_jobs SET status = 'failed' WHERE user_id = ?", [user._id]);

      await Promise.all(Array.from({ length: 4 }, () => account(interim).expect(204)));
      expect((await enforcement()).sort()).toEqual(['failed', 'pending']);
      await account(interim).expect(204);
      expect(await enforcement()).toHaveLength(2);
    });

    it("a deleted user's Interim-Update retransmitted many times at once writes one enforcement job", async () => {
      const { user, interim } = await deletedUsersInterim();
      const copies = await Promise.all(Array.from({ length: 8 }, () => account(interim)));
      expect(copies.map((response) => response.status)).toEqual(Array(8).fill(204));
      expect((await jobsOf(user._id)).filter((job) => job.reason === 'enforcement')).toHaveLength(1);
    });

    /** A user online at the NAS: Start, then an Interim-Update at 30 s; `interim(t)` reports it at t seconds. */
    async function onlineAtTheNas() {
      const user = await givenUser(current());
      const common = { 'User-Name': user.username!, 'Acct-Unique-Session-Id': uniqueId() };
      const interim = (sessionTime: number) =>
        account({ ...common, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': sessionTime }).expect(204);
      await account({ ...common, 'Acct-Status-Type': 'Start' }).expect(204);
      await interim(30);
      const [session] = await sessionsOf(user._id);
      return { user, session, interim };
    }

    it('a blocked user still reported online after its Disconnect failed gets a new enforcement job, once per job', async () => {
      const { user, session, interim } = await onlineAtTheNas();
      await api(current()).users.update(user._id, { status: 'blocked' }).expect(200);
      // While the block's job is under way, an Interim-Update only adds counters.
      await interim(60);
      expect((await jobsOf(user._id)).map((job) => [job.reason, job.status])).toEqual([['blocked', 'pending']]);
      // The Disconnect failed for good (no answer, or a NAK): the NAS still has the session.
      await current().dataSource.query("UPDATE unauth_jobs SET status = 'failed' WHERE user_id = ?", [user._id]);

      await interim(90);
      await interim(90); // retransmitted
      await interim(75); // reordered

      const enforcement = (await jobsOf(user._id)).filter((job) => job.reason === 'enforcement');
      expect(enforcement.map((job) => [job.status, job.sessions.map((s) => s.id)])).toEqual([
        ['pending', [session.id]],
      ]);
      expect(await sessionsOf(user._id)).toEqual([
        expect.objectContaining({ id: session.id, status: 'expired', sessionTime: 90 }),
      ]);
      // Failed again: the next report that shows the session going on writes the next job.
      await current().dataSource.query("UPDATE unauth_jobs SET status = 'failed' WHERE user_id = ?", [user._id]);
      await interim(120);
      expect((await jobsOf(user._id)).filter((job) => job.reason === 'enforcement')).toHaveLength(2);
    });

    it('a session the stale sweep ended is online again when the NAS reports it going on, so a block reaches it', async () => {
      const { user, session, interim } = await onlineAtTheNas();
      await current()
        .dataSource.getRepository(SessionEntity)
        .update({ id: session.id }, { lastAccountingAt: new Date(Date.now() - 3_600_000) });
      await current().app.get(StaleSessionsSweeper).sweep();
      expect(await sessionsOf(user._id)).toEqual([
        expect.objectContaining({ status: 'stopped', terminateCause: 'stale' }),
      ]);

      await interim(30); // a retransmission shows nothing new
      expect(await sessionsOf(user._id)).toEqual([expect.objectContaining({ status: 'stopped' })]);
      await interim(60);
      expect(await sessionsOf(user._id)).toEqual([
        expect.objectContaining({ status: 'active', endedAt: null, terminateCause: null, sessionTime: 60 }),
      ]);

      await api(current()).users.update(user._id, { status: 'blocked' }).expect(200);
      expect((await jobsOf(user._id)).map((job) => [job.reason, job.sessions.map((s) => s.id)])).toEqual([
        ['blocked', [session.id]],
      ]);
    });

    it('the stale sweep ends accounting sessions without a recent update, never CLI sessions', async () => {
      const user = await givenUser(current());
      await account({
        'Acct-Status-Type': 'Start',
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
      }).expect(204);
      await startSession(current(), { userId: user._id, venueId: 'venue-a', ...uniqueDevice() });
      await current()
        .dataSource.getRepository(SessionEntity)
        .update({ userId: user._id, nasClientId: nas.id }, { lastAccountingAt: new Date(Date.now() - 3_600_000) });
      expect(await current().app.get(StaleSessionsSweeper).sweep()).toBeGreaterThanOrEqual(1);
      const sessions = await sessionsOf(user._id);
      expect(
        sessions.map((s) => [s.nasClientId === null ? 'cli' : 'radius', s.status, s.terminateCause]).sort(),
      ).toEqual([
        ['cli', 'active', null],
        ['radius', 'stopped', 'stale'],
      ]);
    });

    it('the list finds a user by a device first seen through accounting', async () => {
      const user = await givenUser(current());
      const { macAddress } = uniqueDevice();
      await account({
        'Acct-Status-Type': 'Start',
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueId(),
        'Calling-Station-Id': macAddress,
      }).expect(204);
      const list = await api(current())
        .users.list({ venueId: 'venue-a', macAddress: macAddress.toLowerCase() })
        .expect(200);
      expect(list.body.data.map((found) => found._id)).toEqual([user._id]);
    });
  });

  describe('post-auth', () => {
    it('records the outcome and answers 204', async () => {
      const { macAddress } = uniqueDevice();
      const username = `attempt-${Date.now().toString(36)}`;
      await radiusCall(
        current(),
        token,
        'post-auth',
        nas,
        rlmBody({ 'User-Name': username, 'Calling-Station-Id': macAddress }),
        {
          'X-Radius-Result': 'Access-Reject',
        },
      ).expect(204);
      const rows = await current().dataSource.getRepository(LoginAttemptEntity).findBy({ username });
      expect(rows).toEqual([
        expect.objectContaining({ outcome: 'reject', nasClientId: nas.id, venueId: 'venue-a', macAddress }),
      ]);
    });
  });

  describe('GET /hotspot-users/:id/sessions', () => {
    it('404 for an unknown user, 400 for a bad status or limit', async () => {
      const get = (path: string) => current().http.get(path).set('Authorization', `Bearer ${current().adminToken}`);
      await get(`${USERS_PATH}/no-such-user/sessions`).expect(404);
      const user = await givenUser(current());
      const badStatus = await get(`${USERS_PATH}/${user._id}/sessions?status=stopped`).expect(400);
      expect(badStatus.body.errors).toEqual([{ field: 'status', message: 'status must be one of active, ended' }]);
      await get(`${USERS_PATH}/${user._id}/sessions?limit=101`).expect(400);
      await get(`${USERS_PATH}/${user._id}/sessions?venueId=venue-b`).expect(404);
    });
  });
});

describe.each(databaseKinds())('RADIUS session limit [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let token: string;
  let nas: TestNas;

  beforeAll(async () => {
    testApp = await startTestApp(kind, { RADIUS_MAX_SESSIONS_PER_USER: '1' });
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, 'venue-a');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const call = (section: 'authorize' | 'accounting', attributes: Record<string, string>) =>
    radiusCall(testApp, token, section, nas, rlmBody(attributes));
  const setLastAccounting = (userId: string, changes: Partial<SessionEntity>) =>
    testApp.dataSource.getRepository(SessionEntity).update({ userId }, changes);

  it('counts the active sessions with a recent accounting update, for PAP and MAC logins alike', async () => {
    const user = await givenUser(testApp);
    const { macAddress } = uniqueDevice();
    const guest = await givenGuest(testApp, { macAddress });
    const logins: Array<{ userId: string; attributes: Record<string, string> }> = [
      { userId: user._id, attributes: { 'User-Name': user.username!, 'User-Password': PASSWORD } },
      { userId: guest._id, attributes: { 'User-Name': macAddress, 'Calling-Station-Id': macAddress } },
    ];
    for (const { userId, attributes } of logins) {
      await call('authorize', attributes).expect(200);
      const id = uniqueId();
      await call('accounting', { ...attributes, 'Acct-Status-Type': 'Start', 'Acct-Unique-Session-Id': id }).expect(
        204,
      );
      const refused = await call('authorize', attributes);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 401,
        body: message('Too many simultaneous sessions'),
      });

      // Stale (no update within RADIUS_STALE_AFTER_SECONDS) or ended sessions do not count.
      await setLastAccounting(userId, { lastAccountingAt: new Date(Date.now() - 3_600_000) });
      await call('authorize', attributes).expect(200);
      await setLastAccounting(userId, { lastAccountingAt: new Date(), status: 'stopped' });
      await call('authorize', attributes).expect(200);
    }
  });
});

describe.each(databaseKinds())('RADIUS login log line [%s]', (kind: DatabaseKind) => {
  const lines: string[] = [];
  let testApp: TestApp;
  let token: string;
  let nas: TestNas;

  beforeAll(async () => {
    testApp = await startTestApp(
      kind,
      { LOG_LEVEL: 'info' },
      { logDestination: { write: (line) => void lines.push(line) } },
    );
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, 'venue-a');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const loginLines = () =>
    lines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg.startsWith('RADIUS login'));

  it('names the username as sent and the reason (and the user once accepted), never the password', async () => {
    const user = await givenUser(testApp);
    const wrong = 'not-the-password-4711';
    await radiusCall(
      testApp,
      token,
      'authorize',
      nas,
      rlmBody({ 'User-Name': user.username!, 'User-Password': wrong }),
    ).expect(401);
    await radiusCall(
      testApp,
      token,
      'authorize',
      nas,
      rlmBody({ 'User-Name': user.username!, 'User-Password': PASSWORD }),
    ).expect(200);
    const [refused, accepted] = loginLines().slice(-2);
    expect(refused.msg).toBe(
      `RADIUS login rejected at NAS ${nas.name} (venue venue-a) for username "${user.username}": invalidCredentials`,
    );
    expect(accepted.msg).toBe(
      `RADIUS login accepted at NAS ${nas.name} (venue venue-a) for username "${user.username}": accepted, user ${user._id}`,
    );
    expect(lines.join('\n')).not.toContain(wrong);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('quotes a hostile username and cuts it short', async () => {
    // As long as RADIUS allows (253 octets), with quotes and a backslash; control characters never get this far.
    const hostile = `evil", "forged\\${'x'.repeat(238)}`;
    await radiusCall(
      testApp,
      token,
      'authorize',
      nas,
      rlmBody({ 'User-Name': hostile, 'User-Password': 'whatever' }),
    ).expect(401);
    const [line] = loginLines().slice(-1);
    expect(line.msg).toContain(`for username ${JSON.stringify(hostile.slice(0, 128))}:`);
    expect(line.msg).not.toContain('x'.repeat(129));
  });
});
