import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextRuntime, runCli, type CliRun } from './support/cli-io.js';
import { databaseKinds } from './support/databases.js';
import { renderFreeRadiusConfig, writeFreeRadiusConfig } from '../src/radius-config/freeradius-config.js';
import {
  freeUdpPorts,
  radclient,
  radclientMany,
  radtest,
  runFreeRadius,
  startFreeRadius,
  type RunningFreeRadius,
  type StartedFreeRadius,
} from './support/freeradius.js';
import { startRestPeer, type PeerAnswer, type PeerCall, type RestPeer } from './support/rest-peer.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The FreeRADIUS configuration `hotspot radius-config` writes, run by a real FreeRADIUS against a
 * small HTTP peer standing in for the service's /radius/ routes: the NAS registered with the CLI is
 * a client, every rest call carries the token and the NAS identity, rejects carry nothing but their
 * message, a failing post-auth does not turn an Accept into a Reject, accounting gets the epoch time
 * and Acct-Unique-Session-Id.
 */

// Characters that FreeRADIUS's configuration syntax would otherwise expand or cut: ' $ { } % #.
const NAS_SECRET = "s3cr'et${x}%{y}#z";
const GOOD_PASSWORD = 'right-password';
const EVENT_EPOCH = 1893456000; // 2030-01-01T00:00:00Z

