import type { UnauthJobDto } from '../src/hotspot-users/dto/unauth-job.response.js';
import { NasService } from '../src/nas/nas.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { api, API_PATH, USERS_PATH } from './support/api-client.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { givenUser, startSession } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { radiusCall, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Following a disconnect through the API: the Link header of a change that wrote unauth jobs, and
 * the two read endpoints, with the worker delivering to NASes played by NasSimulator (ACK, NAK,
 * silence). The worker loop is off: the tests call processBatch on a ManualClock.
 */

const NAS_SECRET = 'nas-shared-secret-follow';
const MAX_ATTEMPTS = 2;
const JOBS_PATH = `${API_PATH}/unauth-jobs`;
const LINK = /^<\/api\/v1\/unauth-jobs\/([^>]+)>; rel="unauth-job"$/;

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

describe.each(databaseKinds())('following unauth jobs through the API [%s]', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let clock: ManualClock;
  let worker: UnauthJobWorker;
  let radiusToken: string;
  let nasA: NasSimulator;
  let nasB: NasSimulator;
  const registered: string[] = [];

  beforeAll(async () => {
    nasA = await NasSimulator.start(NAS_SECRET);
    nasB = await NasSimulator.start(NAS_SECRET, '127.0.0.2');
    clock = new ManualClock(new Date());
    database = await createTestDatabase(kind);
    testApp = await startTestApp(
      kind,
      {
        UNAUTH_DISPATCHER: 'radius',
        RADIUS_DM_TIMEOUT_MS: '100',
        RADIUS_DM_RETRIES: '0',
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
    await nasA?.close();
    await nasB?.close();
  });

  beforeEach(() => {
    clock.advance(Date.now() - clock.now().getTime());
  });

  afterEach(async () => {
    for (const nas of [nasA, nasB]) {
      nas.answer = () => 'ack';
      nas.received.length = 0;
    }
    await testApp.database.run((em) => em.query('DELETE FROM unauth_jobs'));
    for (const name of registered.splice(0)) await testApp.app.get(NasService).remove(name);
  });

  async function registerNas(simulator: NasSimulator, venueId = 'venue-a') {
    const nas = await testApp.app.get(NasService).add({
      venueId,
      name: unique('nas'),
      ipAddress: simulator.address,
      secret: NAS_SECRET,
      coaPort: simulator.port,
      vendor: 'mikrotik',
    });
    registered.push(nas.name);
    return { name: nas.name, ip: simulator.address };
  }

  /** A session of `username` as the NAS's accounting Start reports it. */
  async function accountingStart(nas: { name: string; ip: string }, username: string) {
    await radiusCall(
      testApp,
      radiusToken,
      'accounting',
      nas,
      rlmBody({
        'Acct-Status-Type': 'Start',
        'User-Name': username,
        'Acct-Session-Id': unique('acct'),
        'Acct-Unique-Session-Id': unique('unique'),
        'Calling-Station-Id': 'AA-BB-CC-00-00-01',
        'Framed-IP-Address': '10.0.0.5',
        'NAS-IP-Address': '192.0.2.10',
      }),
    ).expect(204);
  }

  /** The job ids a Link header names, in order; [] without one. */
  function linkedJobs(link: string | undefined): string[] {
    if (link === undefined) return [];
    return link.split(', ').map((value) => {
      const match = LINK.exec(value);
      if (match === null) throw new Error(`not an unauth-job link: ${value}`);
      return match[1];
    });
  }

  const getJob = (id: string, token?: string) =>
    testApp.http.get(`${JOBS_PATH}/${id}`).set('Authorization', `Bearer ${token ?? testApp.adminToken}`);
  const jobsOfUser = (id: string, query = '', token?: string) =>
    testApp.http
      .get(`${USERS_PATH}/${id}/unauth-jobs${query}`)
      .set('Authorization', `Bearer ${token ?? testApp.adminToken}`);

  /** A user with one session on each NAS given, blocked through the API: the job its answer links. */
  async function blockedWithSessions(...nases: Array<{ name: string; ip: string }>) {
    const user = await givenUser(testApp);
    for (const nas of nases) await accountingStart(nas, user.username!);
    const answer = await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const [jobId] = linkedJobs(answer.headers.link);
    return { user, jobId, answer };
  }

  /** The job after the worker's next attempt at it. */
  async function afterNextAttempt(jobId: string): Promise<UnauthJobDto> {
    const pending = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    clock.advance(new Date(pending.nextAttemptAt!).getTime() - clock.now().getTime());
    expect(await worker.processBatch()).toBe(1);
    return (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
  }

  it('a block of a user with open sessions links its job; once delivered, the job is done with an ACK per session', async () => {
    const nas = await registerNas(nasA);
    const { user, jobId, answer } = await blockedWithSessions(nas, nas);
    // The answer's body is the v1 body, unchanged.
    expect(Object.keys(answer.body).sort()).toEqual(['data', 'message', 'success']);
    expect(answer.headers.link).toMatch(LINK);

    const pending = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    expect(pending).toMatchObject({ id: jobId, userId: user._id, reason: 'blocked', status: 'pending', attempts: 0 });
    expect(pending.nextAttemptAt).not.toBeNull();
    expect(pending.deliveries).toEqual([]);
    expect(pending.sessions.map((session) => [session.outcome, session.state])).toEqual([
      ['waiting', 'pending'],
      ['waiting', 'pending'],
    ]);

    expect(await worker.processBatch()).toBe(1);
    expect(nasA.verified).toHaveLength(2);

    const done = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    expect(done).toMatchObject({ status: 'done', attempts: 1, nextAttemptAt: null });
    expect(done.deliveries).toEqual([{ dispatcher: 'radius', status: 'done', attempts: 1 }]);
    expect(done.sessions).toHaveLength(2);
    for (const session of done.sessions) {
      expect(session).toMatchObject({
        venueId: 'venue-a',
        macAddress: 'AA:BB:CC:00:00:01',
        ipAddress: '10.0.0.5',
        nas: nas.name,
        outcome: 'ack',
        state: 'done',
        errorCause: null,
        attempts: 1,
      });
      expect(session.at).not.toBeNull();
    }
    // Nothing of the lease nor of what identifies the session on the NAS.
    const text = JSON.stringify(done);
    for (const hidden of ['leaseExpiresAt', 'acctSessionId', 'nasSourceIp', 'lastError', NAS_SECRET]) {
      expect(text).not.toContain(hidden);
    }

    const list = await jobsOfUser(user._id).expect(200);
    expect(list.body).toEqual({
      success: true,
      data: [done],
      pagination: { page: 1, limit: 20, total: 1, pages: 1 },
    });
  });

  it('a NAK shows its Error-Cause, by number and name', async () => {
    const nas = await registerNas(nasA);
    nasA.answer = () => ({ nak: 404 });
    const { jobId } = await blockedWithSessions(nas);

    expect(await worker.processBatch()).toBe(1);

    const job = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    expect(job).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(job.sessions).toEqual([
      expect.objectContaining({
        outcome: 'nak',
        state: 'failed',
        errorCause: { code: 404, name: 'Invalid-Request' },
        detail: expect.stringContaining('Disconnect-NAK with Error-Cause 404'),
      }),
    ]);
  });

  it('a NAS that does not answer: no answer, tried again, then failed once the attempts run out', async () => {
    const nas = await registerNas(nasA);
    nasA.answer = () => 'silent';
    const { jobId } = await blockedWithSessions(nas);

    expect(await worker.processBatch()).toBe(1);
    const retrying = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    expect(retrying).toMatchObject({ status: 'pending', attempts: 1 });
    expect(retrying.nextAttemptAt).not.toBeNull();
    expect(retrying.sessions).toEqual([
      expect.objectContaining({ outcome: 'no-answer', state: 'pending', errorCause: null, attempts: 1 }),
    ]);

    const failed = await afterNextAttempt(jobId);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(failed.sessions).toEqual([
      expect.objectContaining({ outcome: 'no-answer', state: 'failed', attempts: MAX_ATTEMPTS }),
    ]);
  });

  it('a session no NAS reported is not sent, and says why', async () => {
    const user = await givenUser(testApp);
    await startSession(testApp, { userId: user._id, venueId: 'venue-a', macAddress: 'AA:BB:CC:00:00:77' });
    const answer = await api(testApp).users.expire(user._id).expect(200);
    const [jobId] = linkedJobs(answer.headers.link);

    expect(await worker.processBatch()).toBe(1);

    const job = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    expect(job).toMatchObject({ reason: 'expired', status: 'done' });
    expect(job.sessions).toEqual([
      expect.objectContaining({
        macAddress: 'AA:BB:CC:00:00:77',
        outcome: 'not-sent',
        state: 'done',
        detail: 'no NAS reported this session (started by the CLI)',
      }),
    ]);
  });

  it('venue scope: a token of another venue gets 404 for the job and the list; after a delete, the sessions decide', async () => {
    const nas = await registerNas(nasA);
    const { user, jobId } = await blockedWithSessions(nas);
    const venueA = await testApp.createToken({ venueIds: ['venue-a'] });
    const venueB = await testApp.createToken({ venueIds: ['venue-b'] });

    await getJob(jobId, venueA).expect(200);
    await jobsOfUser(user._id, '', venueA).expect(200);
    const hidden = await getJob(jobId, venueB).expect(404);
    expect(hidden.body).toEqual({ success: false, message: 'Unauth job not found' });
    const hiddenUser = await jobsOfUser(user._id, '', venueB).expect(404);
    expect(hiddenUser.body).toEqual({ success: false, message: 'Kullanıcı bulunamadı' });
    // A venue context outside the token's venues is a 403, as on get.
    await jobsOfUser(user._id, '?venueId=venue-a', venueB).expect(403);
    // One the user is not in: 404.
    await jobsOfUser(user._id, '?venueId=venue-c').expect(404);

    // Active again with a new session, so that the delete writes a job of its own.
    await api(testApp).users.update(user._id, { status: 'active' }).expect(200);
    await accountingStart(nas, user.username!);
    const removed = await api(testApp).users.remove(user._id).expect(200);
    expect(removed.body).toEqual({ success: true, message: 'Kullanıcı başarıyla silindi' });
    const [deletedJob] = linkedJobs(removed.headers.link);
    expect(deletedJob).toBeDefined();

    // The user is gone: its jobs are read one by one, seen by the venues of their sessions.
    const job = (await getJob(deletedJob, venueA).expect(200)).body.data as UnauthJobDto;
    expect(job).toMatchObject({ reason: 'deleted', userId: user._id });
    await getJob(deletedJob, venueB).expect(404);
    await getJob(jobId, venueA).expect(200);
    await jobsOfUser(user._id).expect(404);
  });

  it('a change that writes no job has no Link header', async () => {
    const user = await givenUser(testApp);
    const renamed = await api(testApp).users.update(user._id, { name: 'Renamed' }).expect(200);
    expect(renamed.headers.link).toBeUndefined();
    const expired = await api(testApp).users.expire(user._id).expect(200);
    expect(expired.headers.link).toBeUndefined();
    const removed = await api(testApp).users.remove(user._id).expect(200);
    expect(removed.headers.link).toBeUndefined();
    const created = await api(testApp).users.create({
      name: 'Link-less',
      loginMethod: 'guest',
      venueIds: ['venue-a'],
    });
    expect(created.status).toBe(201);
    expect(created.headers.link).toBeUndefined();
  });

  it('a block always writes a job, even without sessions: linked, and done with no session to report', async () => {
    const user = await givenUser(testApp);
    const answer = await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const [jobId] = linkedJobs(answer.headers.link);
    expect(await worker.processBatch()).toBe(1);
    const job = (await getJob(jobId).expect(200)).body.data as UnauthJobDto;
    expect(job).toMatchObject({ status: 'done', sessions: [], nextAttemptAt: null });
  });

  it('a PUT that takes a venue and changes expiresAt links both of its jobs, comma-separated', async () => {
    const inA = await registerNas(nasA, 'venue-a');
    const inB = await registerNas(nasB, 'venue-b');
    const user = await givenUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
    await accountingStart(inA, user.username!);
    await accountingStart(inB, user.username!);
    const later = new Date(clock.now().getTime() + 7_200_000).toISOString();

    const answer = await api(testApp)
      .users.update(user._id, { venueIds: ['venue-a'], expiresAt: later })
      .expect(200);
    const ids = linkedJobs(answer.headers.link);
    expect(ids).toHaveLength(2);
    const jobs = await Promise.all(ids.map(async (id) => (await getJob(id).expect(200)).body.data as UnauthJobDto));
    expect(jobs.map((job) => [job.reason, job.sessions.map((session) => session.venueId)])).toEqual([
      ['venue-removed', ['venue-b']],
      ['coa', ['venue-a']],
    ]);
    expect(jobs[1].expiresAt).toBe(later);

    expect(await worker.processBatch()).toBe(2);
    const list = await jobsOfUser(user._id).expect(200);
    // Newest first; both written in one transaction at one instant, so the later id comes first.
    expect(list.body.data.map((job: UnauthJobDto) => [job.id, job.status, job.sessions[0].outcome])).toEqual([
      [ids[1], 'done', 'ack'],
      [ids[0], 'done', 'ack'],
    ]);
  });

  it('a replayed POST expire (same Idempotency-Key) links the same job', async () => {
    const nas = await registerNas(nasA);
    const user = await givenUser(testApp);
    await accountingStart(nas, user.username!);
    const key = unique('key');
    const first = await api(testApp).users.expire(user._id).set('Idempotency-Key', key).expect(200);
    const replay = await api(testApp).users.expire(user._id).set('Idempotency-Key', key).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(linkedJobs(first.headers.link)).toHaveLength(1);
    expect(replay.headers.link).toBe(first.headers.link);
    expect(replay.body).toEqual(first.body);
  });

  it("pages a user's jobs newest first, as the user list pages", async () => {
    const user = await givenUser(testApp);
    const written: string[] = [];
    for (const status of ['blocked', 'active', 'blocked', 'active', 'blocked']) {
      clock.advance(1000);
      const answer = await api(testApp).users.update(user._id, { status }).expect(200);
      written.push(...linkedJobs(answer.headers.link));
    }
    expect(written).toHaveLength(3);
    const first = await jobsOfUser(user._id, '?limit=2').expect(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect(first.body.data.map((job: UnauthJobDto) => job.id)).toEqual([written[2], written[1]]);
    const second = await jobsOfUser(user._id, '?limit=2&page=2').expect(200);
    expect(second.body.data.map((job: UnauthJobDto) => job.id)).toEqual([written[0]]);
    const past = await jobsOfUser(user._id, '?page=9').expect(200);
    expect(past.body.data).toEqual([]);
  });

  it.each([
    ['an unknown id', 'no-such-job'],
    ['a well-formed unknown id', '019a9c4f-0c21-7b10-9d3e-2a4b6c8d0e1f'],
    ['an over-long id', 'x'.repeat(300)],
    ['an id that cannot be decoded', '%ZZ'],
    ['an id with characters beyond the BMP', '%F0%9F%98%80'],
    ['an id with quotes', '%27%22--'],
  ])('GET /unauth-jobs/:id with %s is a 404', async (_name, id) => {
    const response = await getJob(id).expect(404);
    expect(response.body).toEqual({ success: false, message: 'Unauth job not found' });
  });

  it('refuses bad queries by name, and needs a token with read permission', async () => {
    const user = await givenUser(testApp);
    const unknown = await getJob('no-such-job').query({ stauts: 'done' }).expect(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'stauts' })]);
    for (const query of ['?limit=101', '?page=0', '?limit=1.5', '?venueId=a%20b', '?status=done']) {
      await jobsOfUser(user._id, query).expect(400);
    }
    await jobsOfUser('no-such-user').expect(404);
    await testApp.http.get(`${JOBS_PATH}/no-such-job`).expect(401);
    const radiusOnly = await testApp.createToken({ permissions: ['radius'] });
    await getJob('no-such-job', radiusOnly).expect(403);
  });
});
