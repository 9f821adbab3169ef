import type { AddressInfo } from 'node:net';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { api, USERS_PATH } from './support/api-client.js';
import { databaseKinds } from './support/databases.js';
import { givenGuest, givenUser, uniqueDevice } from './support/factories.js';
import { radclient, radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-e2e-nas';
const PASSWORD = 'secret-1';

/**
 * The service behind a real FreeRADIUS (configured by the same generator as `hotspot radius-config`),
 * driven by radtest and radclient as a NAS would: what reaches the NAS, and what the v1 API then shows.
 */
for (const kind of databaseKinds()) {
  describe(`the service behind a real FreeRADIUS [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;
    let nasId: string;

    beforeAll(async () => {
      app = await startTestApp(kind);
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      const nas = await app.app
        .get(NasService)
        .add({ venueId: 'venue-a', name: 'e2e-nas', ipAddress: '127.0.0.1', secret: SECRET });
      nasId = nas.id;
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'e2e-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
    });

    const auth = (attributes: Record<string, string | number>) =>
      radclient(server.authPort, 'auth', SECRET, attributes);
    const acct = (attributes: Record<string, string | number>) =>
      radclient(server.acctPort, 'acct', SECRET, attributes);
    const sessionsOf = (userId: string) => app.dataSource.getRepository(SessionEntity).findBy({ userId });
    const rejectOf = (message: string) => ({ type: 'Access-Reject', attributes: { 'Reply-Message': [message] } });

    it('PAP: Access-Accept with the Session-Timeout until expiresAt, the interim interval and Class', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app, { expiresAt: new Date(Date.now() + 7_200_000).toISOString() });
        const reply = await radtest(server.authPort, SECRET, user.username!, PASSWORD);
        expect(reply.type).toBe('Access-Accept');
        const timeout = Number(reply.attributes['Session-Timeout'][0]);
        expect(timeout).toBeGreaterThan(7100);
        expect(timeout).toBeLessThanOrEqual(7200);
        expect(reply.attributes['Acct-Interim-Interval']).toEqual(['300']);
        expect(reply.attributes.Class).toEqual([`0x${Buffer.from(`hsp:${user._id}`).toString('hex')}`]);
      });
    });

    it('validFor: the first login through FreeRADIUS starts the validity (Session-Timeout and expiresAt), the second moves nothing', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app, { validFor: 86_400 });
        const first = await radtest(server.authPort, SECRET, user.username!, PASSWORD);
        expect(first.type).toBe('Access-Accept');
        const timeout = Number(first.attributes['Session-Timeout'][0]);
        expect(timeout).toBeGreaterThan(86_300);
        expect(timeout).toBeLessThanOrEqual(86_400);
        const started = (await api(app).users.get(user._id).expect(200)).body.data;
        expect(started.firstLoginAt).not.toBeNull();
        expect(Date.parse(started.expiresAt!) - Date.parse(started.firstLoginAt!)).toBe(86_400_000);
        expect((await radtest(server.authPort, SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
        const again = (await api(app).users.get(user._id).expect(200)).body.data;
        expect([again.firstLoginAt, again.expiresAt]).toEqual([started.firstLoginAt, started.expiresAt]);
      });
    });

    it('wrong password, unknown user, blocked, expired, wrong venue: Access-Reject with its message only', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        const blocked = await givenUser(app);
        await api(app).users.update(blocked._id, { status: 'blocked' }).expect(200);
        const elsewhere = await givenUser(app, { venueIds: ['venue-b'] });
        const expired = await givenUser(app, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
        // expiresAt passed, the expiry sweep (off in tests) not yet there.
        await app.dataSource
          .getRepository(HotspotUserEntity)
          .update({ id: expired._id }, { expiresAt: new Date(Date.now() - 1000) });
        expect(await radtest(server.authPort, SECRET, user.username!, 'wrong')).toEqual(
          rejectOf('Invalid username or password'),
        );
        expect(await radtest(server.authPort, SECRET, 'nobody-at-all', PASSWORD)).toEqual(
          rejectOf('Invalid username or password'),
        );
        expect(await radtest(server.authPort, SECRET, blocked.username!, PASSWORD)).toEqual(
          rejectOf('Account blocked'),
        );
        expect(await radtest(server.authPort, SECRET, expired.username!, PASSWORD)).toEqual(
          rejectOf('Account expired'),
        );
        expect(await radtest(server.authPort, SECRET, elsewhere.username!, PASSWORD)).toEqual(
          rejectOf('Account not valid at this location'),
        );
      });
    });

    it('post-auth records each outcome FreeRADIUS sent: accept, then reject', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        expect((await radtest(server.authPort, SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
        expect((await radtest(server.authPort, SECRET, user.username!, 'wrong')).type).toBe('Access-Reject');
        const attempts = await app.dataSource
          .getRepository(LoginAttemptEntity)
          .find({ where: { username: user.username! }, order: { createdAt: 'ASC', id: 'ASC' } });
        expect(attempts.map((attempt) => attempt.outcome)).toEqual(['accept', 'reject']);
        expect(attempts.every((attempt) => attempt.nasClientId === nasId)).toBe(true);
      });
    });

    it('CHAP: Access-Reject saying the NAS must use PAP', async () => {
      const user = await givenUser(app);
      const reply = await auth({ 'User-Name': user.username!, 'CHAP-Password': PASSWORD });
      expect(reply).toEqual(rejectOf('Authentication method not supported: the NAS must use PAP'));
    });

    it('MAC authentication of a guest', async () => {
      const { macAddress } = uniqueDevice();
      await givenGuest(app, { macAddress });
      const dashed = macAddress.replace(/:/g, '-');
      const reply = await auth({ 'User-Name': dashed, 'User-Password': dashed, 'Calling-Station-Id': dashed });
      expect(reply.type).toBe('Access-Accept');
    });

    it('a non-ASCII password survives FreeRADIUS (its JSON mangles it; the service repairs it)', async () => {
      const user = await givenUser(app, { password: 'şifre-josé' });
      expect((await radtest(server.authPort, SECRET, user.username!, 'şifre-josé')).type).toBe('Access-Accept');
    });

    it('Start, a retransmitted Start, Interim-Update and Stop: one session and the device in the v1 API', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        const { macAddress } = uniqueDevice();
        const base = {
          'User-Name': user.username!,
          'Acct-Session-Id': `e2e-${Date.now().toString(36)}`,
          'Calling-Station-Id': macAddress,
          'Framed-IP-Address': '10.5.50.23',
          'NAS-IP-Address': '127.0.0.1',
        };
        for (let i = 0; i < 2; i += 1)
          expect((await acct({ ...base, 'Acct-Status-Type': 'Start' })).type).toBe('Accounting-Response');
        expect(
          (
            await acct({
              ...base,
              'Acct-Status-Type': 'Interim-Update',
              'Acct-Session-Time': 60,
              'Acct-Output-Octets': 4096,
            })
          ).type,
        ).toBe('Accounting-Response');
        const got = await api(app).users.get(user._id).expect(200);
        expect(got.body.data.devices).toEqual([expect.objectContaining({ macAddress, status: 'active' })]);
        const listed = await app.http
          .get(`${USERS_PATH}/${user._id}/sessions`)
          .set('Authorization', `Bearer ${app.adminToken}`)
          .expect(200);
        expect(listed.body.data).toEqual([
          expect.objectContaining({
            status: 'active',
            nas: 'e2e-nas',
            ipAddress: '10.5.50.23',
            sessionTime: 60,
            outputOctets: 4096,
          }),
        ]);
        await acct({
          ...base,
          'Acct-Status-Type': 'Stop',
          'Acct-Session-Time': 90,
          'Acct-Terminate-Cause': 'User-Request',
        });
        expect(await sessionsOf(user._id)).toEqual([
          expect.objectContaining({ status: 'stopped', terminateCause: 'User-Request' }),
        ]);
      });
    });

    it("Accounting-On closes the NAS's open sessions", async () => {
      const user = await givenUser(app);
      await acct({
        'Acct-Status-Type': 'Start',
        'User-Name': user.username!,
        'Acct-Session-Id': `on-${Date.now()}`,
        'NAS-IP-Address': '127.0.0.1',
      });
      await acct({ 'Acct-Status-Type': 'Accounting-On', 'NAS-IP-Address': '127.0.0.1', 'Acct-Session-Id': '0' });
      expect(await sessionsOf(user._id)).toEqual([
        expect.objectContaining({ nasClientId: nasId, status: 'stopped', terminateCause: 'NAS-Reboot' }),
      ]);
    });

    it("a blocked user's Interim-Update ends the session with an enforcement job", async () => {
      const user = await givenUser(app);
      await api(app).users.update(user._id, { status: 'blocked' }).expect(200);
      const interim = {
        'Acct-Status-Type': 'Interim-Update',
        'User-Name': user.username!,
        'Acct-Session-Id': `enf-${Date.now()}`,
        'NAS-IP-Address': '127.0.0.1',
      };
      expect((await acct(interim)).type).toBe('Accounting-Response');
      await acct(interim);
      expect(await sessionsOf(user._id)).toEqual([
        expect.objectContaining({ status: 'expired', terminateCause: 'enforcement' }),
      ]);
      const jobs = await app.dataSource
        .getRepository(UnauthJobEntity)
        .findBy({ userId: user._id, reason: 'enforcement' });
      expect(jobs).toHaveLength(1);
    });

    it('a client FreeRADIUS knows but the registry does not: Access-Denied for logins, no Accounting-Response', async () => {
      await app.app.get(NasService).remove('e2e-nas');
      try {
        const user = await givenUser(app);
        expect(await radtest(server.authPort, SECRET, user.username!, PASSWORD)).toEqual(rejectOf('Access denied'));
        const reply = await radclient(
          server.acctPort,
          'acct',
          SECRET,
          { 'Acct-Status-Type': 'Start', 'User-Name': user.username!, 'Acct-Session-Id': 'x' },
          2,
        );
        expect(reply.type).toBeNull();
      } finally {
        await app.app
          .get(NasService)
          .add({ venueId: 'venue-a', name: 'e2e-nas', ipAddress: '127.0.0.1', secret: SECRET });
      }
    });
  });
}
