import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { NasService } from '../src/nas/nas.service.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UnauthJobWorker } from '../src/unauth-jobs/unauth-job-worker.service.js';
import { api } from './support/api-client.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenOperator } from './support/console.js';
import { givenUser } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { accountingStart, radiusCall, registerSimulatedNas, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The network screens in Debian's Chromium: a user's page (devices, sessions, login attempts, jobs),
 * Online now, the jobs list and a job's page, in English and Turkish at 1280 and 360 px, with no axe
 * violation, no sideways scroll on the phone and no CSP or script error; a block's job turns from
 * waiting to ACK on the user's page without a reload (htmx polling), and a Disconnect done by
 * keyboard alone; a Disconnect the NAS does not answer stays on Online now as "disconnecting, not
 * confirmed", a job sent to no NAS is Not sent, and the banner shows while no NAS has a CoA port.
 * SQLite only: what the browser sees does not depend on the database.
 */

const NAS_SECRET = 'nas-shared-secret-browser-e2e';
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

describe('console network screens in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let nas: NasSimulator;
  let nasName: string;
  let radiusToken: string;
  let worker: UnauthJobWorker;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    nas = await NasSimulator.start(NAS_SECRET);
    testApp = await startTestApp('sqlite', {
      UNAUTH_DISPATCHER: 'radius',
      RADIUS_DM_TIMEOUT_MS: '100',
      RADIUS_DM_RETRIES: '0',
      WORKER_ENABLED: 'false',
      LOG_LEVEL: 'fatal',
    });
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    worker = testApp.app.get(UnauthJobWorker);
    radiusToken = await testApp.createToken({ permissions: ['radius'] });
    nasName = unique('nas');
    await registerSimulatedNas(testApp, nas, nasName);
    const operator = await givenOperator(testApp, { permissions: ['read', 'write'], venueIds: ['venue-a'] });
    browser = await TestBrowser.launch(DESKTOP);
    page = await browser.newPage();
    await signInInBrowser(page, base, operator.email);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    await nas?.close();
  });

  async function onlineUser(mac: string) {
    const user = await givenUser(testApp);
    const nasClient = { name: nasName, ip: nas.address };
    await accountingStart(testApp, radiusToken, nasClient, { username: user.username!, mac, ipAddress: '10.0.0.7' });
    await radiusCall(
      testApp,
      radiusToken,
      'post-auth',
      nasClient,
      rlmBody({ 'User-Name': user.username!, 'Calling-Station-Id': mac }),
      { 'X-Radius-Result': 'Access-Reject', 'X-Radius-Reply-Message': 'Too many simultaneous sessions' },
    ).expect(204);
    const [session] = await testApp.dataSource.getRepository(SessionEntity).findBy({ userId: user._id });
    return { user, session };
  }

  async function check(where: string): Promise<void> {
    expect([where, await axeViolations(page)]).toEqual([where, []]);
    if (page.viewportSize()?.width === PHONE.width)
      expect([where, await pageWidth(page)]).toEqual([where, PHONE.width]);
    expect([where, browser.problems]).toEqual([where, []]);
  }

  it("a block's job turns from waiting to ACK on the user's page without a reload", async () => {
    const { user } = await onlineUser('AA-BB-CC-00-10-01');
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    await page.goto(`${base}/admin/users/${user._id}`);
    await expect(page.locator('#user-jobs .net-outcome').first().textContent()).resolves.toBe('Waiting');
    await page.evaluate(() => {
      (globalThis as unknown as { stillHere: boolean }).stillHere = true;
    });

    expect(await worker.processBatch()).toBe(1);

    await page.locator('#user-jobs .net-outcome', { hasText: 'ACK' }).waitFor({ timeout: 6_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(await page.locator('#user-jobs').getAttribute('hx-trigger')).toBeNull();
    expect(browser.problems).toEqual([]);
  }, 30_000);

  it('Disconnect by keyboard alone, then the NAS answer appears on Online now', async () => {
    const { user, session } = await onlineUser('AA-BB-CC-00-10-02');
    await page.setViewportSize(DESKTOP);
    await page.goto(`${base}/admin/online?venueId=venue-a`);
    const target = `/admin/online/${session.id}/disconnect`;
    await tabUntil((element) => element.href === target);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}${target}`);
    // The confirmation names the guest it disconnects, in its heading and the page's title.
    expect(await page.locator('h1').textContent()).toBe(`Disconnect \u2068${user.name}\u2069?`);
    expect(await page.title()).toContain(user.name);
    await tabUntil((element) => element.id === 'confirm-disconnect');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/admin/online' && url.searchParams.has('job'));
    const [job] = await testApp.dataSource.getRepository(UnauthJobEntity).findBy({ userId: user._id });
    expect(job.reason).toBe('operator');
    expect(await page.locator('section[aria-labelledby="followed-heading"] a bdi').first().textContent()).toBe(
      user.name,
    );
    await expect(page.locator('#job-status .net-outcome').first().textContent()).resolves.toBe('Waiting');
    expect(await worker.processBatch()).toBe(1);
    await page.locator('#job-status .net-outcome', { hasText: 'ACK' }).waitFor({ timeout: 6_000 });
    expect(browser.problems).toEqual([]);
  }, 30_000);

  it('every screen, with data, in English and Turkish at 1280 and 360 px: no axe violation, no sideways scroll', async () => {
    const { user } = await onlineUser('AA-BB-CC-00-10-03');
    await onlineUser('AA-BB-CC-00-10-04');
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    nas.answer = () => ({ nak: 404 });
    await worker.processBatch();
    const [job] = await testApp.dataSource
      .getRepository(UnauthJobEntity)
      .findBy({ userId: user._id, reason: 'blocked' });
    const screens = [
      `/admin/users/${user._id}`,
      '/admin/online?venueId=venue-a',
      '/admin/jobs',
      `/admin/jobs/${job.id}`,
      `/admin/jobs/${job.id}/retry`,
    ];
    for (const language of ['en', 'tr'] as const) {
      await browser.context.addCookies([{ name: 'lang', value: language, url: base }]);
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        for (const screen of screens) {
          await page.goto(`${base}${screen}`);
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          await check(`${screen} ${language} ${viewport.width}`);
        }
      }
    }
    await page.goto(`${base}/admin/jobs/${job.id}`);
    expect(await page.locator('main').textContent()).toContain('Error-Cause 404 (Invalid-Request)');
  }, 60_000);

  it('a Disconnect the NAS does not answer stays on Online now as disconnecting, not confirmed; a job sent to no NAS is Not sent; the banner while no NAS has a CoA port: axe-clean in English and Turkish at 1280 and 360 px', async () => {
    await browser.context.addCookies([{ name: 'lang', value: 'en', url: base }]);
    await page.setViewportSize(DESKTOP);
    const { session } = await onlineUser('AA-BB-CC-00-10-05');
    nas.answer = () => 'silent';
    const nases = testApp.app.get(NasService);
    try {
      await page.goto(`${base}/admin/online/${session.id}/disconnect`);
      await page.locator('#confirm-disconnect').click();
      await page.waitForURL((url) => url.pathname === '/admin/online' && url.searchParams.has('job'));
      expect(await worker.processBatch()).toBe(1);
      await page.goto(`${base}/admin/online?venueId=venue-a`);
      const row = page.locator(`tr[data-session="${session.id}"]`);
      await expect(row.locator('.net-disconnect-state').textContent()).resolves.toBe('Disconnecting — not confirmed');
      await expect(row.locator('.net-disconnect-outcome').textContent()).resolves.toBe('No answer from the NAS');
      expect(await row.locator('a[href$="/disconnect"]').count()).toBe(0);
      expect(await page.locator('[data-banner="disconnects"]').count()).toBe(0);

      // A guest online through a NAS without a CoA port, blocked: its job reaches no NAS.
      const portless = unique('portless');
      await nases.add({
        venueId: 'venue-a',
        name: portless,
        ipAddress: '127.0.0.3',
        secret: 'a-shared-secret-of-some-length',
        coaPort: 0,
      });
      const user = await givenUser(testApp);
      await accountingStart(
        testApp,
        radiusToken,
        { name: portless, ip: '127.0.0.3' },
        {
          username: user.username!,
          mac: 'AA-BB-CC-00-10-06',
        },
      );
      await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
      await worker.processBatch();
      const [job] = await testApp.dataSource.getRepository(UnauthJobEntity).findBy({ userId: user._id });
      expect(job).toMatchObject({ status: 'done', notSentReason: 'no-coa-port' });
      await page.goto(`${base}/admin/jobs/${job.id}`);
      await expect(page.locator('.net-job-status').textContent()).resolves.toBe('Not sent: the NAS has no CoA port');
      expect(await page.locator('.net-job-status').getAttribute('class')).toContain('bad');

      // No NAS with a CoA port left: the banner, on Online now and the jobs pages.
      await nases.update(nasName, { coaPort: 0 });
      await page.goto(`${base}/admin/online?venueId=venue-a`);
      await expect(page.locator('[data-banner="disconnects"] p').textContent()).resolves.toContain(
        'No registered NAS has a Disconnect/CoA port',
      );
      const screens = ['/admin/online?venueId=venue-a', '/admin/jobs', `/admin/jobs/${job.id}`];
      for (const language of ['en', 'tr'] as const) {
        await browser.context.addCookies([{ name: 'lang', value: language, url: base }]);
        for (const viewport of [DESKTOP, PHONE]) {
          await page.setViewportSize(viewport);
          for (const screen of screens) {
            await page.goto(`${base}${screen}`);
            expect(await page.locator('[data-banner="disconnects"]').isVisible()).toBe(true);
            await check(`${screen} ${language} ${viewport.width}`);
          }
        }
      }
      await page.goto(`${base}/admin/online?venueId=venue-a`);
      expect(await page.locator(`tr[data-session="${session.id}"] .net-disconnect-state`).textContent()).toBe(
        'Bağlantı kesiliyor — onaylanmadı',
      );
    } finally {
      nas.answer = () => 'ack';
      await nases.update(nasName, { coaPort: nas.port });
      await browser.context.addCookies([{ name: 'lang', value: 'en', url: base }]);
    }
  }, 60_000);

  /** Presses Tab until the focused element matches (at most 80 times); fails otherwise. */
  async function tabUntil(matches: (element: { href: string; id: string }) => boolean): Promise<void> {
    for (let presses = 0; presses < 80; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = (
          globalThis as unknown as {
            document: { activeElement: { getAttribute(name: string): string | null; id: string } | null };
          }
        ).document.activeElement;
        return { href: element?.getAttribute('href') ?? '', id: element?.id ?? '' };
      });
      if (matches(focused)) return;
    }
    throw new Error('the keyboard never reached the control');
  }
});