for (const kind of databaseKinds()) {
  describe(`FreeRADIUS configured by radius-config, against a REST peer [${kind}]`, () => {
    let app: TestApp;
    let peer: RestPeer;
    let server: RunningFreeRadius;
    let folder: string;
    let radiusToken: string;
    let generated: CliRun;
    let postAuthStatus = 204;
    let accountingStatus = 204;

    function answer(call: PeerCall): PeerAnswer {
      if (call.path === '/radius/authorize') {
        if (call.body['User-Password']?.value[0] === GOOD_PASSWORD) {
          return {
            status: 200,
            body: { 'control:Auth-Type': 'Accept', 'reply:Session-Timeout': 3600, 'reply:Class': 'user-1' },
          };
        }
        // The Session-Timeout must not reach the NAS: attr_filter.access_reject removes it.
        return {
          status: 401,
          body: {
            'reply:Reply-Message': { value: 'Wrong password for %{User-Name}', do_xlat: false },
            'reply:Session-Timeout': 99,
          },
        };
      }
      if (call.path === '/radius/post-auth') return { status: postAuthStatus };
      if (call.path === '/radius/accounting') return { status: accountingStatus };
      return { status: 404 };
    }

    beforeAll(async () => {
      app = await startTestApp(kind, { SECRETS_KEY: randomBytes(32).toString('hex') });
      peer = await startRestPeer(answer);
      radiusToken = await app.createToken({ name: 'freeradius', permissions: ['radius'] });
      const cli = (...argv: string[]) => runCli(contextRuntime(app.app), ...argv);
      const added = await cli(
        'nas',
        'add',
        '--venue',
        'lobby',
        '--name',
        'test-nas',
        '--ip',
        '127.0.0.1',
        '--secret',
        NAS_SECRET,
      );
      expect(added.code).toBe(0);

      folder = mkdtempSync(join(tmpdir(), 'hotspot-radius-config-'));
      const dir = join(folder, 'raddb');
      const [authPort, acctPort] = await freeUdpPorts(2);
      generated = await cli(
        'radius-config',
        '--out',
        dir,
        '--api-url',
        `${peer.url}/`,
        '--token',
        radiusToken,
        '--auth-port',
        String(authPort),
        '--acct-port',
        String(acctPort),
        '--listen-address',
        '127.0.0.1',
        // Generous: this machine runs other tests at the same time.
        '--rest-timeout-ms',
        '5000',
        '--json',
      );
      expect(generated.code).toBe(0);
      server = await runFreeRadius(dir, { authPort, acctPort });
    });

    afterAll(async () => {
      await server?.stop();
      await peer?.close();
      await app?.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    beforeEach(() => {
      peer.calls.length = 0;
      postAuthStatus = 204;
      accountingStatus = 204;
    });

    function expectNasHeaders(calls: PeerCall[]): void {
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.headers.authorization).toBe(`Bearer ${radiusToken}`);
        expect(call.headers['x-radius-client']).toBe('test-nas');
        expect(call.headers['x-radius-client-ip']).toBe('127.0.0.1');
      }
    }

    it('writes a private folder and prints neither the secret nor the token', () => {
      expect(JSON.parse(generated.stdout)).toEqual({
        outDir: server.dir,
        confDir: server.dir,
        authPort: server.authPort,
        acctPort: server.acctPort,
        clients: ['test-nas'],
        eap: false,
        accountingDatabase: false,
      });
      expect(generated.stdout + generated.stderr).not.toContain(NAS_SECRET);
      expect(generated.stdout + generated.stderr).not.toContain(radiusToken);
      expect(statSync(server.dir).mode & 0o777).toBe(0o700);
      for (const name of ['radiusd.conf', 'clients.conf', 'policy.d', 'mods-enabled']) {
        const path = join(server.dir, name);
        if (statSync(path).isDirectory()) {
          for (const file of readdirSync(path)) expect(statSync(join(path, file)).mode & 0o777).toBe(0o600);
        } else {
          expect(statSync(path).mode & 0o777).toBe(0o600);
        }
      }
    });

    it('PAP with the right password: Access-Accept with the Session-Timeout the peer sent; authorize and post-auth carry the headers', async () => {
      await server.explainFailures(async () => {
        const reply = await radtest(server.authPort, NAS_SECRET, 'alice', GOOD_PASSWORD);
        expect(reply.type).toBe('Access-Accept');
        expect(reply.attributes['Session-Timeout']).toEqual(['3600']);
        expect(peer.calls.map((call) => call.path)).toEqual(['/radius/authorize', '/radius/post-auth']);
        expectNasHeaders(peer.calls);
        expect(peer.calls[0].headers['x-freeradius-section']).toBe('authorize');
        expect(peer.calls[0].body['User-Name']).toEqual({ type: 'string', value: ['alice'] });
      });
    });

    it('a wrong password: Access-Reject with the Reply-Message (not expanded) and no other reply attribute', async () => {
      await server.explainFailures(async () => {
        const reply = await radtest(server.authPort, NAS_SECRET, 'alice', 'wrong-password');
        expect(reply.type).toBe('Access-Reject');
        expect(reply.attributes).toEqual({ 'Reply-Message': ['Wrong password for %{User-Name}'] });
        expect(peer.calls.map((call) => call.path)).toEqual(['/radius/authorize', '/radius/post-auth']);
        expectNasHeaders(peer.calls);
      });
    });

    it('an Accept stays an Accept when post-auth answers 500', async () => {
      postAuthStatus = 500;
      await server.explainFailures(async () => {
        const reply = await radtest(server.authPort, NAS_SECRET, 'alice', GOOD_PASSWORD);
        expect(reply.type).toBe('Access-Accept');
        expect(reply.attributes['Session-Timeout']).toEqual(['3600']);
        expect(peer.calls.map((call) => call.path)).toEqual(['/radius/authorize', '/radius/post-auth']);
      });
    });

    it('a wrong shared secret gets no answer and reaches no peer', async () => {
      const reply = await radclient(
        server.authPort,
        'auth',
        'not-the-secret',
        { 'User-Name': 'alice', 'User-Password': GOOD_PASSWORD },
        2,
      );
      expect(reply.type).not.toBe('Access-Accept');
      expect(
        peer.calls.filter(
          (call) => call.path === '/radius/authorize' && call.body['User-Password']?.value[0] === GOOD_PASSWORD,
        ),
      ).toEqual([]);
    });

    it('accounting: an Accounting-Response, with the epoch time and the same Acct-Unique-Session-Id for Start and Stop', async () => {
      await server.explainFailures(async () => {
        const session = {
          'User-Name': 'alice',
          'Acct-Session-Id': 'sess-0001',
          'NAS-IP-Address': '127.0.0.1',
          'NAS-Port': 1,
        };
        const start = await radclient(server.acctPort, 'acct', NAS_SECRET, {
          ...session,
          'Acct-Status-Type': 'Start',
          'Event-Timestamp': EVENT_EPOCH,
        });
        expect(start.type).toBe('Accounting-Response');
        const stop = await radclient(server.acctPort, 'acct', NAS_SECRET, {
          ...session,
          'Acct-Status-Type': 'Stop',
          'Acct-Session-Time': 60,
          'Event-Timestamp': EVENT_EPOCH + 60,
        });
        expect(stop.type).toBe('Accounting-Response');

        expect(peer.calls.map((call) => call.path)).toEqual(['/radius/accounting', '/radius/accounting']);
        expectNasHeaders(peer.calls);
        const [startBody, stopBody] = peer.calls.map((call) => call.body);
        expect(startBody['Event-Timestamp-Epoch']).toEqual({ type: 'integer', value: [EVENT_EPOCH] });
        expect(stopBody['Event-Timestamp-Epoch']).toEqual({ type: 'integer', value: [EVENT_EPOCH + 60] });
        expect(startBody['Acct-Status-Type']).toEqual({ type: 'integer', value: ['Start'] });
        const uniqueId = startBody['Acct-Unique-Session-Id'];
        expect(uniqueId).toEqual({ type: 'string', value: [expect.stringMatching(/^[0-9a-f]{32}$/)] });
        expect(stopBody['Acct-Unique-Session-Id']).toEqual(uniqueId);
      });
    });

    it('accounting without Event-Timestamp still gets an epoch time (when FreeRADIUS received it)', async () => {
      await server.explainFailures(async () => {
        const before = Math.floor(Date.now() / 1000);
        const reply = await radclient(server.acctPort, 'acct', NAS_SECRET, {
          'User-Name': 'alice',
          'Acct-Session-Id': 'sess-0002',
          'Acct-Status-Type': 'Interim-Update',
        });
        expect(reply.type).toBe('Accounting-Response');
        const epoch = peer.calls[0].body['Event-Timestamp-Epoch'].value[0] as number;
        expect(epoch).toBeGreaterThanOrEqual(before);
        expect(epoch).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      });
    });

    it('accounting the peer fails (500) gets no Accounting-Response, so the NAS retransmits', async () => {
      accountingStatus = 500;
      await server.explainFailures(async () => {
        const reply = await radclient(
          server.acctPort,
          'acct',
          NAS_SECRET,
          { 'User-Name': 'alice', 'Acct-Session-Id': 'sess-0003', 'Acct-Status-Type': 'Start' },
          2,
        );
        expect(reply.type).toBeNull();
        expect(peer.calls.map((call) => call.path)).toEqual(['/radius/accounting']);
      });
    });

    it('the -X output shown on failure masks passwords, the shared secret and the token', () => {
      const log = server.maskedLog();
      expect(log).toContain('User-Password <masked>');
      for (const secret of [GOOD_PASSWORD, 'wrong-password', NAS_SECRET, radiusToken])
        expect(log).not.toContain(secret);
    });
  });
}

