import { Admission } from '../src/common/load/admission.js';
import { MetricsServer } from '../src/metrics/metrics-server.js';
import { databaseKinds } from './support/databases.js';
import { givenUser, userBody } from './support/factories.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Admission before collapse, driven by a real queueing delay: the service's own event loop is kept
 * busy (a task of `ms` milliseconds after another, as a saturated process would be), and what each
 * kind of request gets is then read off the answers: console pages and v1 lists are shed first
 * (503 with Retry-After), v1 writes only once those are, RADIUS logins and accounting never; the
 * health probes always answer; the figures show in /metrics; all is admitted again once the delay is gone.
 */
for (const kind of databaseKinds()) {
  describe(`admission under a measured queueing delay [${kind}]`, () => {
    let app: TestApp;
    let token: string;
    let nas: TestNas;
    let metricsUrl: string;
    let spinning = false;

    beforeAll(async () => {
      app = await startTestApp(kind, {
        SHED_PAGES_DELAY_MS: '20',
        SHED_WRITES_DELAY_MS: '120',
        METRICS_PORT: '0',
        LOG_LEVEL: 'fatal',
      });
      token = await app.createToken({ permissions: ['radius'] });
      nas = await givenNas(app);
      metricsUrl = `http://127.0.0.1:${app.app.get(MetricsServer).address()!.port}/metrics`;
    });

    afterEach(() => {
      spinning = false;
    });

    afterAll(async () => {
      await app?.close();
    });

    /** Keeps the event loop busy with tasks of `ms` each until `spinning` is cleared. */
    function spin(ms: number): void {
      spinning = true;
      const task = () => {
        if (!spinning) return;
        const until = performance.now() + ms;
        while (performance.now() < until);
        setImmediate(task);
      };
      setImmediate(task);
    }

    const admission = () => app.app.get(Admission);
    /** Bounded wait until the admitted shares are as wanted (each control step is 100 ms). */
    async function sharesBecome(browse: number, change: number): Promise<void> {
      for (let tries = 0; tries < 100; tries += 1) {
        const shares = admission().stats().admittedShares;
        if (shares.browse === browse && shares.change === change) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`admitted shares stayed ${JSON.stringify(admission().stats().admittedShares)}`);
    }

    const list = () =>
      app.http.get('/api/v1/hotspot-users?venueId=venue-a').set('Authorization', `Bearer ${app.adminToken}`);
    const create = () =>
      app.http.post('/api/v1/hotspot-users').set('Authorization', `Bearer ${app.adminToken}`).send(userBody());
    const consolePage = () => app.http.get('/admin/login').set('Accept-Language', 'tr');
    const login = (username: string) =>
      radiusCall(app, token, 'authorize', nas, rlmBody({ 'User-Name': username, 'User-Password': 'secret-1' }));
    const accounting = (username: string) =>
      radiusCall(
        app,
        token,
        'accounting',
        nas,
        rlmBody({ 'Acct-Status-Type': 'Start', 'Acct-Session-Id': `adm-${username}`, 'User-Name': username }),
      );

    it('a delay between the two thresholds: pages and lists are shed, writes and RADIUS are served', async () => {
      const user = await givenUser(app);
      spin(60);
      await sharesBecome(0, 1);
      const shed = await list();
      expect(shed.status).toBe(503);
      expect(shed.headers['retry-after']).toBe('1');
      expect(shed.body).toEqual({ success: false, message: 'Service Unavailable' });
      const page = await consolePage();
      expect(page.status).toBe(503);
      expect(page.headers['retry-after']).toBe('1');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('Hizmet şu anda yoğun. Birazdan yeniden deneyin.');
      expect((await create()).status).toBe(201);
      expect(
        (await app.http.get(`/api/v1/hotspot-users/${user._id}`).set('Authorization', `Bearer ${app.adminToken}`))
          .status,
      ).toBe(200);
      expect((await login(user.username!)).status).toBe(200);
      expect((await accounting(user.username!)).status).toBe(204);
      expect((await app.http.get('/healthz')).status).toBe(200);
    });

    it('a delay above both: writes are shed too, once pages are; RADIUS and the probes still answer', async () => {
      const user = await givenUser(app);
      spin(160);
      await sharesBecome(0, 0);
      expect((await list()).status).toBe(503);
      const write = await create();
      expect(write.status).toBe(503);
      expect(write.headers['retry-after']).toBe('1');
      expect((await login(user.username!)).status).toBe(200);
      expect((await accounting(`${user.username!}`)).status).toBe(204);
      expect((await app.http.get('/healthz')).status).toBe(200);
      const text = await (await fetch(metricsUrl)).text();
      expect(text).toMatch(/hotspot_admission_shed_total\{tier="browse",role="service"\} [1-9]/);
      expect(text).toMatch(/hotspot_admission_shed_total\{tier="change",role="service"\} [1-9]/);
      expect(text).toContain('hotspot_admission_admitted_ratio{tier="change",role="service"} 0');
      expect(text).toMatch(/hotspot_work_slots\{class="radius",role="service"\} [1-9]/);
    });

    it('once the delay is gone, everything is admitted again within about a second', async () => {
      spin(160);
      await sharesBecome(0, 0);
      spinning = false;
      await sharesBecome(1, 1);
      expect((await list()).status).toBe(200);
      expect((await create()).status).toBe(201);
      expect(admission().stats().queueingDelayMs).toBeLessThan(20);
    });
  });
}
