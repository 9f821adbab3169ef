import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { api } from './support/api-client.js';
import { signInConsole, type ConsoleBrowser } from './support/console.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { givenUser, startSession } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { accountingStart, radiusCall, registerSimulatedNas, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The console's network screens (a user's page, Online now, Disconnect jobs) against the real worker
 * and RADIUS dispatcher, with a NAS played by NasSimulator: a block and an operator's Disconnect reach
 * the NAS and the pages show its answer; a failed job is retried; venue scope, read-only operators and
 * odd input. The worker loop is off: the tests run its batches.
 */

const NAS_SECRET = 'nas-shared-secret-console-e2e';
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

describe.each(databaseKinds())('console network screens [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let nas: NasSimulator;
  let nasName: string;
  let worker: UnauthJobWorker;
  let radiusToken: string;
  let writer: ConsoleBrowser;
  let reader: ConsoleBrowser;
  let everywhere: ConsoleBrowser;

  beforeAll(async () => {
    nas = await NasSimulator.start(NAS_SECRET);
    testApp = await startTestApp(kind, {
      UNAUTH_DISPATCHER: 'radius',
      RADIUS_DM_TIMEOUT_MS: '100',
      RADIUS_DM_RETRIES: '0',
      UNAUTH_MAX_ATTEMPTS: '3',
      WORKER_ENABLED: 'false',
      LOG_LEVEL: 'fatal',
    });
    worker = testApp.app.get(UnauthJobWorker);
    radiusToken = await testApp.createToken({ permissions: ['radius'] });
    nasName = unique('nas');
    await registerSimulatedNas(testApp, nas, nasName);
    writer = (await signInConsole(testApp, { permissions: ['read', 'write'], venueIds: ['venue-a'] })).console;
    reader = (await signInConsole(testApp, { permissions: ['read'], venueIds: ['venue-a'] })).console;
    everywhere = (await signInConsole(testApp, { permissions: ['read', 'write', 'delete'], venueIds: null })).console;
  }, 60_000);

  afterAll(async () => {
    await testApp?.close();
    await nas?.close();
  });

  afterEach(() => {
    nas.answer = () => 'ack';
    nas.received.length = 0;
  });

  /** A user of venue-a online through the simulated NAS (an accounting Start as FreeRADIUS passes it on). */
  async function onlineUser(mac = 'AA-BB-CC-00-00-01', name = 'Selin Online') {
    const user = await givenUser(testApp, { name });
    await accountingStart(testApp, radiusToken, { name: nasName, ip: nas.address }, { username: user.username!, mac });
    const [session] = await testApp.dataSource.getRepository(SessionEntity).findBy({ userId: user._id });
    return { user, session };
  }

  const jobsOf = (userId: string) =>
    testApp.dataSource.getRepository(UnauthJobEntity).find({ where: { userId }, order: { createdAt: 'ASC' } });
  const jobRow = (id: string) => testApp.dataSource.getRepository(UnauthJobEntity).findOneByOrFail({ id });
  const auditOf = (targetId: string) => testApp.dataSource.getRepository(AuditEventEntity).findBy({ targetId });

  /** A user of venue-b with a session there, blocked: its job lists that session. */
  async function venueBUser() {
    const user = await givenUser(testApp, { venueIds: ['venue-b'], name: `Bee ${unique('b')}` });
    const session = await startSession(testApp, {
      userId: user._id,
      venueId: 'venue-b',
      macAddress: 'BB:BB:BB:00:00:0B',
    });
    return { user, session };
  }

  it("Online now finds the sessions of the users a search finds: a surname, a room, a phone's end, a MAC's end", async () => {
    const guest = await givenUser(testApp, {
      name: 'Zehra Karakoç',
      room: 'S-1733',
      phone: '+90 555 771 98 76',
      venueIds: ['venue-a'],
    });
    const mac = 'AA-BB-CC-00-77-31';
    await accountingStart(testApp, radiusToken, { name: nasName, ip: nas.address }, { username: guest.username!, mac });
    const [found] = await testApp.dataSource.getRepository(SessionEntity).findBy({ userId: guest._id });
    const { session: other } = await onlineUser('AA-BB-CC-00-00-09');
    const online = (q: string) => reader.get(`/admin/online?venueId=venue-a&q=${encodeURIComponent(q)}`);
    const everyone = await reader.get('/admin/online?venueId=venue-a');
    expect(everyone.text).toContain(`data-session="${found.id}"`);
    expect(everyone.text).toContain(`data-session="${other.id}"`);
    for (const q of ['karakoc', 'KARAKOÇ', 's-17', '0555 771 98 76', '9876', '77:31', '7731']) {
      const page = await online(q);
      expect({ q, status: page.status }).toEqual({ q, status: 200 });
      expect({ q, found: page.text.includes(`data-session="${found.id}"`) }).toEqual({ q, found: true });
      expect({ q, other: page.text.includes(`data-session="${other.id}"`) }).toEqual({ q, other: false });
      expect(page.text).toContain('1 online');
      expect(page.text).toContain(`value="${q}"`);
    }
    const none = await online('arakoc');
    expect(none.text).toContain('Nobody online in this venue matches the search.');
    expect(none.text).not.toContain(`data-session="${found.id}"`);
    // What the search cannot be is no error: white space alone lists everyone.
    expect((await online('   ')).text).toContain(`data-session="${other.id}"`);
  });

  it("a block's job on the user's page: waiting (polled every 2 s), then the NAS's ACK, and polling stops", async () => {
    const { user } = await onlineUser();
    await radiusCall(
      testApp,
      radiusToken,
      'post-auth',
      { name: nasName, ip: nas.address },
      rlmBody({
        'User-Name': user.username!,
        'User-Password': 'wrong-secret-9',
        'Calling-Station-Id': 'AA-BB-CC-00-00-01',
      }),
      { 'X-Radius-Result': 'Access-Reject', 'X-Radius-Reply-Message': 'Invalid username or password' },
    ).expect(204);
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);

    const page = await writer.get(`/admin/users/${user._id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(user.name);
    expect(page.text).toContain('AA:BB:CC:00:00:01');
    expect(page.text).toContain(nasName);
    expect(page.text).toContain('Wrong password or unknown user');
    expect(page.text).not.toContain('wrong-secret-9');
    expect(page.text).toContain(`/admin/users/${user._id}/unblock`);
    const waiting = await writer.get(`/admin/users/${user._id}/jobs`);
    expect(waiting.status).toBe(200);
    expect(waiting.text).not.toContain('<html');
    expect(waiting.text).toContain('hx-trigger="every 2s"');
    expect(waiting.text).toContain('Waiting');

    expect(await worker.processBatch()).toBe(1);

    const acked = await writer.get(`/admin/users/${user._id}/jobs`);
    expect(acked.text).toContain('ACK: the NAS confirmed');
    expect(acked.text).not.toContain('hx-trigger');
  });

  it('Disconnect from Online now: confirmed, the session ended with a job of reason operator; the NAK and its cause shown; Retry now delivers it', async () => {
    const { user, session } = await onlineUser('AA-BB-CC-00-00-02', 'Kerem Disconnected');
    const online = await writer.get('/admin/online?venueId=venue-a');
    expect(online.status).toBe(200);
    expect(online.text).toContain(user.username!);
    expect(online.text).toContain(`/admin/online/${session.id}/disconnect`);

    const confirm = await writer.get(`/admin/online/${session.id}/disconnect`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`action="/admin/online/${session.id}/disconnect"`);
    // The confirmation names the guest, linked to its page.
    expect(confirm.text).toContain('<h1>Disconnect \u2068Kerem Disconnected\u2069?</h1>');
    expect(confirm.text).toContain(
      `<a href="/admin/users/${user._id}?venueId=venue-a"><bdi>Kerem Disconnected</bdi></a> <span class="muted">(<bdi>${user.username}</bdi>)</span>`,
    );
    // Nothing changed on GET.
    expect((await testApp.dataSource.getRepository(SessionEntity).findOneByOrFail({ id: session.id })).status).toBe(
      'active',
    );

    const posted = await writer.post(`/admin/online/${session.id}/disconnect`, {});
    expect(posted.status).toBe(303);
    const [job] = await jobsOf(user._id);
    expect(job).toMatchObject({ reason: 'operator', status: 'pending' });
    expect(job.sessions.map((entry) => entry.id)).toEqual([session.id]);
    expect(posted.headers.location).toBe(
      `/admin/online?venueId=venue-a&job=${job.id}&notice=notice.online.disconnected`,
    );
    expect((await testApp.dataSource.getRepository(SessionEntity).findOneByOrFail({ id: session.id })).status).toBe(
      'expired',
    );
    expect(await auditOf(session.id)).toEqual([
      expect.objectContaining({ action: 'session.disconnect', actorType: 'operator', venueIds: ['venue-a'] }),
    ]);
    const following = await writer.get(posted.headers.location);
    expect(following.text).toContain('The session was ended.');
    expect(following.text).toContain(`hx-get="/admin/jobs/${job.id}/status"`);
    expect(following.text).toContain(`<a href="/admin/users/${user._id}"><bdi>Kerem Disconnected</bdi></a>`);
    expect(following.text).not.toContain(`/admin/online/${session.id}/disconnect`);
    // A second Disconnect of the ended session: refused, no second job.
    expect((await writer.post(`/admin/online/${session.id}/disconnect`, {})).status).toBe(409);
    expect(await jobsOf(user._id)).toHaveLength(1);

    nas.answer = () => ({ nak: 404 });
    expect(await worker.processBatch()).toBe(1);
    expect(nas.verified).toHaveLength(1);
    expect((await jobRow(job.id)).status).toBe('failed');
    const nak = await writer.get(`/admin/jobs/${job.id}/status`);
    expect(nak.text).toContain('NAK: refused with Error-Cause 404 (Invalid-Request)');
    expect(nak.text).not.toContain('hx-trigger');
    const failedPage = await writer.get(`/admin/jobs/${job.id}`);
    expect(failedPage.text).toContain(`href="/admin/jobs/${job.id}/retry"`);
    expect(failedPage.text).toContain('<td>RADIUS Disconnect-Request</td>');
    const listed = await writer.get('/admin/jobs?status=failed&reason=operator');
    expect(listed.text).toContain(`/admin/jobs/${job.id}`);
    // Jobs name the user, linked to its page, instead of its id.
    expect(listed.text).toContain(`<a href="/admin/users/${user._id}"><bdi>Kerem Disconnected</bdi></a>`);
    expect(failedPage.text).toContain(`<a href="/admin/users/${user._id}"><bdi>Kerem Disconnected</bdi></a>`);
    expect((await writer.get('/admin/jobs?status=done')).text).not.toContain(`/admin/jobs/${job.id}"`);

    expect((await writer.get(`/admin/jobs/${job.id}/retry`)).status).toBe(200);
    nas.answer = () => 'ack';
    const retried = await writer.post(`/admin/jobs/${job.id}/retry`, {});
    expect(retried.status).toBe(303);
    expect(retried.headers.location).toBe(`/admin/jobs/${job.id}?notice=notice.jobs.retried`);
    expect(await jobRow(job.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await auditOf(job.id)).toEqual([
      expect.objectContaining({ action: 'unauth-job.retry', targetType: 'unauth-job', actorType: 'operator' }),
    ]);
    expect((await writer.post(`/admin/jobs/${job.id}/retry`, {})).status).toBe(409);

    expect(await worker.processBatch()).toBe(1);
    expect(await jobRow(job.id)).toMatchObject({ status: 'done', attempts: 1 });
    const done = await writer.get(`/admin/jobs/${job.id}`);
    expect(done.text).toContain('ACK: the NAS confirmed');
    expect(done.text).not.toContain(`/admin/jobs/${job.id}/retry`);
    expect((await writer.get(`/admin/jobs/${job.id}/retry`)).status).toBe(409);
    // Once the user is deleted, its job still says who it was, and that the user is gone.
    await api(testApp).users.remove(user._id).expect(200);
    const orphan = await writer.get(`/admin/jobs/${job.id}`);
    expect(orphan.text).toContain(`<bdi>${user.username}</bdi> <span class="muted">(user deleted)</span>`);
    expect(orphan.text).not.toContain(`href="/admin/users/${user._id}"`);
  });

  it('a venue-A operator never sees venue B: users, sessions, jobs, by list, URL or form', async () => {
    const b = await venueBUser();
    await api(testApp).users.update(b.user._id, { status: 'blocked' }).expect(200);
    const [jobB] = await jobsOf(b.user._id);
    const other = await venueBUser();
    const both = await givenUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
    await startSession(testApp, { userId: both._id, venueId: 'venue-a', macAddress: 'AA:AA:AA:00:00:0A' });
    await startSession(testApp, { userId: both._id, venueId: 'venue-b', macAddress: 'BB:BB:BB:00:00:BB' });

    for (const browser of [writer, reader]) {
      expect((await browser.get(`/admin/users/${b.user._id}`)).status).toBe(404);
      expect((await browser.get(`/admin/users/${b.user._id}/jobs`)).status).toBe(404);
      expect((await browser.get(`/admin/users/${both._id}?venueId=venue-b`)).status).toBe(403);
      expect((await browser.get('/admin/online?venueId=venue-b')).status).toBe(403);
      const online = await browser.get('/admin/online');
      expect(online.status).toBe(200);
      expect(online.text).not.toContain(other.user.username!);
      expect(online.text).not.toContain('BB:BB:BB');
      const jobs = await browser.get('/admin/jobs');
      expect(jobs.text).not.toContain(jobB.id);
      expect((await browser.get(`/admin/jobs/${jobB.id}`)).status).toBe(404);
      expect((await browser.get(`/admin/jobs/${jobB.id}/status`)).status).toBe(404);
      expect((await browser.get(`/admin/online?venueId=venue-a&job=${jobB.id}`)).text).not.toContain(jobB.id);
      const page = await browser.get(`/admin/users/${both._id}`);
      expect(page.status).toBe(200);
      // Its sessions and venues in A only (its devices are the user's, whichever venue saw them).
      const sessions = page.text.slice(
        page.text.indexOf('id="sessions-heading"'),
        page.text.indexOf('id="attempts-heading"'),
      );
      expect(sessions).toContain('AA:AA:AA:00:00:0A');
      expect(sessions).not.toContain('BB:BB:BB');
      expect(page.text).not.toContain('venue-b');
    }
    expect((await writer.get(`/admin/online/${other.session.id}/disconnect`)).status).toBe(404);
    expect((await writer.post(`/admin/online/${other.session.id}/disconnect`, {})).status).toBe(404);
    expect((await writer.post(`/admin/jobs/${jobB.id}/retry`, {})).status).toBe(404);
    expect(
      (await testApp.dataSource.getRepository(SessionEntity).findOneByOrFail({ id: other.session.id })).status,
    ).toBe('active');

    // An unrestricted operator sees them.
    expect((await everywhere.get('/admin/jobs')).text).toContain(jobB.id);
    expect((await everywhere.get(`/admin/users/${b.user._id}`)).status).toBe(200);
    expect((await everywhere.get('/admin/online?venueId=venue-b')).text).toContain(other.user.username!);
    // A job of a deleted user stays visible by its sessions' venue: to B's readers only.
    await api(testApp).users.remove(b.user._id).expect(200);
    expect((await everywhere.get('/admin/jobs?reason=blocked')).text).toContain(jobB.id);
    expect((await writer.get('/admin/jobs?reason=blocked')).text).not.toContain(jobB.id);
  });

  it('a read-only operator sees no change control, and a forged POST is a 403 that changes nothing', async () => {
    const { user, session } = await onlineUser('AA-BB-CC-00-00-03');
    const online = await reader.get('/admin/online');
    expect(online.status).toBe(200);
    expect(online.text).toContain(user.username!);
    expect(online.text).not.toContain('/disconnect');
    const page = await reader.get(`/admin/users/${user._id}`);
    expect(page.text).not.toMatch(/\/(edit|block|expire|delete)"/);
    expect((await reader.get(`/admin/online/${session.id}/disconnect`)).status).toBe(403);
    expect((await reader.post(`/admin/online/${session.id}/disconnect`, {})).status).toBe(403);
    expect((await testApp.dataSource.getRepository(SessionEntity).findOneByOrFail({ id: session.id })).status).toBe(
      'active',
    );

    await writer.post(`/admin/online/${session.id}/disconnect`, {});
    const [job] = await jobsOf(user._id);
    nas.answer = () => ({ nak: 404 });
    await worker.processBatch();
    expect((await jobRow(job.id)).status).toBe('failed');
    expect((await reader.get(`/admin/jobs/${job.id}`)).text).not.toContain('/retry');
    expect((await reader.get(`/admin/jobs/${job.id}/retry`)).status).toBe(403);
    expect((await reader.post(`/admin/jobs/${job.id}/retry`, {})).status).toBe(403);
    expect((await jobRow(job.id)).status).toBe('failed');
  });

  it('odd ids and query parameters are never a 500', async () => {
    const odd = ['%00', 'x'.repeat(300), '..%2F..', '%E2%80%AE', "'%20OR%201=1", '%25'];
    for (const id of odd) {
      for (const path of [
        `/admin/users/${id}`,
        `/admin/users/${id}/jobs`,
        `/admin/jobs/${id}`,
        `/admin/jobs/${id}/status`,
        `/admin/jobs/${id}/retry`,
        `/admin/online/${id}/disconnect`,
      ]) {
        const response = await everywhere.get(path);
        expect([path, response.status < 500]).toEqual([path, true]);
      }
      expect((await everywhere.post(`/admin/online/${id}/disconnect`, {})).status).toBeLessThan(500);
      expect((await everywhere.post(`/admin/jobs/${id}/retry`, {})).status).toBeLessThan(500);
    }
    for (const path of [
      '/admin/online?venueId=' + 'v'.repeat(2000),
      '/admin/online?venueId=venue-a&page=-3',
      '/admin/online?venueId=venue-a&page=99999999999999999999',
      '/admin/online?venueId[]=a&venueId[]=b',
      '/admin/online?venueId=venue-a&job=%00',
      '/admin/jobs?status=x&reason=__proto__&page=abc',
      '/admin/jobs?status[]=failed&status[]=done',
      '/admin/users/x?venueId=' + 'v'.repeat(5000),
    ]) {
      const response = await everywhere.get(path);
      expect([path, response.status < 500]).toEqual([path, true]);
    }
  });
});