/**
 * "Busy" is not "wrong password": with the generated configuration at its default REST timeout
 * (250 ms), a login the service cannot answer in time (it sleeps, answers 503, or refuses the
 * connection) gets no RADIUS answer at all, so the NAS retries or fails over; a 401 is still a
 * reject with the service's own Reply-Message. Every call carries the deadline headers.
 */
describe('FreeRADIUS configured by radius-config, against a busy REST peer', () => {
  const SECRET = 'busy-peer-shared-secret';
  let peer: RestPeer;
  let server: StartedFreeRadius;
  let mode: 'sleep' | 'busy' | 'reject' | 'accept' = 'accept';

  beforeAll(async () => {
    peer = await startRestPeer((call) => {
      if (call.path === '/radius/post-auth') return { status: 204 };
      if (call.path === '/radius/accounting') return mode === 'busy' ? { status: 503 } : { status: 204 };
      switch (mode) {
        case 'sleep':
          return { status: 200, body: { 'control:Auth-Type': 'Accept' }, delayMs: 1500 };
        case 'busy':
          return { status: 503, body: { success: false, message: 'Service Unavailable' } };
        case 'reject':
          return { status: 401, body: { 'reply:Reply-Message': { value: 'Account blocked', do_xlat: false } } };
        case 'accept':
          return { status: 200, body: { 'control:Auth-Type': 'Accept', 'reply:Session-Timeout': 600 } };
      }
    });
    server = await startFreeRadius({
      apiUrl: peer.url,
      token: 'hsp_busy-peer-token-0123456789abcdefghijklmnop',
      clients: [{ name: 'busy-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
    });
  });

  afterAll(async () => {
    await server?.close();
    await peer?.close();
  });

  beforeEach(() => {
    peer.calls.length = 0;
  });

  /** A login; an answer expected is given a retransmission, as a NAS would, in case the box is loaded. */
  const login = (tries = 1) =>
    radclient(server.authPort, 'auth', SECRET, { 'User-Name': 'guest', 'User-Password': 'right-password' }, 3, tries);

  it('every call says how long FreeRADIUS waits and when it left, by the clock', async () => {
    mode = 'accept';
    await server.explainFailures(async () => {
      const before = Date.now();
      expect((await login(2)).type).toBe('Access-Accept');
      const [authorize] = peer.calls;
      expect(authorize.headers['x-request-timeout-ms']).toBe('250');
      const sentAt = Number(authorize.headers['x-request-sent-at']);
      expect(sentAt).toBeGreaterThanOrEqual(before - 5);
      expect(sentAt).toBeLessThanOrEqual(Date.now());
    });
  });

  it('a service that sleeps past the timeout: no answer at all, never an Access-Reject, and no post-auth', async () => {
    mode = 'sleep';
    await server.explainFailures(async () => {
      const reply = await login();
      expect(reply.type).toBeNull();
      expect(peer.calls.map((call) => call.path)).toEqual(['/radius/authorize']);
    });
  });

  it('a service answering 503 (busy): no answer', async () => {
    mode = 'busy';
    await server.explainFailures(async () => {
      expect((await login()).type).toBeNull();
      expect(peer.calls.map((call) => call.path)).toEqual(['/radius/authorize']);
    });
  });

  it("the NAS's retransmission of a login left unanswered is handled anew once the service can answer", async () => {
    mode = 'busy';
    await server.explainFailures(async () => {
      // The same packet again after 3 s, as hostapd retransmits: FreeRADIUS has forgotten the
      // unanswered one by then (cleanup_delay 2 s; it ignores a retransmit of an unanswered request
      // while it remembers it), so the service is asked again, and is no longer busy.
      setTimeout(() => {
        mode = 'accept';
      }, 1000);
      const reply = await radclient(
        server.authPort,
        'auth',
        SECRET,
        { 'User-Name': 'guest', 'User-Password': 'right-password' },
        3,
        2,
      );
      expect(reply.type).toBe('Access-Accept');
      expect(peer.calls.filter((call) => call.path === '/radius/authorize')).toHaveLength(2);
    });
  });

  it('no packet is taken for a stale one at a second boundary: 1,000 logins and 1,000 accounting packets, 8 at a time, all answered', async () => {
    mode = 'accept';
    await server.explainFailures(async () => {
      const logins = Array.from({ length: 1000 }, (_, i) => ({ 'User-Name': `guest-${i}`, 'User-Password': 'pw' }));
      const accounting = Array.from({ length: 1000 }, (_, i) => ({
        'User-Name': `guest-${i}`,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Id': `boundary-${i}`,
      }));
      expect(await radclientMany(server.authPort, 'auth', SECRET, logins, 8)).toEqual({ answered: 1000, lost: 0 });
      expect(await radclientMany(server.acctPort, 'acct', SECRET, accounting, 8)).toEqual({ answered: 1000, lost: 0 });
    });
  });

  it("a real refusal stays a reject with the service's own Reply-Message", async () => {
    mode = 'reject';
    await server.explainFailures(async () => {
      expect(await login(2)).toEqual({ type: 'Access-Reject', attributes: { 'Reply-Message': ['Account blocked'] } });
    });
  });

  it('accounting the busy service cannot take gets no Accounting-Response (the NAS retransmits)', async () => {
    mode = 'busy';
    const reply = await radclient(
      server.acctPort,
      'acct',
      SECRET,
      { 'User-Name': 'guest', 'Acct-Session-Id': 'busy-1', 'Acct-Status-Type': 'Start' },
      2,
    );
    expect(reply.type).toBeNull();
  });

  it('a service that refuses connections: no answer', async () => {
    mode = 'accept';
    await peer.close();
    await server.explainFailures(async () => {
      expect((await login()).type).toBeNull();
    });
  });
});

/**
 * Overload inside FreeRADIUS: with one worker thread and the service asleep, logins queue in
 * FreeRADIUS behind each other (250 ms each); one whose turn comes after twice the REST timeout is
 * dropped before it calls the service (no answer, no work), so the queue drains instead of growing.
 */
describe('FreeRADIUS configured by radius-config, its own queue full', () => {
  const SECRET = 'queue-peer-shared-secret';
  let peer: RestPeer;
  let server: RunningFreeRadius;
  let folder: string;

  beforeAll(async () => {
    peer = await startRestPeer(() => ({ status: 200, body: { 'control:Auth-Type': 'Accept' }, delayMs: 1500 }));
    folder = mkdtempSync(join(tmpdir(), 'hotspot-radius-queue-'));
    const dir = join(folder, 'raddb');
    const [authPort, acctPort] = await freeUdpPorts(2);
    const files = renderFreeRadiusConfig({
      apiUrl: peer.url,
      token: 'hsp_queue-peer-token-0123456789abcdefghijklmnop',
      clients: [{ name: 'queue-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      authPort,
      acctPort,
      listenAddress: '127.0.0.1',
      confDir: dir,
    });
    // One worker thread: a second packet waits for the first, as all do when every thread is busy.
    const main = files.get('radiusd.conf')!;
    files.set(
      'radiusd.conf',
      main
        .replace(/start_servers = \d+/, 'start_servers = 1')
        .replace(/max_servers = \d+/, 'max_servers = 1')
        .replace(/min_spare_servers = \d+/, 'min_spare_servers = 1')
        .replace(/max_spare_servers = \d+/, 'max_spare_servers = 1'),
    );
    await writeFreeRadiusConfig(dir, files);
    server = await runFreeRadius(dir, { authPort, acctPort }, { threaded: true });
  });

  afterAll(async () => {
    await server?.stop();
    await peer?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('a login that waited inside FreeRADIUS past twice the REST timeout is dropped before any call', async () => {
    await server.explainFailures(async () => {
      // Four at once, from one radclient: the first three call the service in turn (250 ms each); the
      // fourth's turn comes after 750 ms in the queue.
      const logins = [1, 2, 3, 4].map((i) => ({ 'User-Name': `guest-${i}`, 'User-Password': 'right-password' }));
      expect(await radclientMany(server.authPort, 'auth', SECRET, logins, 4)).toEqual({ answered: 0, lost: 4 });
      const calls = peer.calls.filter((call) => call.path === '/radius/authorize').length;
      expect(calls).toBeGreaterThanOrEqual(2);
      expect(calls).toBeLessThanOrEqual(3);
    });
  });
});
