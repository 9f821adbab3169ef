import type { AddressInfo } from 'node:net';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { encodeClass } from '../src/radius/radius.rules.js';
import { api } from './support/api-client.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { databaseKinds } from './support/databases.js';
import { givenGuest, givenUser, uniqueDevice } from './support/factories.js';
import { radclient, radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-logins-nas';
const PASSWORD = 'secret-1';
const VENUE = 'venue-logins';

/**
 * "Why was this guest refused": logins through a real FreeRADIUS (from the generated configuration)
 * leave one login attempt each, with the user of the NAS's venue it names and the reason authorize
 * decided; `hotspot logins` lists them.
 */
for (const kind of databaseKinds()) {
  describe(`login attempts [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;
    let nasId: string;

    beforeAll(async () => {
      app = await startTestApp(kind);
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      const nas = await app.app
        .get(NasService)
        .add({ venueId: VENUE, name: 'logins-nas', ipAddress: '127.0.0.1', secret: SECRET });
      nasId = nas.id;
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'logins-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
    });

    const attemptsOf = (username: string) =>
      app.dataSource.getRepository(LoginAttemptEntity).find({ where: { username }, order: { createdAt: 'ASC' } });
    const logins = (...argv: string[]) => runCli(contextRuntime(app.app), 'logins', ...argv);
    const recorded = (attempt: LoginAttemptEntity) => ({
      outcome: attempt.outcome,
      userId: attempt.userId,
      reason: attempt.reason,
      venueId: attempt.venueId,
      nasClientId: attempt.nasClientId,
    });
    const expected = (outcome: string, userId: string | null, reason: string | null) => ({
      outcome,
      userId,
      reason,
      venueId: VENUE,
      nasClientId: nasId,
    });

    describe('through FreeRADIUS', () => {
      let user: { _id: string; username?: string | null };
      let blocked: typeof user;
      let expired: typeof user;
      let elsewhere: typeof user;
      let guest: typeof user;
      const unknown = `nobody-${Date.now().toString(36)}`;
      const { macAddress } = uniqueDevice();
      const dashed = macAddress.replace(/:/g, '-').toLowerCase();
      let startedAt: Date;
      let beforeLast: Date;

      beforeAll(async () => {
        user = await givenUser(app, { venueIds: [VENUE] });
        blocked = await givenUser(app, { venueIds: [VENUE] });
        await api(app).users.update(blocked._id, { status: 'blocked' }).expect(200);
        expired = await givenUser(app, {
          venueIds: [VENUE],
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        });
        // expiresAt passed, the expiry sweep (off in tests) not yet there: the name is still held.
        await app.dataSource
          .getRepository(HotspotUserEntity)
          .update({ id: expired._id }, { expiresAt: new Date(Date.now() - 1000) });
        elsewhere = await givenUser(app, { venueIds: ['venue-b'] });
        guest = await givenGuest(app, { venueIds: [VENUE], macAddress });

        startedAt = new Date();
        await server.explainFailures(async () => {
          expect((await radtest(server.authPort, SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
          expect((await radtest(server.authPort, SECRET, user.username!, 'wrong')).type).toBe('Access-Reject');
          expect((await radtest(server.authPort, SECRET, unknown, PASSWORD)).type).toBe('Access-Reject');
          expect((await radtest(server.authPort, SECRET, blocked.username!, PASSWORD)).type).toBe('Access-Reject');
          expect((await radtest(server.authPort, SECRET, expired.username!, PASSWORD)).type).toBe('Access-Reject');
          expect((await radtest(server.authPort, SECRET, elsewhere.username!, PASSWORD)).type).toBe('Access-Reject');
          const chap = await radclient(server.authPort, 'auth', SECRET, {
            'User-Name': blocked.username!,
            'CHAP-Password': PASSWORD,
          });
          expect(chap.type).toBe('Access-Reject');
          beforeLast = new Date();
          const mac = await radclient(server.authPort, 'auth', SECRET, {
            'User-Name': dashed,
            'User-Password': dashed,
            'Calling-Station-Id': dashed,
          });
          expect(mac.type).toBe('Access-Accept');
        });
      });

      it('an accept records its user and no reason', async () => {
        const [accepted] = await attemptsOf(user.username!);
        expect(recorded(accepted)).toEqual(expected('accept', user._id, null));
      });

      it('a wrong password of a user of the venue records the user and invalidCredentials', async () => {
        const [, wrong] = await attemptsOf(user.username!);
        expect(recorded(wrong)).toEqual(expected('reject', user._id, 'invalidCredentials'));
      });

      it('an unknown username records invalidCredentials and no user', async () => {
        expect((await attemptsOf(unknown)).map(recorded)).toEqual([expected('reject', null, 'invalidCredentials')]);
      });

      it('a blocked user and an expired one record the user and blocked / expired', async () => {
        const [password, chap] = await attemptsOf(blocked.username!);
        expect(recorded(password)).toEqual(expected('reject', blocked._id, 'blocked'));
        // CHAP is refused before the user is read; the attempt still names its user.
        expect(recorded(chap)).toEqual(expected('reject', blocked._id, 'papRequired'));
        expect((await attemptsOf(expired.username!)).map(recorded)).toEqual([
          expected('reject', expired._id, 'expired'),
        ]);
      });

      it("a user of another venue records wrongVenue and no user (only the NAS's venue is searched)", async () => {
        expect((await attemptsOf(elsewhere.username!)).map(recorded)).toEqual([expected('reject', null, 'wrongVenue')]);
      });

      it('a MAC login records the guest and the MAC', async () => {
        const attempts = await attemptsOf(dashed);
        expect(attempts.map(recorded)).toEqual([expected('accept', guest._id, null)]);
        expect(attempts[0].macAddress).toBe(macAddress.toUpperCase());
      });

      it('hotspot logins --venue --json: every attempt of the venue, newest first', async () => {
        const result = await logins('--venue', VENUE, '--since', startedAt.toISOString(), '--json');
        expect(result).toMatchObject({ code: 0, stderr: '' });
        const listed = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
        expect(listed.map((attempt) => [attempt.username, attempt.outcome, attempt.reason, attempt.userId])).toEqual([
          [dashed, 'accept', null, guest._id],
          [blocked.username, 'reject', 'papRequired', blocked._id],
          [elsewhere.username, 'reject', 'wrongVenue', null],
          [expired.username, 'reject', 'expired', expired._id],
          [blocked.username, 'reject', 'blocked', blocked._id],
          [unknown, 'reject', 'invalidCredentials', null],
          [user.username, 'reject', 'invalidCredentials', user._id],
          [user.username, 'accept', null, user._id],
        ]);
        expect(listed[0]).toEqual({
          id: expect.any(String),
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          outcome: 'accept',
          reason: null,
          venueId: VENUE,
          nasClientId: nasId,
          userId: guest._id,
          username: dashed,
          macAddress: macAddress.toUpperCase(),
        });
      });

      it('hotspot logins filters by user, username, MAC, since and limit', async () => {
        const usernames = async (...argv: string[]) => {
          const result = await logins(...argv, '--json');
          expect(result.code).toBe(0);
          return (JSON.parse(result.stdout) as Array<{ username: string; reason: string | null }>).map(
            (attempt) => `${attempt.username} ${attempt.reason ?? '-'}`,
          );
        };
        expect(await usernames('--user', blocked._id)).toEqual([
          `${blocked.username} papRequired`,
          `${blocked.username} blocked`,
        ]);
        expect(await usernames('--username', unknown)).toEqual([`${unknown} invalidCredentials`]);
        expect(await usernames('--mac', macAddress.replace(/:/g, '').toLowerCase())).toEqual([`${dashed} -`]);
        expect(await usernames('--venue', VENUE, '--since', beforeLast.toISOString())).toEqual([`${dashed} -`]);
        expect(await usernames('--venue', VENUE, '--limit', '2')).toEqual([
          `${dashed} -`,
          `${blocked.username} papRequired`,
        ]);
        expect(await usernames('--venue', 'venue-b')).toEqual([]);
      });

      it('hotspot logins prints a table by default; bad options are usage errors', async () => {
        const table = await logins('--user', blocked._id);
        expect(table.code).toBe(0);
        const lines = table.stdout.trimEnd().split('\n');
        expect(lines[0]).toMatch(/^TIME\s+OUTCOME\s+REASON\s+VENUE\s+NAS\s+USER\s+MAC\s+USERNAME$/);
        expect(lines.slice(1).map((line) => line.split(/\s+/).slice(1, 3))).toEqual([
          ['reject', 'papRequired'],
          ['reject', 'blocked'],
        ]);
        for (const argv of [
          ['--since', 'yesterday'],
          ['--mac', 'zz:zz'],
          ['--user', blocked._id, '--username', 'x'],
          ['--limit', '0'],
        ]) {
          const refused = await logins(...argv);
          expect(refused.code).toBe(2);
          expect(refused.stdout).toBe('');
          expect(refused.stderr).toMatch(/error: option '--\w+/);
        }
      });
    });

    describe('through the post-auth endpoint', () => {
      let token: string;
      let nas: TestNas;

      beforeAll(async () => {
        token = await app.createToken({ permissions: ['radius'] });
        nas = await givenNas(app, VENUE);
      });

      const postAuth = (attributes: Record<string, string>, headers: Record<string, string>) =>
        radiusCall(app, token, 'post-auth', nas, rlmBody(attributes), headers).expect(204);

      it('without X-Radius-Reply-Message (an older configuration) the reject has no reason, and still its user', async () => {
        const user = await givenUser(app, { venueIds: [VENUE] });
        await postAuth({ 'User-Name': user.username!, 'User-Password': 'wrong' }, { 'X-Radius-Result': 'reject' });
        expect((await attemptsOf(user.username!)).map((attempt) => [attempt.userId, attempt.reason])).toEqual([
          [user._id, null],
        ]);
      });

      it('a Reply-Message the service never sends, or a huge one, records no reason; the longest User-Name is kept whole', async () => {
        // 253 octets, the most a RADIUS attribute holds (a longer value is refused with 400).
        const long = `long-${'x'.repeat(248)}`;
        await postAuth(
          { 'User-Name': long },
          { 'X-Radius-Result': 'reject', 'X-Radius-Reply-Message': 'y'.repeat(4000) },
        );
        await postAuth(
          { 'User-Name': long },
          { 'X-Radius-Result': 'reject', 'X-Radius-Reply-Message': 'Hello %{User-Name}' },
        );
        const rows = await attemptsOf(long);
        expect(rows.map((attempt) => [attempt.outcome, attempt.userId, attempt.reason])).toEqual([
          ['reject', null, null],
          ['reject', null, null],
        ]);
      });

      it('keeps the username folded, to be found by its start whatever the case and accents', async () => {
        await postAuth({ 'User-Name': 'Ayşe.YILMAZ-1204' }, { 'X-Radius-Result': 'reject' });
        expect((await attemptsOf('Ayşe.YILMAZ-1204')).map((attempt) => attempt.searchUsername)).toEqual([
          'ayse.yilmaz-1204',
        ]);
      });

      it("a re-authentication's Class names its user, when that user is of the NAS's venue", async () => {
        const user = await givenUser(app, { venueIds: [VENUE] });
        const other = await givenUser(app, { venueIds: ['venue-b'] });
        const username = `reauth-${Date.now().toString(36)}`;
        await postAuth({ 'User-Name': username, Class: encodeClass(user._id) }, { 'X-Radius-Result': 'accept' });
        await postAuth({ 'User-Name': username, Class: encodeClass(other._id) }, { 'X-Radius-Result': 'accept' });
        expect((await attemptsOf(username)).map((attempt) => attempt.userId)).toEqual([user._id, null]);
      });

      it('an unknown NAS records unknownNas', async () => {
        const username = `unknown-nas-${Date.now().toString(36)}`;
        await radiusCall(
          app,
          token,
          'post-auth',
          { name: 'no-such-nas', ip: '10.250.0.1' },
          rlmBody({ 'User-Name': username }),
          {
            'X-Radius-Result': 'reject',
            'X-Radius-Reply-Message': 'Access denied',
          },
        ).expect(204);
        expect((await attemptsOf(username)).map((attempt) => [attempt.nasClientId, attempt.reason])).toEqual([
          [null, 'unknownNas'],
        ]);
      });
    });
  });
}
