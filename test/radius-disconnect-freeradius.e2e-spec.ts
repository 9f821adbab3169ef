import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { NasService } from '../src/nas/nas.service.js';
import { exchange } from '../src/radius-packets/radius-client.js';
import { attributeValue, encodeRequest, RADIUS_CODES, type RadiusPacket } from '../src/radius-packets/radius-packet.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { api } from './support/api-client.js';
import { databaseKinds } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { radclient, radtest, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { startFreeRadiusNas, type FreeRadiusNas } from './support/freeradius-nas.js';
import { NasSimulator } from './support/nas-simulator.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const NAS_SECRET = 'a-shared-secret-for-the-e2e-nas';
const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789abcdef';
const PASSWORD = 'secret-1';
const KNOWN = 'known-acct-0001';
const LOOP_SESSION = 'loop-acct-0001';

/** Bounded wait for `condition`, polling. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** radclient sending one request of `kind` (disconnect, coa) to 127.0.0.1:port; its printed output. */
function radclientRequest(port: number, kind: 'disconnect' | 'coa', secret: string, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('radclient', ['-x', '-r', '1', '-t', '3', `127.0.0.1:${port}`, kind, secret]);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', () => resolve(output));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

describe('RFC 5176 packets against FreeRADIUS and radclient', () => {
  let nas: FreeRadiusNas;
  beforeAll(async () => {
    nas = await startFreeRadiusNas(NAS_SECRET, [KNOWN]);
  });
  afterAll(() => nas?.close());

  const send = (
    code: number,
    acctSessionId: string,
    secret = NAS_SECRET,
    extra: Array<['Session-Timeout', number]> = [],
  ) =>
    exchange({
      host: '127.0.0.1',
      port: nas.coaPort,
      secret: NAS_SECRET,
      request: encodeRequest(code, 42, [['User-Name', 'alice'], ['Acct-Session-Id', acctSessionId], ...extra], secret),
      timeoutMs: 500,
      retries: 1,
    });

  it('FreeRADIUS (MA required) verifies our Disconnect-Request and ACKs a known session; we verify its answer', async () => {
    await nas.explainFailures(async () => {
      const { response } = await send(RADIUS_CODES.disconnectRequest, KNOWN);
      expect(response?.code).toBe(RADIUS_CODES.disconnectAck);
    });
  });

  it('an unknown session: Disconnect-NAK with Error-Cause 503', async () => {
    await nas.explainFailures(async () => {
      const { response } = await send(RADIUS_CODES.disconnectRequest, 'unknown-session');
      expect(response?.code).toBe(RADIUS_CODES.disconnectNak);
      expect(attributeValue(response as RadiusPacket, 'Error-Cause')).toBe(503);
    });
  });

  it('a CoA-Request with Session-Timeout: CoA-ACK', async () => {
    await nas.explainFailures(async () => {
      const { response } = await send(RADIUS_CODES.coaRequest, KNOWN, NAS_SECRET, [['Session-Timeout', 3600]]);
      expect(response?.code).toBe(RADIUS_CODES.coaAck);
    });
  });

  it('signed with another secret: FreeRADIUS drops it, no answer', async () => {
    const { response, transmissions } = await send(RADIUS_CODES.disconnectRequest, KNOWN, 'not-the-secret');
    expect(response).toBeNull();
    expect(transmissions).toBe(2);
  });

  it("radclient's requests verify in the NAS simulator, and radclient accepts the simulator's answers", async () => {
    const simulator = await NasSimulator.start(NAS_SECRET);
    try {
      simulator.answer = (request) => (request.acctSessionId === KNOWN ? 'ack' : { nak: 503 });
      const ack = await radclientRequest(simulator.port, 'disconnect', NAS_SECRET, [
        'User-Name = "alice"',
        `Acct-Session-Id = "${KNOWN}"`,
        'Message-Authenticator = 0x00',
      ]);
      expect(ack).toMatch(/Received Disconnect-ACK/);
      const nak = await radclientRequest(simulator.port, 'coa', NAS_SECRET, [
        'User-Name = "alice"',
        'Acct-Session-Id = "other"',
        'Session-Timeout = 60',
        'Message-Authenticator = 0x00',
      ]);
      expect(nak).toMatch(/Received CoA-NAK/);
      expect(nak).toMatch(/Error-Cause = Session-Context-Not-Found/);
      expect(simulator.received.map((request) => request.verified)).toEqual([true, true]);
    } finally {
      await simulator.close();
    }
  });
});

/**
 * The whole loop with real FreeRADIUS on both sides: radtest logs in through the service's
 * FreeRADIUS, radclient sends the accounting Start, the operator blocks the user, and the worker
 * (its real loop) sends the Disconnect-Request to FreeRADIUS playing the NAS, and the webhook.
 */
for (const kind of databaseKinds()) {
  describe(`block → Disconnect-ACK through FreeRADIUS [${kind}]`, () => {
    let app: TestApp;
    let server: StartedFreeRadius;
    let nas: FreeRadiusNas;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      nas = await startFreeRadiusNas(NAS_SECRET, [LOOP_SESSION]);
      receiver = await WebhookReceiver.start(WEBHOOK_SECRET);
      app = await startTestApp(kind, {
        UNAUTH_DISPATCHER: 'radius,webhook',
        UNAUTH_WEBHOOK_URL: receiver.url,
        UNAUTH_WEBHOOK_SECRET: WEBHOOK_SECRET,
        RADIUS_DM_TIMEOUT_MS: '500',
        WORKER_ENABLED: 'true',
        UNAUTH_POLL_INTERVAL_MS: '50',
        UNAUTH_RETRY_BASE_MS: '100',
        SHUTDOWN_TIMEOUT_SECONDS: '2',
        LOG_LEVEL: 'fatal',
      });
      await app.app.listen(0, '127.0.0.1');
      const { port } = app.app.getHttpServer().address() as AddressInfo;
      await app.app.get(NasService).add({
        venueId: 'venue-a',
        name: 'loop-nas',
        ipAddress: '127.0.0.1',
        secret: NAS_SECRET,
        coaPort: nas.coaPort,
      });
      server = await startFreeRadius({
        apiUrl: `http://127.0.0.1:${port}`,
        token: await app.createToken({ permissions: ['radius'] }),
        restTimeoutMs: 5000,
        clients: [{ name: 'loop-nas', ipAddress: '127.0.0.1', secret: NAS_SECRET, requireMessageAuthenticator: false }],
      });
    });

    afterAll(async () => {
      await server?.close();
      await app?.close();
      await nas?.close();
      await receiver?.close();
    });

    it('radtest login, accounting Start, PUT blocked: Disconnect-ACK, job done, session ended, webhook delivered', async () => {
      await nas.explainFailures(() =>
        server.explainFailures(async () => {
          const user = await givenUser(app);
          expect((await radtest(server.authPort, NAS_SECRET, user.username!, PASSWORD)).type).toBe('Access-Accept');
          const start = await radclient(server.acctPort, 'acct', NAS_SECRET, {
            'Acct-Status-Type': 'Start',
            'User-Name': user.username!,
            'Acct-Session-Id': LOOP_SESSION,
            'NAS-IP-Address': '127.0.0.1',
            'Calling-Station-Id': 'AA-BB-CC-77-00-01',
            'Framed-IP-Address': '10.77.0.1',
          });
          expect(start.type).toBe('Accounting-Response');
          const sessions = app.dataSource.getRepository(SessionEntity);
          expect(await sessions.findBy({ userId: user._id })).toEqual([
            expect.objectContaining({ status: 'active', acctSessionId: LOOP_SESSION, nasSourceIp: '127.0.0.1' }),
          ]);

          await api(app).users.update(user._id, { status: 'blocked' }).expect(200);

          const jobs = app.dataSource.getRepository(UnauthJobEntity);
          await waitFor(async () => (await jobs.findBy({ userId: user._id }))[0]?.status === 'done');
          const [job] = await jobs.findBy({ userId: user._id });
          expect(job.deliveries?.radius).toMatchObject({ status: 'done' });
          expect(Object.values(job.deliveries!.radius.sessions!)).toEqual([
            expect.objectContaining({ result: 'acked', nas: 'loop-nas' }),
          ]);
          expect(job.deliveries?.webhook).toMatchObject({ status: 'done' });
          expect(receiver.deliveries.filter((delivery) => delivery.idempotencyKey === job.id)).toHaveLength(1);
          const [session] = await sessions.findBy({ userId: user._id });
          expect(session).toMatchObject({ status: 'expired', terminateCause: 'disconnected' });
        }),
      );
    });
  });
}
