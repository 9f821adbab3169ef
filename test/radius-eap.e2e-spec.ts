import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEapCertificates } from '../src/radius-config/freeradius-config.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { databaseKinds } from './support/databases.js';
import {
  eapolTest,
  eapolTestInstalled,
  makeTestCertificates,
  ttlsNetwork,
  type TestCertificates,
} from './support/eap.js';
import { givenUser } from './support/factories.js';
import { radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { freePort } from './support/service-process.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-eap-nas';
const PASSWORD = 'secret-1';
const SESSION_TIMEOUT = 27;
const ACCT_INTERIM_INTERVAL = 85;
const CLASS = 25;

if (!eapolTestInstalled()) {
  throw new Error('eapol_test is needed: apt-get install eapoltest (.ci/run does it)');
}

/**
 * WPA-Enterprise logins (EAP-TTLS with inner PAP) through a real FreeRADIUS configured by
 * `radius-config --eap`, with eapol_test as the device and NAS: what the device and the NAS get,
 * and what the service records.
 */
for (const kind of databaseKinds()) {
  describe(`EAP-TTLS/PAP logins through a real FreeRADIUS [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;
    let dir: string;
    let certificates: TestCertificates;
    let settings: Omit<Parameters<typeof startFreeRadius>[0], 'eap'>;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hotspot-eap-'));
      certificates = makeTestCertificates(dir);
      app = await startTestApp(kind);
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      await app.app
        .get(NasService)
        .add({ venueId: 'venue-a', name: 'eap-nas', ipAddress: '127.0.0.1', secret: SECRET });
      settings = {
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'eap-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      };
      server = await startFreeRadius({
        ...settings,
        eap: readEapCertificates({
          certificate: certificates.certificatePath,
          privateKey: certificates.privateKeyPath,
          caChain: certificates.caPath,
        }),
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const login = (identity: string, password: string, anonymousIdentity?: string) =>
      eapolTest({
        port: server.authPort,
        secret: SECRET,
        dir,
        network: ttlsNetwork({ identity, password, caPath: certificates.caPath, anonymousIdentity }),
      });
    const attemptsOf = (username: string) =>
      app.dataSource
        .getRepository(LoginAttemptEntity)
        .find({ where: { username }, order: { createdAt: 'ASC', id: 'ASC' } });

    it('the right password: Access-Accept carrying the service reply attributes', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app, { expiresAt: new Date(Date.now() + 7_200_000).toISOString() });
        const result = await login(user.username!, PASSWORD);
        expect(result.success).toBe(true);
        const timeout = Number(result.attributes.get(SESSION_TIMEOUT)?.[0]);
        expect(timeout).toBeGreaterThan(7100);
        expect(timeout).toBeLessThanOrEqual(7200);
        expect(result.attributes.get(ACCT_INTERIM_INTERVAL)).toEqual(['300']);
        expect(result.attributes.get(CLASS)).toEqual([Buffer.from(`hsp:${user._id}`).toString('hex')]);
      });
    });

    it('a wrong password or an unknown user: refused', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        expect((await login(user.username!, 'wrong-password')).success).toBe(false);
        expect((await login('nobody-at-all', PASSWORD)).success).toBe(false);
      });
    });

    it('an anonymous outer identity: accepted for the inner user, the Class naming that user', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        const result = await login(user.username!, PASSWORD, 'anonymous');
        expect(result.success).toBe(true);
        expect(result.attributes.get(CLASS)).toEqual([Buffer.from(`hsp:${user._id}`).toString('hex')]);
        expect((await login(user.username!, 'wrong-password', 'anonymous')).success).toBe(false);
      });
    });

    it('login attempts: one per login, under the inner username, never the outer identity', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        const outer = `anon-${user._id.slice(-8)}`;
        expect((await login(user.username!, PASSWORD, outer)).success).toBe(true);
        expect((await login(user.username!, 'wrong-password', outer)).success).toBe(false);
        expect((await attemptsOf(user.username!)).map((attempt) => attempt.outcome)).toEqual(['accept', 'reject']);
        expect(await attemptsOf(outer)).toEqual([]);
      });
    });

    it("one call to the service's authorize per login: the EAP rounds before the tunnel never reach it", async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        const authorizeCalls = () => server.maskedLog().split('/radius/authorize"').length - 1;
        const before = authorizeCalls();
        const result = await login(user.username!, PASSWORD, 'anonymous');
        expect(result.success).toBe(true);
        // eapol_test took several rounds (identity, TLS set-up, the tunnel) to log in.
        expect(result.output.split('RADIUS message: code=11').length - 1).toBeGreaterThan(2);
        expect(authorizeCalls() - before).toBe(1);
      });
    });

    it('a device that does not trust the server certificate gives up; FreeRADIUS records a reject under the outer identity', async () => {
      await server.explainFailures(async () => {
        const user = await givenUser(app);
        const outer = `anon-${user._id.slice(-8)}`;
        const result = await eapolTest({
          port: server.authPort,
          secret: SECRET,
          dir,
          network: ttlsNetwork({
            identity: user.username!,
            password: PASSWORD,
            caPath: certificates.caPath,
            anonymousIdentity: outer,
            extra: ['domain_match="another.server.test"'],
          }),
        });
        expect(result.success).toBe(false);
        expect(await attemptsOf(user.username!)).toEqual([]);
        expect((await attemptsOf(outer)).map((attempt) => attempt.outcome)).toEqual(['reject']);
      });
    });

    it('without a CA chain (--eap-ca not given) the login works the same', async () => {
      const withoutChain = await startFreeRadius({
        ...settings,
        eap: readEapCertificates({
          certificate: certificates.certificatePath,
          privateKey: certificates.privateKeyPath,
        }),
      });
      try {
        await withoutChain.explainFailures(async () => {
          const user = await givenUser(app);
          const network = ttlsNetwork({ identity: user.username!, password: PASSWORD, caPath: certificates.caPath });
          expect((await eapolTest({ port: withoutChain.authPort, secret: SECRET, dir, network })).success).toBe(true);
        });
      } finally {
        await withoutChain.close();
      }
    });

    it('PAP logins keep working beside EAP', async () => {
      const user = await givenUser(app);
      expect((await radtest(server.authPort, SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
      expect((await radtest(server.authPort, SECRET, user.username!, 'wrong')).type).toBe('Access-Reject');
      expect((await attemptsOf(user.username!)).map((attempt) => attempt.outcome)).toEqual(['accept', 'reject']);
    });
  });
}

/**
 * WPA-Enterprise with the service unreachable: the TLS tunnel is set up (FreeRADIUS answers those
 * rounds itself), and the inner login the service cannot answer gets no RADIUS answer at all, never
 * an Access-Reject with EAP-Failure: the NAS (hostapd, a controller) then tries its next server.
 */
describe('EAP-TTLS/PAP when the service cannot answer', () => {
  let dir: string;
  let server: StartedFreeRadius;
  let certificates: TestCertificates;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotspot-eap-busy-'));
    certificates = makeTestCertificates(dir);
    server = await startFreeRadius({
      // Nothing listens there: every call is refused.
      apiUrl: `http://127.0.0.1:${await freePort()}`,
      token: 'hsp_unreachable-token-0123456789abcdefghijklmnop',
      clients: [{ name: 'eap-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      eap: readEapCertificates({
        certificate: certificates.certificatePath,
        privateKey: certificates.privateKeyPath,
        caChain: certificates.caPath,
      }),
    });
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('no Access-Reject and no EAP-Failure: the tunnel rounds are answered, the inner login is not', async () => {
    await server.explainFailures(async () => {
      const result = await eapolTest({
        port: server.authPort,
        secret: SECRET,
        dir,
        network: ttlsNetwork({ identity: 'guest', password: PASSWORD, caPath: certificates.caPath }),
        timeoutSeconds: 4,
      });
      expect(result.success).toBe(false);
      // Access-Challenge (11) rounds came back; never an Access-Reject (3).
      expect(result.output).toMatch(/RADIUS message: code=11/);
      expect(result.output).not.toMatch(/RADIUS message: code=3 /);
      expect(server.maskedLog()).toContain('Not sending reply to client');
    });
  });
});
