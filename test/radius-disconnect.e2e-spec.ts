import { NasService } from '../src/nas/nas.service.js';
import { RADIUS_CODES } from '../src/radius-packets/radius-packet.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { api } from './support/api-client.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { givenUser, startSession } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { radiusCall, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * RFC 5176 delivery through the `radius,webhook` dispatchers: sessions recorded by accounting (over
 * HTTP, as rlm_rest sends it), NASes played by NasSimulator on 127.0.0.1 and 127.0.0.2 (verifying
 * each request with the shared secret; a NAS is registered per test and removed after it, since two
 * NASes may not share an address), a real webhook receiver beside them. The worker loop is off: the tests
 * call processBatch on a ManualClock, so backoff needs no waiting.
 */

const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789abcdef';
const NAS_SECRET = 'nas-shared-secret-e2e';
const DM_TIMEOUT_MS = 100;
const MAX_ATTEMPTS = 3;

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

describe.each(databaseKinds())('RFC 5176 Disconnect and CoA through the worker [%s]', (kind: DatabaseKind) => {
  let receiver: WebhookReceiver;
  let database: TestDatabase;
  let testApp: TestApp;
  let clock: ManualClock;
  let worker: UnauthJobWorker;
  let radiusToken: string;
  let nasA: NasSimulator;
  let nasB: NasSimulator;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start(WEBHOOK_SECRET);
    nasA = await NasSimulator.start(NAS_SECRET);
    nasB = await NasSimulator.start(NAS_SECRET, '127.0.0.2');
    clock = new ManualClock(new Date());
    database = await createTestDatabase(kind);
    testApp = await startTestApp(
      kind,
      {
        UNAUTH_DISPATCHER: 'radius,webhook',
        UNAUTH_WEBHOOK_URL: receiver.url,
        UNAUTH_WEBHOOK_SECRET: WEBHOOK_SECRET,
        RADIUS_DM_TIMEOUT_MS: String(DM_TIMEOUT_MS),
        RADIUS_DM_RETRIES: '1',
        UNAUTH_RETRY_BASE_MS: '1000',
        UNAUTH_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
        WORKER_ENABLED: 'false',
        SHUTDOWN_TIMEOUT_SECONDS: '1',
        LOG_LEVEL: 'fatal',
      },
      { database, clock },
    );
    worker = testApp.app.get(UnauthJobWorker);
    radiusToken = await testApp.createToken({ permissions: ['radius'] });
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
    await receiver?.close();
    await nasA?.close();
    await nasB?.close();
  });

  beforeEach(() => {
    clock.advance(Date.now() - clock.now().getTime());
  });

  afterEach(async () => {
    receiver.reply = () => 200;
    receiver.deliveries.length = 0;
    for (const nas of [nasA, nasB]) {
      nas.answer = () => 'ack';
      nas.received.length = 0;
    }
    await testApp.database.run((em) => em.query('DELETE FROM unauth_jobs'));
    for (const name of registered.splice(0)) await testApp.app.get(NasService).remove(name);
  });

  /** The NASes the running test registered. */
  const registered: string[] = [];

  /**
   * Registers `simulator` as a NAS: as its address, or as the network 127.0.0.0/24 it lies in; `source`
   * is the address its packets come from.
   */
  async function registerNas(
    simulator: NasSimulator,
    options: { network?: boolean; coaPort?: number; vendor?: 'unifi' } = {},
  ) {
    const nas = await testApp.app.get(NasService).add({
      venueId: 'venue-a',
      name: unique('nas'),
      ipAddress: options.network ? '127.0.0.0/24' : simulator.address,
      secret: NAS_SECRET,
      coaPort: options.coaPort ?? simulator.port,
      vendor: options.vendor ?? 'mikrotik',
    });
    registered.push(nas.name);
    return { ...nas, source: simulator.address };
  }

  /** An accounting Start from `nas`, as FreeRADIUS passes it on. */
  async function accountingStart(nas: { name: string; source: string }, username: string, acctSessionId: string) {
    await accountingOf(nas, 'Start', { username, acctSessionId, uniqueId: unique('unique') });
  }

  const sessionsOf = (userId: string) => testApp.dataSource.getRepository(SessionEntity).findBy({ userId });
  const jobsOf = (userId: string) =>
    testApp.dataSource.getRepository(UnauthJobEntity).find({ where: { userId }, order: { createdAt: 'ASC' } });

  /** A user with one accounting session on each NAS given, then blocked through the API: its one job. */
  async function blockedWithSessions(...nases: Array<{ name: string; source: string }>) {
    const user = await givenUser(testApp);
    const acctIds = nases.map(() => unique('acct'));
    for (const [index, nas] of nases.entries()) await accountingStart(nas, user.username!, acctIds[index]);
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const [job] = await jobsOf(user._id);
    return { user, acctIds, job };
  }

  async function nextAttempt(jobId: string): Promise<UnauthJobEntity> {
    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: jobId });
    clock.advance(row.nextAttemptAt.getTime() - clock.now().getTime());
    expect(await worker.processBatch()).toBe(1);
    return testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: jobId });
  }

  it('ACK: the Disconnect-Request identifies the session and verifies; the job is done and the session closed', async () => {
    const nas = await registerNas(nasA);
    const { user, acctIds, job } = await blockedWithSessions(nas);
    expect(job).toMatchObject({ reason: 'blocked', status: 'pending' });

    expect(await worker.processBatch()).toBe(1);

    expect(nasA.received).toHaveLength(1);
    const [request] = nasA.received;
    expect(request.verified).toBe(true);
    expect(request.packet?.code).toBe(RADIUS_CODES.disconnectRequest);
    expect({ userName: request.userName, acctSessionId: request.acctSessionId, nasIp: request.nasIpAddress }).toEqual({
      userName: user.username,
      acctSessionId: acctIds[0],
      nasIp: '192.0.2.10',
    });
    // Identification only (User-Name, Acct-Session-Id, NAS-IP-Address), the Event-Timestamp (the
    // worker's clock, in seconds) and the Message-Authenticator.
    expect(request.packet?.attributes.map((attribute) => attribute.type)).toEqual([1, 44, 4, 55, 80]);
    expect(request.eventTimestamp).toBe(Math.floor(clock.now().getTime() / 1000));

    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    const sessionId = row.sessions[0].id;
    expect(row.deliveries?.radius).toMatchObject({
      status: 'done',
      sessions: { [sessionId]: { result: 'acked', errorCause: null, nas: nas.name, attempts: 1 } },
    });
    expect(row.deliveries?.webhook).toMatchObject({ status: 'done', attempts: 1 });
    expect(receiver.deliveries.filter((delivery) => delivery.idempotencyKey === job.id)).toHaveLength(1);
    const [session] = await sessionsOf(user._id);
    expect(session).toMatchObject({ status: 'expired', terminateCause: 'disconnected' });
    expect(session.endedAt).not.toBeNull();
  });

  it("the Disconnect names the session as the NAS reported it: its User-Name, not the user's username now", async () => {
    const nas = await registerNas(nasA);
    const user = await givenUser(testApp);
    // Usernames match whatever their case; the NAS keeps the name as the guest typed it.
    const typed = user.username!.toUpperCase();
    await accountingStart(nas, typed, 'acct-typed');
    const longId = 'x'.repeat(65);
    await accountingStart(nas, typed, longId);
    await api(testApp)
      .users.update(user._id, { username: `renamed-${user.username!}`, status: 'blocked' })
      .expect(200);

    expect(await worker.processBatch()).toBe(1);

    const sent = nasA.received.map((request) => ({ userName: request.userName, acctSessionId: request.acctSessionId }));
    expect(sent.sort((a, b) => String(a.acctSessionId).localeCompare(String(b.acctSessionId)))).toEqual([
      { userName: typed, acctSessionId: 'acct-typed' },
      // An Acct-Session-Id longer than the service keeps is not sent cut: the others identify the session.
      { userName: typed, acctSessionId: null },
    ]);
  });

  it('NAK 503 (session already gone): done, and the session closed', async () => {
    const nas = await registerNas(nasA, { network: true });
    nasA.answer = () => ({ nak: 503 });
    const { user, job } = await blockedWithSessions(nas);

    await worker.processBatch();

    // Registered as a network: sent to the source address its accounting came from.
    expect(nasA.verified).toHaveLength(1);
    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row.status).toBe('done');
    expect(Object.values(row.deliveries!.radius.sessions!)).toEqual([
      expect.objectContaining({ result: 'gone', errorCause: 503 }),
    ]);
    expect((await sessionsOf(user._id))[0]).toMatchObject({ terminateCause: 'disconnect-not-found' });
  });

  it('NAK 404 (the NAS refuses the request): failed at once with the cause, never resent', async () => {
    const nas = await registerNas(nasA);
    nasA.answer = () => ({ nak: 404 });
    const { user, job } = await blockedWithSessions(nas);

    await worker.processBatch();

    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toContain('Disconnect-NAK with Error-Cause 404');
    expect(Object.values(row.deliveries!.radius.sessions!)).toEqual([
      expect.objectContaining({ result: 'failed', errorCause: 404, nas: nas.name }),
    ]);
    expect(nasA.received).toHaveLength(1);
    expect((await sessionsOf(user._id))[0].terminateCause).toBeNull();
  });

  it('silence: retransmitted byte-identically, retried with backoff, then delivered when the NAS answers', async () => {
    const nas = await registerNas(nasA);
    nasA.answer = () => 'silent';
    const { job } = await blockedWithSessions(nas);

    await worker.processBatch();
    // RADIUS_DM_RETRIES=1: two transmissions, the same bytes from the same port.
    expect(nasA.received).toHaveLength(2);
    expect(nasA.received[1].raw).toEqual(nasA.received[0].raw);
    expect(nasA.received[1].from.port).toBe(nasA.received[0].from.port);
    let row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('no answer from NAS');
    expect(row.deliveries?.webhook.status).toBe('done');

    nasA.answer = () => 'ack';
    row = await nextAttempt(job.id);
    expect(row).toMatchObject({ status: 'done', attempts: 2, lastError: null });
    expect(Object.values(row.deliveries!.radius.sessions!)).toEqual([
      expect.objectContaining({ result: 'acked', attempts: 2 }),
    ]);
    // The webhook was delivered on the first attempt: not sent again.
    expect(receiver.deliveries.filter((delivery) => delivery.idempotencyKey === job.id)).toHaveLength(1);
  });

  it('two sessions on two NASes, one silent: a retry sends only the unanswered one', async () => {
    const first = await registerNas(nasA);
    const second = await registerNas(nasB);
    nasB.answer = () => 'silent';
    const { job } = await blockedWithSessions(first, second);

    await worker.processBatch();
    expect(nasA.verified).toHaveLength(1);
    expect(nasB.verified).toHaveLength(2);

    nasB.answer = () => 'ack';
    const row = await nextAttempt(job.id);
    expect(nasA.verified).toHaveLength(1);
    expect(nasB.verified).toHaveLength(3);
    expect(row.status).toBe('done');
    expect(Object.values(row.deliveries!.radius.sessions!).map((outcome) => outcome.result)).toEqual([
      'acked',
      'acked',
    ]);
  });

  it('a failing webhook is retried without resending the acknowledged Disconnect', async () => {
    const nas = await registerNas(nasA);
    receiver.reply = () => 500;
    const { job } = await blockedWithSessions(nas);

    await worker.processBatch();
    let row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row.status).toBe('pending');
    expect(row.lastError).toBe('webhook: webhook answered HTTP 500');
    expect(row.deliveries?.radius.status).toBe('done');

    receiver.reply = () => 200;
    row = await nextAttempt(job.id);
    expect(row.status).toBe('done');
    expect(nasA.received).toHaveLength(1);
    expect(receiver.deliveries.filter((delivery) => delivery.idempotencyKey === job.id)).toHaveLength(2);
  });

  it('a NAS without RFC 5176 listener and a session without NAS are skipped with the reason', async () => {
    const nas = await registerNas(nasA, { coaPort: 0 });
    const user = await givenUser(testApp);
    await accountingStart(nas, user.username!, unique('acct'));
    await startSession(testApp, { userId: user._id, macAddress: 'AA:BB:CC:00:00:99' });
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const [job] = await jobsOf(user._id);

    await worker.processBatch();

    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row.status).toBe('done');
    expect(nasA.received).toHaveLength(0);
    expect(
      Object.values(row.deliveries!.radius.sessions!)
        .map((outcome) => [outcome.result, outcome.detail])
        .sort(),
    ).toEqual([
      ['skipped', `NAS ${nas.name} has no RFC 5176 listener (CoA port 0)`],
      ['skipped', 'no NAS reported this session (started by the CLI)'],
    ]);
  });

  it('a changed expiresAt sends a CoA-Request with the new Session-Timeout; the webhook skips it', async () => {
    const nas = await registerNas(nasA);
    const user = await givenUser(testApp, { expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    const acctId = unique('acct');
    await accountingStart(nas, user.username!, acctId);
    const later = new Date(clock.now().getTime() + 7_200_000);

    await api(testApp).users.update(user._id, { expiresAt: later.toISOString() }).expect(200);
    const [job] = await jobsOf(user._id);
    expect(job).toMatchObject({ reason: 'coa', status: 'pending' });
    expect(job.expiresAt?.toISOString()).toBe(later.toISOString());

    await worker.processBatch();

    expect(nasA.verified).toHaveLength(1);
    const [request] = nasA.verified;
    expect(request.packet?.code).toBe(RADIUS_CODES.coaRequest);
    expect(request.acctSessionId).toBe(acctId);
    expect(request.sessionTimeout).toBeGreaterThan(7190);
    expect(request.sessionTimeout).toBeLessThanOrEqual(7200);
    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row.status).toBe('done');
    expect(row.deliveries?.webhook.status).toBe('skipped');
    expect(receiver.deliveries).toHaveLength(0);
    // The session goes on.
    expect((await sessionsOf(user._id))[0]).toMatchObject({ status: 'active', terminateCause: null });

    // The same value again, or a PUT without expiresAt: no CoA.
    await api(testApp).users.update(user._id, { expiresAt: later.toISOString() }).expect(200);
    await api(testApp).users.update(user._id, { name: 'Renamed' }).expect(200);
    expect(await jobsOf(user._id)).toHaveLength(1);
  });

  it.each([401, 405, 406])(
    'a CoA-NAK with Error-Cause %i marks the NAS as not accepting CoA: later expiry changes write no CoA job',
    async (cause) => {
      const nas = await registerNas(nasA);
      const user = await givenUser(testApp, { expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
      await accountingStart(nas, user.username!, unique('acct'));
      nasA.answer = () => ({ nak: cause });

      await api(testApp).users.update(user._id, {
        expiresAt: new Date(clock.now().getTime() + 7_200_000).toISOString(),
      });
      await worker.processBatch();

      const [job] = await jobsOf(user._id);
      expect(job.status).toBe('failed');
      expect(Object.values(job.deliveries!.radius.sessions!)).toEqual([
        expect.objectContaining({
          result: 'failed',
          errorCause: cause,
          detail: `NAS ${nas.name} answered CoA-NAK with Error-Cause ${cause}: it does not accept CoA (marked so)`,
        }),
      ]);
      const registry = testApp.app.get(NasService);
      expect((await registry.list()).find((entry) => entry.id === nas.id)?.acceptsCoa).toBe(false);

      nasA.received.length = 0;
      await api(testApp)
        .users.update(user._id, { expiresAt: new Date(clock.now().getTime() + 10_800_000).toISOString() })
        .expect(200);
      expect(await jobsOf(user._id)).toHaveLength(1);

      // Set to accept CoA again, the NAS gets the next change.
      await registry.update(nas.id, { acceptsCoa: true });
      nasA.answer = () => 'ack';
      await api(testApp)
        .users.update(user._id, { expiresAt: new Date(clock.now().getTime() + 14_400_000).toISOString() })
        .expect(200);
      await worker.processBatch();
      expect((await jobsOf(user._id)).map((entry) => entry.status)).toEqual(['failed', 'done']);
      expect(nasA.verified.map((request) => request.packet?.code)).toEqual([RADIUS_CODES.coaRequest]);
    },
  );

  it('a CoA-NAK 404 and a Disconnect-NAK 401 leave the NAS accepting CoA', async () => {
    const nas = await registerNas(nasA);
    nasA.answer = () => ({ nak: 401 });
    await blockedWithSessions(nas);
    const user = await givenUser(testApp, { expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    await accountingStart(nas, user.username!, unique('acct'));
    nasA.answer = () => ({ nak: 404 });
    await api(testApp).users.update(user._id, { expiresAt: new Date(clock.now().getTime() + 7_200_000).toISOString() });
    await worker.processBatch();
    await worker.processBatch();
    expect(nasA.verified.map((request) => request.packet?.code).sort()).toEqual(
      [RADIUS_CODES.disconnectRequest, RADIUS_CODES.coaRequest].sort(),
    );
    expect((await testApp.app.get(NasService).list()).find((entry) => entry.id === nas.id)?.acceptsCoa).toBe(true);
  });

  it('a CoA job is not sent to a NAS marked as refusing CoA, nor once its expiresAt has passed', async () => {
    const refusing = await registerNas(nasA);
    const accepting = await registerNas(nasB);
    const user = await givenUser(testApp, { expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    await accountingStart(refusing, user.username!, unique('acct'));
    await accountingStart(accepting, user.username!, unique('acct'));
    const soon = new Date(clock.now().getTime() + 60_000);
    await api(testApp).users.update(user._id, { expiresAt: soon.toISOString() }).expect(200);
    const [job] = await jobsOf(user._id);
    expect(job.sessions).toHaveLength(2);
    // Marked after the job was written (by another job's NAK, or by an operator).
    await testApp.app.get(NasService).update(refusing.id, { acceptsCoa: false });
    clock.advance(61_000);

    await worker.processBatch();

    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row.status).toBe('done');
    expect(nasA.received).toHaveLength(0);
    expect(nasB.received).toHaveLength(0);
    expect(
      Object.values(row.deliveries!.radius.sessions!)
        .map((outcome) => [outcome.result, outcome.detail])
        .sort(),
    ).toEqual([
      [
        'skipped',
        `NAS ${refusing.name} does not accept CoA-Requests: the session ends at the user's expiresAt through the expiry sweep`,
      ],
      ['skipped', "the new expiresAt has passed: the user's expiry ends the session with a Disconnect-Request"],
    ]);
  });

  it('jobs that fail leave /readyz green', async () => {
    const nas = await registerNas(nasA);
    nasA.answer = () => ({ nak: 402 });
    await blockedWithSessions(nas);
    await worker.processBatch();
    await testApp.http.get('/readyz').expect(200);
  });

  /** An accounting packet of one session from `nas`, as FreeRADIUS passes it on. */
  async function accountingOf(
    nas: { name: string; source: string },
    type: 'Start' | 'Interim-Update' | 'Stop',
    session: { username: string; acctSessionId: string; uniqueId: string },
    sessionTime = 0,
  ) {
    await radiusCall(
      testApp,
      radiusToken,
      'accounting',
      { name: nas.name, ip: nas.source },
      rlmBody({
        'Acct-Status-Type': type,
        'User-Name': session.username,
        'Acct-Session-Id': session.acctSessionId,
        'Acct-Unique-Session-Id': session.uniqueId,
        'Calling-Station-Id': 'AA-BB-CC-00-00-01',
        'Framed-IP-Address': '10.0.0.5',
        'NAS-IP-Address': '192.0.2.10',
        'Acct-Session-Time': sessionTime,
      }),
    ).expect(204);
  }

  /** A blocked user whose one session's Disconnect went unanswered: its job, pending a retry. */
  async function unansweredDisconnect(nas: { name: string; source: string }) {
    nasA.answer = () => 'silent';
    const user = await givenUser(testApp);
    const session = { username: user.username!, acctSessionId: unique('acct'), uniqueId: unique('unique') };
    await accountingOf(nas, 'Start', session);
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const [job] = await jobsOf(user._id);
    expect(await worker.processBatch()).toBe(1);
    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row.status).toBe('pending');
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(clock.now().getTime());
    return { user, session, job: row, sent: nasA.received.length };
  }

  async function expectSettledByAccounting(job: UnauthJobEntity, sent: number): Promise<void> {
    // Due at once, rather than at its backoff.
    const due = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(due.nextAttemptAt.getTime()).toBe(clock.now().getTime());
    expect(await worker.processBatch()).toBe(1);
    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: job.id });
    expect(row).toMatchObject({ status: 'done', attempts: 2 });
    expect(Object.values(row.deliveries!.radius.sessions!).map((outcome) => outcome.result)).toEqual(['stopped']);
    // Nothing more was sent to the NAS.
    expect(nasA.received).toHaveLength(sent);
    const [session] = await sessionsOf(job.userId);
    expect(session.nasStoppedAt).not.toBeNull();
  }

  it('an Accounting-Stop settles a Disconnect the NAS never answered: the job is due at once, done, and sends nothing more', async () => {
    const nas = await registerNas(nasA);
    const { user, session, job, sent } = await unansweredDisconnect(nas);
    await accountingOf(nas, 'Stop', session, 60);
    await expectSettledByAccounting(job, sent);

    // The NAS reports the session going on after all: what it said of its end no longer holds, and
    // the new job's Disconnect is sent, not settled.
    nasA.answer = () => 'ack';
    await accountingOf(nas, 'Interim-Update', session, 120);
    const [, again] = await jobsOf(user._id);
    expect(again).toMatchObject({ reason: 'enforcement', status: 'pending' });
    expect(await worker.processBatch()).toBe(1);
    expect(nasA.received).toHaveLength(sent + 1);
    const row = await testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id: again.id });
    expect(row.status).toBe('done');
    expect(Object.values(row.deliveries!.radius.sessions!).map((outcome) => outcome.result)).toEqual(['acked']);
  });

  it('an Accounting-On of the NAS settles the Disconnects still owed for its sessions', async () => {
    const nas = await registerNas(nasA);
    const { job, sent } = await unansweredDisconnect(nas);
    await radiusCall(
      testApp,
      radiusToken,
      'accounting',
      { name: nas.name, ip: nas.source },
      rlmBody({ 'Acct-Status-Type': 'Accounting-On', 'NAS-IP-Address': '192.0.2.10', 'Acct-Session-Id': '0' }),
    ).expect(204);
    await expectSettledByAccounting(job, sent);
  });
});
