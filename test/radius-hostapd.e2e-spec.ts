import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NasService } from '../src/nas/nas.service.js';
import {
  readEapCertificates,
  renderFreeRadiusConfig,
  writeFreeRadiusConfig,
} from '../src/radius-config/freeradius-config.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity, type UnauthReason } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { api, USERS_PATH } from './support/api-client.js';
import { databaseKinds } from './support/databases.js';
import { makeTestCertificates, ttlsNetwork, type TestCertificates } from './support/eap.js';
import { givenUser } from './support/factories.js';
import { givenPlanRow, putOnPlan } from './support/plans.js';
import { freeUdpPorts, runFreeRadius, type RunningFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitUntil, wired8021xSkipReason, Wired8021x, type Device } from './support/wired-8021x.js';

const SECRET = 'a-shared-secret-for-hostapd';
const PASSWORD = 'secret-1';
const NAS_NAME = 'hostapd-e2e';
const INTERIM_SECONDS = 2;

const skipReason = wired8021xSkipReason();
if (skipReason !== null) process.stderr.write(`radius-hostapd e2e skipped: ${skipReason}\n`);
const describeWired = skipReason === null ? describe : describe.skip;

/**
 * WPA-Enterprise on real network software: hostapd (wired 802.1X authenticator, RADIUS accounting,
 * RFC 5176 DAS requiring Message-Authenticator and Event-Timestamp) as the NAS, wpa_supplicant as the
 * guest's device, FreeRADIUS from `radius-config --eap`, and the service. Everything runs on the
 * suite's own network namespaces; assertions are what the device, hostapd and the v1 API show.
 */
