import { NasService } from '../src/nas/nas.service.js';
import { StaleSessionsSweeper } from '../src/radius/stale-sessions.sweeper.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { api } from './support/api-client.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { accountingStart, radiusCall, registerSimulatedNas, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Disconnects are honest (issue 41, item 5): a job that reached no NAS is never a green "Done" (the
 * v1 status stays `done`, its `notSent` says why; the console shows it as Not sent, with the reason);
 * a session ended here stays in Online now as "disconnecting, not confirmed" until its NAS answers
 * (ACK, NAK 503), reports it over (Stop, Accounting-On) or goes silent on it for the stale window, while
 * the v1 API answers it ended as before; a banner names UNAUTH_DISPATCHER, or the missing CoA port,
 * while Disconnects reach no NAS. Against the real worker, RADIUS dispatcher and a NAS played by
 * NasSimulator on loopback; the worker loop and the stale sweep are off: the tests run them.
 */

const NAS_SECRET = 'nas-shared-secret-disconnects-e2e';
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

/** The environment of every app here: one Disconnect-Request per attempt, answered within 100 ms or not. */
const QUICK = {
  RADIUS_DM_TIMEOUT_MS: '100',
  RADIUS_DM_RETRIES: '0',
  UNAUTH_MAX_ATTEMPTS: '5',
  RADIUS_STALE_SWEEP_INTERVAL: '0',
  WORKER_ENABLED: 'false',
  LOG_LEVEL: 'fatal',
};

/** The row of a session in Online now, or '' when the page does not list it. */
function onlineRow(html: string, sessionId: string): string {
  const start = html.indexOf(`<tr data-session="${sessionId}"`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</tr>', start));
}

/** The row of a job in the jobs list, or '' when the list does not show it. */
function jobRow(html: string, jobId: string): string {
  const link = html.indexOf(`href="/admin/jobs/${jobId}"`);
  if (link < 0) return '';
  return html.slice(html.lastIndexOf('<tr>', link), html.indexOf('</tr>', link));
}

describe.each(databaseKinds())('honest disconnects [%s]', (kind: DatabaseKind) => {
  describe('with the default dispatchers (log and radius) and NASes that answer or not', () => {
    let testApp: TestApp;
    let nas: NasSimulator;
    let nasName: string;
    let portless: { name: string; ip: string };
    let worker: UnauthJobWorker;
    let radiusToken: string;
    let writer: ConsoleBrowser;
    let admin: ConsoleBrowser;

    beforeAll(async () => {
      nas = await NasSimulator.start(NAS_SECRET);
      // No UNAUTH_DISPATCHER: the quick start's default.
      testApp = await startTestApp(kind, QUICK);
      worker = testApp.app.get(UnauthJobWorker);
      radiusToken = await testApp.createToken({ permissions: ['radius'] });
      nasName = unique('nas');
      await registerSimulatedNas(testApp, nas, nasName);
      // A second NAS of the venue, registered without a Disconnect/CoA port (a pfSense captive portal).
      portless = { name: unique('portless'), ip: '127.0.0.2' };
      await testApp.app.get(NasService).add({
        venueId: 'venue-a',
        name: portless.name,
        ipAddress: portless.ip,
        secret: 'a-shared-secret-of-some-length',
        coaPort: 0,
      });
      writer = (await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: ['venue-a'] })).console;
      admin = (await signInConsole(testApp, { admin: true, permissions: ['read', 'write', 'delete'], venueIds: null }))
        .console;
    }, 60_000);

    afterAll(async () => {
      await testApp?.close();
      await nas?.close();
    });

    // Each test starts with no job left to send: those a test left pending are delivered (ACKed) first.
    afterEach(async () => {
      nas.answer = () => 'ack';
      for (let round = 0; round < 10; round++) {
        await testApp.dataSource
          .getRepository(UnauthJobEntity)
          .update({ status: 'pending' }, { nextAttemptAt: new Date(Date.now() - 1000) });
        if ((await worker.processBatch()) === 0) break;
      }
      nas.received.length = 0;
    });

    /** A user of venue-a online through `through` (the simulated NAS unless given): the session and its accounting ids. */
    async function onlineUser(through: { name: string; ip: string } = { name: nasName, ip: nas.address }) {
      const user = await givenUser(testApp);
      const mac = `AA-BB-CC-${(++sequence).toString(16).padStart(2, '0')}-00-01`;
      const acctSessionId = await accountingStart(testApp, radiusToken, through, { username: user.username!, mac });
      const [session] = await sessionsOf(user._id);
      return { user, session, acctSessionId, through };
    }

    const sessionsOf = (userId: string) => testApp.dataSource.getRepository(SessionEntity).findBy({ userId });
    const sessionRow = (id: string) => testApp.dataSource.getRepository(SessionEntity).findOneByOrFail({ id });
    const jobsOf = (userId: string) =>
      testApp.dataSource.getRepository(UnauthJobEntity).find({ where: { userId }, order: { createdAt: 'ASC' } });
    const jobRowOf = (id: string) => testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id });
    /** The job's next attempt due now (its backoff waited out), as the worker would find it later. */
    const dueNow = (id: string) =>
      testApp.dataSource.getRepository(UnauthJobEntity).update({ id }, { nextAttemptAt: new Date(Date.now() - 1000) });
    const v1 = (path: string) => testApp.http.get(path).set('Authorization', `Bearer ${testApp.adminToken}`);
    const online = async () => (await writer.get('/admin/online?venueId=venue-a')).text;

    /** An operator's Disconnect of the session, from Online now: the job it wrote. */
    async function disconnect(sessionId: string, userId: string): Promise<UnauthJobEntity> {
      expect((await writer.post(`/admin/online/${sessionId}/disconnect`, {})).status).toBe(303);
      const jobs = await jobsOf(userId);
      return jobs[jobs.length - 1];
    }

    /** An accounting packet about the session from its NAS, as FreeRADIUS passes it on. */
    async function accounting(
      from: { name: string; ip: string },
      type: 'Stop' | 'Accounting-On',
      session?: { username: string; acctSessionId: string },
    ): Promise<void> {
      const ids: Record<string, string> =
        session === undefined
          ? {}
          : {
              'User-Name': session.username,
              'Acct-Session-Id': session.acctSessionId,
              'Acct-Unique-Session-Id': `unique-${session.acctSessionId}`,
            };
      await radiusCall(
        testApp,
        radiusToken,
        'accounting',
        from,
        rlmBody({ 'Acct-Status-Type': type, ...ids, 'NAS-IP-Address': '192.0.2.10', 'Acct-Session-Time': 30 }),
      ).expect(204);
    }

    it('the default sends Disconnect-Requests: an ACKed job is Done, with no banner on the network screens', async () => {
      const { user } = await onlineUser();
      await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
      expect(await worker.processBatch()).toBe(1);
      expect(nas.verified).toHaveLength(1);
      const [job] = await jobsOf(user._id);
      expect(job).toMatchObject({ status: 'done', notSentReason: null });
      expect(Object.keys(job.deliveries ?? {}).sort()).toEqual(['log', 'radius']);
      const answer = (await v1(`/api/v1/unauth-jobs/${job.id}`).expect(200)).body.data;
      expect(answer).toMatchObject({ status: 'done', notSent: null, sessions: [{ outcome: 'ack', state: 'done' }] });

      const list = await writer.get('/admin/jobs');
      expect(jobRow(list.text, job.id)).toContain('data-state="done"');
      expect(jobRow(list.text, job.id)).toContain('Done');
      for (const page of [list.text, await online(), (await writer.get(`/admin/jobs/${job.id}`)).text]) {
        expect(page).not.toContain('data-banner="disconnects"');
      }
      expect((await admin.get('/admin/settings/nas')).text).not.toContain('data-banner="disconnects"');
    });

    it('a NAS that does not answer: the session stays in Online now as disconnecting, not confirmed, ended for the v1 API; the ACK lets it go', async () => {
      const { user, session } = await onlineUser();
      nas.answer = () => 'silent';
      const job = await disconnect(session.id, user._id);
      expect(await sessionRow(session.id)).toMatchObject({ status: 'expired', disconnectJobId: job.id });
      expect((await sessionRow(session.id)).endedAt).not.toBeNull();

      let row = onlineRow(await online(), session.id);
      expect(row).toContain('class="net-disconnecting"');
      expect(row).toContain('Disconnecting — not confirmed');
      expect(row).toContain(`href="/admin/jobs/${job.id}"`);
      expect(row).not.toContain('/disconnect"');
      // The v1 API answers as before: the session ended when it was disconnected.
      const active = (await v1('/api/v1/sessions?venueId=venue-a&status=active').expect(200)).body.data;
      expect(active.map((entry: { id: string }) => entry.id)).not.toContain(session.id);
      const [ended] = (await v1(`/api/v1/hotspot-users/${user._id}/sessions`).expect(200)).body.data;
      expect(ended).toMatchObject({ id: session.id, status: 'expired' });
      expect(ended.endedAt).not.toBeNull();

      expect(await worker.processBatch()).toBe(1);
      expect(nas.verified).toHaveLength(1);
      expect(await jobRowOf(job.id)).toMatchObject({ status: 'pending', attempts: 1 });
      const page = await online();
      row = onlineRow(page, session.id);
      expect(row).toContain('Disconnecting — not confirmed');
      expect(row).toContain('No answer from the NAS');
      expect(row).toContain('badge warn');
      expect(page).toMatch(/\d+ disconnecting, not confirmed by the NAS/);
      // No answer is no time of answer: "Answered" stays empty until the NAS answers.
      const answered = /ACK: the NAS confirmed<\/span><\/td>\s*<td>\d+<\/td>\s*<td><time /;
      const unanswered = (await writer.get(`/admin/jobs/${job.id}/status`)).text;
      expect(unanswered).toMatch(/No answer from the NAS<\/span><\/td>\s*<td>1<\/td>\s*<td>—<\/td>/);

      nas.answer = () => 'ack';
      await dueNow(job.id);
      expect(await worker.processBatch()).toBe(1);
      expect(await jobRowOf(job.id)).toMatchObject({ status: 'done', notSentReason: null });
      expect(await sessionRow(session.id)).toMatchObject({
        status: 'expired',
        disconnectJobId: null,
        terminateCause: 'disconnected',
      });
      expect((await writer.get(`/admin/jobs/${job.id}/status`)).text).toMatch(answered);
      expect(onlineRow(await online(), session.id)).toBe('');
    });

    it("the NAS's Accounting-Stop lets the session go, and the job settles it as stopped by the NAS", async () => {
      const { user, session, acctSessionId, through } = await onlineUser();
      nas.answer = () => 'silent';
      const job = await disconnect(session.id, user._id);
      expect(await worker.processBatch()).toBe(1);
      expect(onlineRow(await online(), session.id)).toContain('Disconnecting — not confirmed');

      await accounting(through, 'Stop', { username: user.username!, acctSessionId });
      const stopped = await sessionRow(session.id);
      expect(stopped).toMatchObject({ status: 'expired', disconnectJobId: null });
      expect(stopped.nasStoppedAt).not.toBeNull();
      expect(onlineRow(await online(), session.id)).toBe('');
      // The Stop made the job due at once: settled without another request.
      expect(await worker.processBatch()).toBe(1);
      expect(nas.verified).toHaveLength(1);
      const answer = (await v1(`/api/v1/unauth-jobs/${job.id}`).expect(200)).body.data;
      expect(answer).toMatchObject({ status: 'done', notSent: null, sessions: [{ outcome: 'stopped-by-nas' }] });
    });

    it('a NAK 503 (no such session) lets the session go; another NAK keeps it, shown refused', async () => {
      const gone = await onlineUser();
      const refused = await onlineUser();
      nas.answer = (request) => (request.userName === gone.user.username ? { nak: 503 } : { nak: 404 });
      const goneJob = await disconnect(gone.session.id, gone.user._id);
      const refusedJob = await disconnect(refused.session.id, refused.user._id);
      expect(await worker.processBatch()).toBe(2);

      expect(await jobRowOf(goneJob.id)).toMatchObject({ status: 'done' });
      expect(await sessionRow(gone.session.id)).toMatchObject({
        disconnectJobId: null,
        terminateCause: 'disconnect-not-found',
      });
      expect(await jobRowOf(refusedJob.id)).toMatchObject({ status: 'failed' });
      expect(await sessionRow(refused.session.id)).toMatchObject({ status: 'expired', disconnectJobId: refusedJob.id });
      const page = await online();
      expect(onlineRow(page, gone.session.id)).toBe('');
      const row = onlineRow(page, refused.session.id);
      expect(row).toContain('Disconnect not confirmed');
      expect(row).toContain('NAK: refused with Error-Cause 404 (Invalid-Request)');
      expect(row).toContain('badge bad');
    });

    it('the stale sweep and an Accounting-On let go of Disconnects the NAS never confirmed', async () => {
      const silent = await onlineUser();
      const rebooted = await onlineUser();
      nas.answer = () => 'silent';
      await disconnect(silent.session.id, silent.user._id);
      const rebootedJob = await disconnect(rebooted.session.id, rebooted.user._id);
      expect(await worker.processBatch()).toBe(2);
      // The NAS has said nothing of the first session for longer than the stale window (3 interims: 30 min).
      await testApp.dataSource
        .getRepository(SessionEntity)
        .update({ id: silent.session.id }, { lastAccountingAt: new Date(Date.now() - 31 * 60_000) });
      await testApp.app.get(StaleSessionsSweeper).sweep();
      expect(await sessionRow(silent.session.id)).toMatchObject({ status: 'expired', disconnectJobId: null });
      expect(await sessionRow(rebooted.session.id)).toMatchObject({ disconnectJobId: rebootedJob.id });
      let page = await online();
      expect(onlineRow(page, silent.session.id)).toBe('');
      expect(onlineRow(page, rebooted.session.id)).toContain('Disconnecting — not confirmed');

      // The NAS restarts: it has no session now.
      await accounting(rebooted.through, 'Accounting-On');
      expect(await sessionRow(rebooted.session.id)).toMatchObject({ disconnectJobId: null });
      page = await online();
      expect(onlineRow(page, rebooted.session.id)).toBe('');
    });

    it('a NAS without a CoA port: the job is Not sent with its reason, never a green Done, in the API, the jobs and Online now', async () => {
      const { user, session } = await onlineUser(portless);
      await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
      expect(await worker.processBatch()).toBe(1);
      expect(nas.received).toHaveLength(0);
      const [job] = await jobsOf(user._id);
      expect(job).toMatchObject({ status: 'done', notSentReason: 'no-coa-port' });
      expect(await sessionRow(session.id)).toMatchObject({ status: 'expired', disconnectJobId: job.id });

      // v1: the status stays done; the added notSent says what was not sent and why.
      const answer = (await v1(`/api/v1/unauth-jobs/${job.id}`).expect(200)).body.data;
      expect(answer).toMatchObject({
        status: 'done',
        notSent: { reason: 'no-coa-port', sessions: 1 },
        sessions: [{ id: session.id, outcome: 'not-sent', state: 'done' }],
      });
      const listed = (await v1(`/api/v1/hotspot-users/${user._id}/unauth-jobs`).expect(200)).body.data;
      expect(listed[0]).toMatchObject({ id: job.id, status: 'done', notSent: { reason: 'no-coa-port', sessions: 1 } });

      const list = await writer.get('/admin/jobs');
      const row = jobRow(list.text, job.id);
      expect(row).toContain('data-state="not-sent"');
      expect(row).toContain('badge bad');
      expect(row).toContain('Not sent: the NAS has no CoA port');
      expect(row).not.toContain('Done');
      expect(jobRow((await writer.get('/admin/jobs?status=not-sent')).text, job.id)).not.toBe('');
      expect(jobRow((await writer.get('/admin/jobs?status=done')).text, job.id)).toBe('');
      const jobPage = (await writer.get(`/admin/jobs/${job.id}`)).text;
      expect(jobPage).toContain('data-state="not-sent"');
      expect(jobPage).toContain('1 of 1 sessions were not sent: their NAS is registered without a Disconnect/CoA port');
      const userJobs = (await writer.get(`/admin/users/${user._id}/jobs`)).text;
      expect(userJobs).toContain('data-state="not-sent"');
      expect(userJobs).toContain('Not sent: the NAS has no CoA port');
      const onlineRowText = onlineRow(await online(), session.id);
      expect(onlineRowText).toContain('Disconnect not confirmed');
      expect(onlineRowText).toContain('Not sent: the NAS has no CoA port');
      expect(onlineRowText).toContain('badge bad');
    });

    it('the banner says so, naming the CoA port, while no registered NAS has one', async () => {
      const nases = testApp.app.get(NasService);
      await nases.update(nasName, { coaPort: 0 });
      try {
        for (const page of [await online(), (await writer.get('/admin/jobs')).text]) {
          expect(page).toContain('data-banner="disconnects"');
          expect(page).toContain('No registered NAS has a Disconnect/CoA port');
        }
        const settings = (await admin.get('/admin/settings/nas')).text;
        expect(settings).toContain('data-banner="disconnects"');
        expect(settings).toContain('--coa-port 3799');
      } finally {
        await nases.update(nasName, { coaPort: nas.port });
      }
      expect(await online()).not.toContain('data-banner="disconnects"');
    });
  });

  describe('with UNAUTH_DISPATCHER=log', () => {
    let testApp: TestApp;
    let nas: NasSimulator;
    let nasName: string;
    let radiusToken: string;
    let admin: ConsoleBrowser;

    beforeAll(async () => {
      nas = await NasSimulator.start(NAS_SECRET);
      testApp = await startTestApp(kind, { ...QUICK, UNAUTH_DISPATCHER: 'log' });
      radiusToken = await testApp.createToken({ permissions: ['radius'] });
      nasName = unique('nas');
      await registerSimulatedNas(testApp, nas, nasName);
      admin = (await signInConsole(testApp, { admin: true, permissions: ['read', 'write', 'delete'], venueIds: null }))
        .console;
    }, 60_000);

    afterAll(async () => {
      await testApp?.close();
      await nas?.close();
    });

    it('a job only the log took is Not sent, and the banner names UNAUTH_DISPATCHER on every network screen', async () => {
      const user = await givenUser(testApp);
      await accountingStart(
        testApp,
        radiusToken,
        { name: nasName, ip: nas.address },
        {
          username: user.username!,
          mac: 'AA-BB-CC-10-00-01',
        },
      );
      const [session] = await testApp.dataSource.getRepository(SessionEntity).findBy({ userId: user._id });
      await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
      expect(await testApp.app.get(UnauthJobWorker).processBatch()).toBe(1);
      expect(nas.received).toHaveLength(0);
      const [job] = await testApp.dataSource.getRepository(UnauthJobEntity).findBy({ userId: user._id });
      expect(job).toMatchObject({ status: 'done', notSentReason: 'no-radius-dispatcher' });
      const answer = (
        await testApp.http.get(`/api/v1/unauth-jobs/${job.id}`).set('Authorization', `Bearer ${testApp.adminToken}`)
      ).body.data;
      expect(answer).toMatchObject({
        status: 'done',
        notSent: { reason: 'no-radius-dispatcher', sessions: 1 },
        sessions: [{ outcome: 'not-sent', state: 'done' }],
      });

      const screens = {
        online: (await admin.get('/admin/online?venueId=venue-a')).text,
        jobs: (await admin.get('/admin/jobs')).text,
        job: (await admin.get(`/admin/jobs/${job.id}`)).text,
        nas: (await admin.get('/admin/settings/nas')).text,
      };
      for (const [screen, html] of Object.entries(screens)) {
        expect([screen, html.includes('data-banner="disconnects"')]).toEqual([screen, true]);
        expect([screen, html.includes('UNAUTH_DISPATCHER is “log”, without radius')]).toEqual([screen, true]);
      }
      expect(jobRow(screens.jobs, job.id)).toContain('Not sent: UNAUTH_DISPATCHER has no radius');
      expect(screens.job).toContain('Nothing was sent to the NAS: UNAUTH_DISPATCHER does not include radius');
      const row = onlineRow(screens.online, session.id);
      expect(row).toContain('Disconnect not confirmed');
      expect(row).toContain('Not sent: UNAUTH_DISPATCHER has no radius');
    });
  });
});
