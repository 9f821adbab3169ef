import type { AddressInfo } from 'node:net';
import { Admission } from '../src/common/load/admission.js';
import { PasswordHasher } from '../src/common/passwords/password-hasher.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { databaseKinds } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { radclientFromFile, radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'secret-1';

/**
 * "No work for answers nobody waits for": a RADIUS request that reaches the service after the time
 * FreeRADIUS waits for it (the X-Request-Timeout-Ms and X-Request-Sent-At headers the generated
 * configuration sends) is answered 503 at once, without a single query or argon2id verification,
 * and counted; the same request in time does its work. Also through a real FreeRADIUS, with the
 * service asleep past the REST timeout.
 */
for (const kind of databaseKinds()) {
  describe(`RADIUS requests past FreeRADIUS's deadline [${kind}]`, () => {
    let app: TestApp;
    let token: string;
    let nas: TestNas;
    /** Every statement the service sends to the database, as TypeORM logs it. */
    const statements: string[] = [];

    beforeAll(async () => {
      app = await startTestApp(kind, { LOG_LEVEL: 'fatal' });
      token = await app.createToken({ permissions: ['radius'] });
      nas = await givenNas(app);
      const logger = app.dataSource.logger;
      const logQuery = logger.logQuery.bind(logger);
      logger.logQuery = (query, parameters, runner) => {
        statements.push(query);
        logQuery(query, parameters, runner);
      };
    });

    afterAll(async () => {
      await app?.close();
    });

    /** A call as FreeRADIUS makes it, sent `ago` ms before now by its clock, waiting 250 ms for the answer. */
    const call = (section: 'authorize' | 'accounting' | 'post-auth', body: unknown, ago: number) =>
      radiusCall(app, token, section, nas, body, {
        'X-Request-Timeout-Ms': '250',
        'X-Request-Sent-At': String(Date.now() - ago),
      });
    const login = (username: string) => rlmBody({ 'User-Name': username, 'User-Password': PASSWORD });
    const radiusVerifications = () =>
      app.app
        .get(PasswordHasher)
        .stats()
        .find((stats) => stats.name === 'radius')!.started;
    const expiredAtAdmission = () =>
      app.app
        .get(Admission)
        .stats()
        .deadlineExpired.find((entry) => entry.caller === 'radius' && entry.stage === 'admission')?.count ?? 0;

    /** The statements sent while `act` ran. */
    async function statementsDuring(act: () => Promise<unknown>): Promise<string[]> {
      const before = statements.length;
      await act();
      return statements.slice(before);
    }

    it('a first login that arrives after FreeRADIUS gave up: 503 at once, no query, no argon2id, nothing recorded; in time it starts the validity', async () => {
      const user = await givenUser(app, { validFor: 3600 });
      // FreeRADIUS's first call teaches the service its clock.
      await call('authorize', login('nobody-yet'), 0).expect(401);
      const verifications = radiusVerifications();
      const expired = expiredAtAdmission();
      let late: Awaited<ReturnType<typeof call>> | undefined;
      const sent = await statementsDuring(async () => {
        late = await call('authorize', login(user.username!), 1500);
      });
      expect(late!.status).toBe(503);
      expect(late!.headers['retry-after']).toBe('1');
      expect(late!.body).toEqual({ success: false, message: 'Service Unavailable' });
      expect(sent).toEqual([]);
      expect(radiusVerifications()).toBe(verifications);
      expect(expiredAtAdmission()).toBe(expired + 1);
      const row = await app.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id: user._id });
      expect(row.firstLoginAt).toBeNull();

      const inTime = await call('authorize', login(user.username!), 0).expect(200);
      expect(inTime.body['control:Auth-Type']).toBe('Accept');
      const started = await app.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id: user._id });
      expect(started.firstLoginAt).not.toBeNull();
    });

    it('accounting and post-auth past the deadline write nothing; in time they record', async () => {
      const user = await givenUser(app);
      const start = rlmBody({
        'Acct-Status-Type': 'Start',
        'Acct-Session-Id': `late-${user._id}`,
        'Acct-Unique-Session-Id': `late-unique-${user._id}`,
        'User-Name': user.username!,
        'Calling-Station-Id': '02-00-00-00-0D-01',
      });
      const postAuth = login(user.username!);
      const sent = await statementsDuring(async () => {
        await call('accounting', start, 1500).expect(503);
        await call('post-auth', postAuth, 1500).set('X-Radius-Result', 'accept').expect(503);
      });
      expect(sent).toEqual([]);
      expect(await app.dataSource.getRepository(SessionEntity).findBy({ userId: user._id })).toEqual([]);
      expect(await app.dataSource.getRepository(LoginAttemptEntity).findBy({ userId: user._id })).toEqual([]);

      await call('accounting', start, 0).expect(204);
      await call('post-auth', postAuth, 0).set('X-Radius-Result', 'accept').expect(204);
      expect(await app.dataSource.getRepository(SessionEntity).findBy({ userId: user._id })).toHaveLength(1);
      expect(await app.dataSource.getRepository(LoginAttemptEntity).findBy({ userId: user._id })).toHaveLength(1);
    });

    it('a caller that says nothing of its deadline is served as before, however late', async () => {
      const user = await givenUser(app);
      const answer = await radiusCall(app, token, 'authorize', nas, login(user.username!)).expect(200);
      expect(answer.body['control:Auth-Type']).toBe('Accept');
    });
  });

  describe(`a service asleep past FreeRADIUS's REST timeout [${kind}]`, () => {
    const SECRET = 'a-shared-secret-for-the-asleep-nas';
    let app: TestApp;
    let server: StartedFreeRadius;

    beforeAll(async () => {
      app = await startTestApp(kind, { LOG_LEVEL: 'fatal' });
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      await app.app
        .get(NasService)
        .add({ venueId: 'venue-a', name: 'asleep-nas', ipAddress: '127.0.0.1', secret: SECRET });
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 250,
        clients: [{ name: 'asleep-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
    });

    it('the NAS gets no answer (never a reject), and the login that woke up late is never worked on', async () => {
      await server.explainFailures(async () => {
        const awake = await givenUser(app);
        expect((await radtest(server.authPort, SECRET, awake.username!, PASSWORD)).type).toBe('Access-Accept');
        const user = await givenUser(app, { validFor: 3600 });
        const verifications = app.app
          .get(PasswordHasher)
          .stats()
          .find((stats) => stats.name === 'radius')!.started;
        // One try, waiting 2 s for an answer that never comes.
        const reply = radclientFromFile(
          server.authPort,
          SECRET,
          { 'User-Name': user.username!, 'User-Password': PASSWORD },
          server.dir,
        );
        // At once (radclient is on its way), the whole process sleeps, its event loop blocked, for
        // longer than FreeRADIUS waits: the login reaches the service while it sleeps.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
        expect((await reply).type).toBeNull();
        // Bounded wait for the late request to be read and refused.
        const admission = app.app.get(Admission);
        const refused = () => admission.stats().deadlineExpired.some((entry) => entry.caller === 'radius');
        for (let tries = 0; !refused() && tries < 100; tries += 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(refused()).toBe(true);
        const row = await app.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id: user._id });
        expect(row.firstLoginAt).toBeNull();
        expect(await app.dataSource.getRepository(LoginAttemptEntity).findBy({ userId: user._id })).toEqual([]);
        expect(
          app.app
            .get(PasswordHasher)
            .stats()
            .find((stats) => stats.name === 'radius')!.started,
        ).toBe(verifications);
        // Awake again: the NAS's retry is accepted.
        expect((await radtest(server.authPort, SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
      });
    });
  });
}