for (const kind of databaseKinds()) {
  describeWired(`802.1X with hostapd and wpa_supplicant [${kind}]`, () => {
    let dir: string;
    let network: Wired8021x | undefined;
    let app: TestApp | undefined;
    let radius: RunningFreeRadius | undefined;
    let certificates: TestCertificates;
    let nasId: string;
    let acctPort: number;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hotspot-hostapd-'));
      certificates = makeTestCertificates(dir);
      network = Wired8021x.create(dir);
      app = await startTestApp(kind, {
        UNAUTH_DISPATCHER: 'radius',
        RADIUS_DM_TIMEOUT_MS: '500',
        WORKER_ENABLED: 'true',
        UNAUTH_POLL_INTERVAL_MS: '50',
        UNAUTH_RETRY_BASE_MS: '200',
        SHUTDOWN_TIMEOUT_SECONDS: '2',
        USAGE_SWEEP_INTERVAL: '1',
        LOG_LEVEL: 'fatal',
      });
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      const nas = await app.app
        .get(NasService)
        .add({ venueId: 'venue-a', name: NAS_NAME, ipAddress: network.nasAddress, secret: SECRET, coaPort: 3799 });
      nasId = nas.id;
      const [authPort, freeAcctPort] = await freeUdpPorts(2);
      acctPort = freeAcctPort;
      const raddb = join(dir, 'raddb');
      const files = renderFreeRadiusConfig({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        authPort,
        acctPort,
        listenAddress: network.serverAddress,
        confDir: raddb,
        restTimeoutMs: 5000,
        clients: [{ name: NAS_NAME, ipAddress: network.nasAddress, secret: SECRET, requireMessageAuthenticator: true }],
        eap: readEapCertificates({
          certificate: certificates.certificatePath,
          privateKey: certificates.privateKeyPath,
          caChain: certificates.caPath,
        }),
      });
      await writeFreeRadiusConfig(raddb, files);
      radius = await runFreeRadius(raddb, { authPort, acctPort });
      await network.startHostapd({ secret: SECRET, authPort, acctPort, interimIntervalSeconds: INTERIM_SECONDS });
    }, 60_000);

    afterAll(async () => {
      await network?.close();
      await radius?.stop();
      await app?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    /** Runs `check`; when it fails, prints hostapd's, the devices' and FreeRADIUS's (masked) output. */
    const explained = async (check: () => Promise<void>): Promise<void> => {
      try {
        await check();
      } catch (error) {
        process.stderr.write(`hostapd and wpa_supplicant output:\n${network?.logs().slice(-20_000)}\n`);
        process.stderr.write(`FreeRADIUS -X output (masked):\n${radius?.maskedLog().slice(-20_000)}\n`);
        throw error;
      }
    };

    const sessions = () => app!.dataSource.getRepository(SessionEntity);
    const attemptsOf = (username: string) =>
      app!.dataSource
        .getRepository(LoginAttemptEntity)
        .find({ where: { username }, order: { createdAt: 'ASC', id: 'ASC' } });
    const jobOf = async (userId: string, reason: UnauthReason) =>
      (await app!.dataSource.getRepository(UnauthJobEntity).findBy({ userId, reason }))[0];

    /**
     * An accounting packet from the NAS's own address to FreeRADIUS (radclient in hostapd's
     * namespace, run without blocking: the service answers FreeRADIUS from this process); its output.
     */
    const reportFromNas = (attributes: Record<string, string | number>): Promise<string> => {
      const lines = Object.entries(attributes).map(
        ([name, value]) => `${name} = ${typeof value === 'number' ? value : JSON.stringify(value)}`,
      );
      const child = spawn('ip', [
        'netns',
        'exec',
        network!.nasNamespace,
        'radclient',
        '-x',
        '-r',
        '2',
        '-t',
        '4',
        `${network!.serverAddress}:${acctPort}`,
        'acct',
        SECRET,
      ]);
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stdin.end(`${lines.join('\n')}\n`);
      return new Promise((resolve) => child.on('close', () => resolve(output)));
    };

    const authorized = (device: Device) => device.status().suppPortStatus === 'Authorized';
    const refused = (device: Device, after: number) =>
      device.log.text().slice(after).includes('CTRL-EVENT-EAP-FAILURE');

    /** A device logs in as `username` (outer identity `anonymous` when given) and waits for the outcome. */
    async function connect(username: string, password: string, anonymousIdentity?: string): Promise<Device> {
      const device = await network!.startDevice(
        ttlsNetwork({
          identity: username,
          password,
          caPath: certificates.caPath,
          anonymousIdentity,
          extra: ['eapol_flags=0'],
        }),
      );
      await waitUntil('the login outcome', () => authorized(device) || refused(device, 0));
      return device;
    }

    /** A device of `user` logged in, and its session open in the service (hostapd's Accounting-Start). */
    async function online(user: { _id: string; username?: string | null }, anonymousIdentity?: string) {
      const device = await connect(user.username!, PASSWORD, anonymousIdentity);
      expect(device.status().suppPortStatus).toBe('Authorized');
      await waitUntil(
        'the accounting Start',
        async () => (await sessions().findBy({ userId: user._id, status: 'active' })).length === 1,
      );
      const [session] = await sessions().findBy({ userId: user._id, status: 'active' });
      return { device, session };
    }

    /**
     * After `change` wrote a job of `reason`: hostapd's DAS ACKed it and dropped the station, the job
     * is done, the session ended, and the device's next authentication is refused.
     */
    async function expectDisconnected(
      user: { _id: string; username?: string | null },
      device: Device,
      reason: UnauthReason,
      refusal: { reason: string; userId: string | null },
    ) {
      await waitUntil(`the ${reason} job to be done`, async () => (await jobOf(user._id, reason))?.status === 'done');
      const job = await jobOf(user._id, reason);
      expect(Object.values(job.deliveries!.radius.sessions!)).toEqual([
        expect.objectContaining({ result: 'acked', nas: NAS_NAME }),
      ]);
      expect(await sessions().findBy({ userId: user._id, status: 'active' })).toEqual([]);
      await waitUntil('hostapd to drop the station', () =>
        network!.hostapd!.text().includes(`AP-STA-DISCONNECTED ${device.macAddress}`),
      );
      const before = device.log.text().length;
      device.reauthenticate();
      await waitUntil('the refused authentication', () => refused(device, before));
      expect(device.status().suppPortStatus).not.toBe('Authorized');
      const attempts = await attemptsOf(user.username!);
      expect(attempts.at(-1)).toMatchObject({ outcome: 'reject', ...refusal });
    }

    it('a guest logs in: Authorized; the device, the session and its Interim-Updates through the v1 API', async () => {
      await explained(async () => {
        const user = await givenUser(app!);
        const { device } = await online(user);
        try {
          const got = await api(app!).users.get(user._id).expect(200);
          expect(got.body.data.devices).toEqual([
            expect.objectContaining({ macAddress: device.macAddress.toUpperCase(), status: 'active' }),
          ]);
          const listSessions = () =>
            app!.http
              .get(`${USERS_PATH}/${user._id}/sessions`)
              .set('Authorization', `Bearer ${app!.adminToken}`)
              .expect(200);
          expect((await listSessions()).body.data).toEqual([
            expect.objectContaining({ status: 'active', nas: NAS_NAME }),
          ]);
          await waitUntil(
            'an Interim-Update',
            async () => ((await sessions().findBy({ userId: user._id }))[0]?.sessionTime ?? 0) >= INTERIM_SECONDS,
          );
          expect((await listSessions()).body.data[0].sessionTime).toBeGreaterThanOrEqual(INTERIM_SECONDS);
          // Recorded by the inner server, with the NAS's attributes copied into the tunnel.
          expect(await attemptsOf(user.username!)).toEqual([
            expect.objectContaining({
              outcome: 'accept',
              nasClientId: nasId,
              macAddress: device.macAddress.toUpperCase(),
            }),
          ]);
        } finally {
          await device.stop();
        }
      });
    });

    it('a wrong password is refused', async () => {
      await explained(async () => {
        const user = await givenUser(app!);
        const device = await connect(user.username!, 'not-the-password');
        try {
          expect(device.status().suppPortStatus).not.toBe('Authorized');
          // Recorded once, with the user the name belongs to and the reason authorize decided.
          expect(await attemptsOf(user.username!)).toEqual([
            expect.objectContaining({ outcome: 'reject', userId: user._id, reason: 'invalidCredentials' }),
          ]);
        } finally {
          await device.stop();
        }
      });
    });

    // A blocked user is refused as blocked; an expired or deleted one has released its username
    // (another user may take it), so a login with it is refused as invalid credentials, with no user.
    it.each<[string, UnauthReason, string, (userId: string) => Promise<unknown>]>([
      ['a block', 'blocked', 'blocked', (id) => api(app!).users.update(id, { status: 'blocked' }).expect(200)],
      ['an expire', 'expired', 'invalidCredentials', (id) => api(app!).users.expire(id).expect(200)],
      ['a delete', 'deleted', 'invalidCredentials', (id) => api(app!).users.remove(id).expect(200)],
    ])(
      "%s reaches hostapd's DAS, which drops the station; the next login is refused",
      async (_what, reason, refusedAs, change) => {
        await explained(async () => {
          const user = await givenUser(app!);
          const { device } = await online(user);
          try {
            await change(user._id);
            await expectDisconnected(user, device, reason, {
              reason: refusedAs,
              userId: refusedAs === 'blocked' ? user._id : null,
            });
          } finally {
            await device.stop();
          }
        });
      },
    );

    it("a plan's data quota used up: hostapd's DAS drops the station (job quota), the next login is refused", async () => {
      await explained(async () => {
        const plan = await givenPlanRow(app!, { quotaBytes: 1000, quotaPeriod: 'total' });
        const user = await givenUser(app!);
        await putOnPlan(app!, user._id, plan);
        const { device } = await online(user);
        try {
          await waitUntil(
            'an Interim-Update',
            async () => ((await sessions().findBy({ userId: user._id }))[0]?.sessionTime ?? 0) >= INTERIM_SECONDS,
          );
          // hostapd's wired driver keeps no per-station counters, so its Interim-Updates carry no
          // octets: the NAS's next one is sent for it, from its address, with the octets a NAS that
          // counts would report (more than the plan allows), through FreeRADIUS as any packet.
          const [session] = await sessions().findBy({ userId: user._id });
          const reply = await reportFromNas({
            'Acct-Status-Type': 'Interim-Update',
            'User-Name': session.userName!,
            'Acct-Session-Id': session.acctSessionId!,
            'NAS-IP-Address': network!.nasAddress,
            'NAS-Identifier': NAS_NAME,
            'Calling-Station-Id': session.callingStationId!,
            Class: `0x${Buffer.from(`hsp:${user._id}`).toString('hex')}`,
            'Acct-Session-Time': (session.sessionTime ?? 0) + 1,
            'Acct-Input-Octets': 700,
            'Acct-Output-Octets': 500,
          });
          expect(reply).toContain('Accounting-Response');
          await expectDisconnected(user, device, 'quota', { reason: 'quotaExhausted', userId: user._id });
          const [ended] = await sessions().findBy({ userId: user._id });
          expect(ended).toMatchObject({ status: 'expired', terminateCause: 'quota', inputOctets: '700' });
        } finally {
          await device.stop();
        }
      });
    });

    it('an anonymous outer identity: the login, the session and a block reach the right user', async () => {
      await explained(async () => {
        const user = await givenUser(app!);
        const { device, session } = await online(user, 'anonymous');
        try {
          // hostapd's accounting names the outer identity; the Class ties it to the user.
          expect(session.userName).toBe('anonymous');
          expect(await attemptsOf('anonymous')).toEqual([]);
          await api(app!).users.update(user._id, { status: 'blocked' }).expect(200);
          await expectDisconnected(user, device, 'blocked', { reason: 'blocked', userId: user._id });
        } finally {
          await device.stop();
        }
      });
    });

    it('a CoA (a new expiresAt of an online user): hostapd answers CoA-NAK 401, recorded on the job', async () => {
      await explained(async () => {
        const user = await givenUser(app!);
        const { device } = await online(user);
        try {
          await api(app!)
            .users.update(user._id, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
            .expect(200);
          await waitUntil('the CoA job to end', async () =>
            ['done', 'failed'].includes((await jobOf(user._id, 'coa'))?.status),
          );
          const job = await jobOf(user._id, 'coa');
          expect(Object.values(job.deliveries!.radius.sessions!)).toEqual([
            expect.objectContaining({ result: 'failed', nas: NAS_NAME, errorCause: 401 }),
          ]);
          expect(job.lastError).toContain('CoA-NAK with Error-Cause 401');
          // The station stays online.
          expect(device.status().suppPortStatus).toBe('Authorized');
          // hostapd does not do CoA: the NAS is marked so, and the next change writes no CoA job.
          const registry = app!.app.get(NasService);
          expect((await registry.list()).find((nas) => nas.name === NAS_NAME)?.acceptsCoa).toBe(false);
          await api(app!)
            .users.update(user._id, { expiresAt: new Date(Date.now() + 7_200_000).toISOString() })
            .expect(200);
          expect(await app!.dataSource.getRepository(UnauthJobEntity).findBy({ userId: user._id })).toHaveLength(1);
          await registry.update(NAS_NAME, { acceptsCoa: true });
        } finally {
          await device.stop();
        }
      });
    });
  });
}
