import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { UserUsageEntity } from '../src/usage/entities/user-usage.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { api } from './support/api-client.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenOperator, newTotpSecret } from './support/console.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { NasSimulator } from './support/nas-simulator.js';
import { accountingStart, radiusCall, registerSimulatedNas, rlmBody } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The console's promises, in Debian's Chromium against the real service and a NAS simulator that
 * answers the Disconnects the worker sends: sign in with TOTP, find a guest by a phone prefix, block
 * them and watch the NAS's ACK arrive without reloading, disconnect a session from Online now and see
 * a NAK, issue and revoke an API token, venue scope and read-only operators on every page, and axe
 * on every screen in both languages at desktop and phone width, every control of a screen within a
 * 360 px phone's width. With UPDATE_SCREENSHOTS=1 the SQLite run writes the README's screenshots
 * (docs/images/console-*.png) and the phone review's, one per screen (docs/images/phone/*.png).
 */

const NAS_SECRET = 'flows-nas-secret-0123456789';
const SCREENSHOTS = join(import.meta.dirname, '..', 'docs', 'images');
/** A page's controls: each must sit within the phone's width without scrolling sideways. */
const CONTROLS =
  'main .row-actions a, main .net-action, main .actions a, main form button, main form input, main form select';
/** The screenshots the README shows, taken along the flows below. */
const SCREENSHOT_NAMES = ['dashboard', 'user', 'online', 'logins', 'phone-users'];
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

describe.each(databaseKinds())('console flows in a browser [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let base: string;
  let nas: NasSimulator;
  let nasClient: { name: string; ip: string };
  let radiusToken: string;
  let testBrowser: TestBrowser;
  let shots: string;

  beforeAll(async () => {
    nas = await NasSimulator.start(NAS_SECRET);
    testApp = await startTestApp(kind, {
      UNAUTH_DISPATCHER: 'radius',
      WORKER_ENABLED: 'true',
      RADIUS_DM_TIMEOUT_MS: '300',
      RADIUS_DM_RETRIES: '0',
      UNAUTH_MAX_ATTEMPTS: '1',
      UNAUTH_POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'fatal',
    });
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    const venues = testApp.app.get(VenuesService);
    await venues.set('venue-a', { displayName: 'Hotel Aurora', timeZone: 'Europe/Istanbul' });
    await venues.set('venue-b', { displayName: 'Beach Bar Bravo' });
    nasClient = await registerSimulatedNas(testApp, nas, unique('lobby-ap'));
    radiusToken = await testApp.createToken({ permissions: ['radius'] });
    testBrowser = await TestBrowser.launch(DESKTOP);
    shots = mkdtempSync(join(tmpdir(), 'hotspot-console-shots-'));
  }, 90_000);

  afterAll(async () => {
    if (process.env.UPDATE_SCREENSHOTS === '1' && kind === 'sqlite' && shots) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const name of SCREENSHOT_NAMES)
        copyFileSync(join(shots, `console-${name}.png`), join(SCREENSHOTS, `console-${name}.png`));
      mkdirSync(join(SCREENSHOTS, 'phone'), { recursive: true });
      for (const name of readdirSync(join(shots, 'phone')))
        copyFileSync(join(shots, 'phone', name), join(SCREENSHOTS, 'phone', name));
    }
    await testBrowser?.close();
    await testApp?.close();
    await nas?.close();
    if (shots) rmSync(shots, { recursive: true, force: true });
  });

  afterEach(() => {
    nas.answer = () => 'ack';
  });

  /** `username` online through the simulated NAS (an accounting Start, as FreeRADIUS passes it on). */
  const onlineAt = (username: string, mac = 'AA-BB-CC-00-00-01') =>
    accountingStart(testApp, radiusToken, nasClient, { username, mac });

  /** A screenshot of the viewport, scrolled so that `from` (a selector) is at its top when given. */
  async function shot(page: Page, name: string, from?: string): Promise<void> {
    if (from !== undefined) await page.locator(from).evaluate((element) => element.scrollIntoView());
    await page.screenshot({ path: join(shots, `console-${name}.png`), fullPage: false });
  }

  async function signedIn(options: Parameters<typeof givenOperator>[1] = {}) {
    const totpSecret = newTotpSecret();
    const operator = await givenOperator(testApp, { totpSecret, ...options });
    await testBrowser.context.clearCookies();
    const page = await testBrowser.newPage();
    await signInInBrowser(page, base, operator.email, totpSecret);
    return { page, operator };
  }

  it('an administrator signs in with TOTP, creates a user, finds it by a prefix of its phone number and blocks it: the ACK appears without a reload', async () => {
    const { page } = await signedIn({ admin: true, permissions: ['delete'] });
    expect(new URL(page.url()).pathname).toBe('/admin');

    const username = unique('room');
    const phone = `+90 555 ${String(Date.now()).slice(-7)}`;
    await page.goto(`${base}/admin/users/new?venueId=venue-a`);
    await page.locator('#user-username').fill(username);
    await page.locator('#user-name').fill('Ada Lovelace');
    await page.locator('#user-phone').fill(phone);
    await page.getByRole('button', { name: 'Create the user' }).click();
    await page.getByRole('heading', { name: 'User created' }).waitFor();
    expect(await page.locator('main').textContent()).toContain(username);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${base}/admin/users?venueId=venue-a`);
    await page.locator('#users-q').fill(phone.slice(0, 8));
    await page.locator('#users-q').press('Enter');
    await page.waitForLoadState();
    await page.getByRole('link', { name: username }).click();
    await page.waitForLoadState();
    const userUrl = page.url();

    await onlineAt(username);
    await page.goto(userUrl);
    await page.getByRole('link', { name: 'Block', exact: true }).click();
    await page.getByRole('button', { name: 'Block the user' }).click();
    await page.waitForLoadState();
    // A mark on the page's window: it survives htmx's swaps, not a reload.
    await page.evaluate(() => ((globalThis as unknown as { mark: number }).mark = 1));
    await page.getByText(/ACK/).first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { mark?: number }).mark)).toBe(1);
    expect(nas.verified.some((request) => request.userName === username)).toBe(true);
    await shot(page, 'user', '#sessions-heading');
    await page.close();
  }, 90_000);

  it('disconnects one session from Online now and shows the NAS refusing it (NAK and its Error-Cause)', async () => {
    const { page } = await signedIn({ admin: false, permissions: ['write'], venueIds: ['venue-a'] });
    const user = await givenUser(testApp, { venueIds: ['venue-a'] });
    await onlineAt(user.username!, 'AA-BB-CC-00-00-42');
    nas.answer = () => ({ nak: 404 });
    await page.goto(`${base}/admin/online?venueId=venue-a`);
    await shot(page, 'online');
    const row = page.locator('tr', { hasText: user.username! });
    await row.getByRole('link', { name: /disconnect/i }).click();
    await page.getByRole('button', { name: /disconnect/i }).click();
    await page.getByText(/NAK/).first().waitFor({ timeout: 15_000 });
    expect(await page.locator('main').textContent()).toContain('404');
    await page.close();
  }, 60_000);

  it('creates an API token in Settings, uses it against /api/v1, revokes it and /api/v1 refuses it', async () => {
    const { page } = await signedIn({ admin: true, permissions: ['delete'] });
    await page.goto(`${base}/admin/settings/tokens`);
    await page.getByRole('link', { name: 'Create a token' }).click();
    const name = unique('pms');
    await page.locator('#name').fill(name);
    await page.locator('input[name="permissions"][value="read"]').check();
    await page.locator('main form[method="post"] button[type="submit"]').click();
    await page.waitForLoadState();
    const value = ((await page.locator('#token-value').textContent()) ?? '').trim();
    expect(value).toMatch(/^hsp_/);
    await testApp.http.get('/api/v1/hotspot-users?venueId=venue-a').set('Authorization', `Bearer ${value}`).expect(200);

    await page.goto(`${base}/admin/settings/tokens`);
    expect(await page.content()).not.toContain(value);
    await page
      .locator('tr', { hasText: name })
      .getByRole('link', { name: /revoke/i })
      .click();
    await page.getByRole('button', { name: /revoke/i }).click();
    await page.waitForLoadState();
    await testApp.http.get('/api/v1/hotspot-users?venueId=venue-a').set('Authorization', `Bearer ${value}`).expect(401);
    await page.close();
  }, 60_000);

  it('a venue-A operator never sees venue B, on any page or by editing a URL; a read-only one sees no control and a forged POST is 403', async () => {
    const secretB = unique('zelda-b');
    const userB = await givenUser(testApp, { venueIds: ['venue-b'], name: secretB });
    await api(testApp).users.update(userB._id, { status: 'blocked' }).expect(200);
    const { page } = await signedIn({ permissions: ['read'], venueIds: ['venue-a'] });
    for (const path of ['/admin', '/admin/users', '/admin/online', '/admin/logins', '/admin/jobs', '/admin/audit']) {
      await page.goto(`${base}${path}`);
      const html = await page.content();
      expect({ path, leaks: html.includes(secretB) || html.includes(userB._id) }).toEqual({ path, leaks: false });
      const forms = await page.locator('main form[method="post"]').count();
      expect({ path, forms }).toEqual({ path, forms: 0 });
    }
    for (const path of [
      `/admin/users?venueId=venue-b`,
      `/admin/users/${userB._id}?venueId=venue-b`,
      `/admin/users/${userB._id}?venueId=venue-a`,
      `/admin/online?venueId=venue-b`,
      `/admin/logins?venueId=venue-b`,
    ]) {
      const answer = await page.goto(`${base}${path}`);
      expect({ path, refused: [403, 404].includes(answer?.status() ?? 0) }).toEqual({ path, refused: true });
      expect({ path, leaks: (await page.content()).includes(secretB) }).toEqual({ path, leaks: false });
    }
    // A POST from the console's own page (same origin, a valid session) that the operator's rights refuse.
    const status = await page.evaluate(async (id) => {
      const body = new URLSearchParams({ venueId: 'venue-a' });
      const answer = await fetch(`/admin/users/${id}/block`, { method: 'POST', body });
      return answer.status;
    }, userB._id);
    expect(status).toBe(403);
    await page.close();
  }, 60_000);

  it('axe-core finds nothing on any screen, in English and Turkish, at 1280 px and at 360 px; on the phone no page scrolls sideways and every control is within reach', async () => {
    const { page } = await signedIn({ admin: true, permissions: ['delete'] });
    // A plan with every kind of limit, its users part-way through their quota: the plans' screens, the
    // user page's usage bars and Online now's have something to show.
    const planId = await givenPlan();
    const user = await givenUser(testApp, {
      venueIds: ['venue-a'],
      name: 'Grace Hopper',
      phone: '+90 555 000 11 22',
      planId,
    });
    await onlineAt(user.username!, 'AA-BB-CC-00-00-77');
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    const online = await givenUser(testApp, { venueIds: ['venue-a'], name: 'Katherine Johnson', room: '1204', planId });
    await onlineAt(online.username!, 'AA-BB-CC-00-00-78');
    for (const userId of [user._id, online._id]) {
      await testApp.dataSource.getRepository(UserUsageEntity).insert({
        userId,
        period: 'total',
        inputOctets: '120000000',
        outputOctets: '480000000',
        sessionSeconds: '5400',
      });
    }
    await radiusCall(
      testApp,
      radiusToken,
      'post-auth',
      nasClient,
      rlmBody({ 'User-Name': 'nobody-here', 'Calling-Station-Id': 'AA-BB-CC-00-00-99' }),
      { 'X-Radius-Result': 'reject', 'X-Radius-Reply-Message': 'Invalid username or password' },
    ).expect(204);
    const screens = await screensOf(page, user._id, planId);
    const failures: unknown[] = [];
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const language of ['en', 'tr'] as const) {
        await testBrowser.context.addCookies([{ name: 'lang', value: language, url: `${base}/admin` }]);
        for (const path of screens) {
          await page.goto(`${base}${path}`);
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          const violations = await axeViolations(page);
          if (violations.length > 0) failures.push({ path, language, width: viewport.width, violations });
          const width = await pageWidth(page);
          if (width > viewport.width) failures.push({ path, language, width: viewport.width, scrollWidth: width });
          if (viewport === PHONE) {
            const outside = await controlsOutside(page, PHONE.width);
            if (outside.length > 0) failures.push({ path, language, outside });
            if (language === 'en') {
              mkdirSync(join(shots, 'phone'), { recursive: true });
              await page.screenshot({ path: join(shots, 'phone', `${screenName(path)}.png`), fullPage: true });
            }
          }
          if (viewport === PHONE && language === 'en' && path.startsWith('/admin/users?'))
            await shot(page, 'phone-users');
          if (viewport === DESKTOP && language === 'en' && path.startsWith('/admin/logins')) await shot(page, 'logins');
          if (viewport === DESKTOP && language === 'en' && path === '/admin') await shot(page, 'dashboard');
        }
      }
    }
    expect(failures).toEqual([]);
    expect(testBrowser.problems).toEqual([]);
    await page.close();
  }, 480_000);

  /**
   * The controls of the page (links of row actions, buttons, form fields) that a phone `width` wide
   * shows only after scrolling sideways: each as its text and horizontal extent. Tables scroll inside
   * their own box, left at its start, as a page opens.
   */
  async function controlsOutside(page: Page, width: number): Promise<string[]> {
    return page.locator(CONTROLS).evaluateAll((elements, limit) => {
      const outside: string[] = [];
      for (const element of elements as Array<{
        getBoundingClientRect(): { left: number; right: number; width: number };
        textContent: string | null;
        getAttribute(name: string): string | null;
      }>) {
        const box = element.getBoundingClientRect();
        if (box.width === 0) continue;
        if (box.left < -1 || box.right > limit + 1) {
          const label = (element.textContent ?? '').trim() || (element.getAttribute('name') ?? '?');
          outside.push(`${label} ${Math.round(box.left)}..${Math.round(box.right)}`);
        }
      }
      return outside;
    }, width);
  }

  /** A plan of venue A with every limit set, through the v1 API. */
  async function givenPlan(): Promise<string> {
    const created = await testApp.http
      .post('/api/v1/plans')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({
        name: unique('Lobby 5 Mbit'),
        venueIds: ['venue-a'],
        downloadRate: 5_000_000,
        uploadRate: 1_000_000,
        quotaBytes: 1_000_000_000,
        quotaPeriod: 'total',
        dailyTimeSeconds: 7200,
        totalTimeSeconds: 36_000,
        idleTimeoutSeconds: 600,
        maxSessions: 2,
        maxDevices: 3,
        interimIntervalSeconds: 300,
      })
      .expect(201);
    return (created.body as { data: { _id: string } }).data._id;
  }

  /** Every screen of the console, with data on it: the navigation's pages and the pages they lead to. */
  async function screensOf(page: Page, userId: string, planId: string): Promise<string[]> {
    await page.goto(`${base}/admin/jobs`);
    const jobLink = await page.locator('main a[href^="/admin/jobs/"]').first().getAttribute('href');
    await page.goto(`${base}/admin/online?venueId=venue-a`);
    const disconnectLink = await page.locator('main a[href*="/disconnect"]').first().getAttribute('href');
    return [
      '/admin',
      '/admin/users?venueId=venue-a',
      '/admin/users/new?venueId=venue-a',
      `/admin/users/${userId}?venueId=venue-a`,
      `/admin/users/${userId}/edit?venueId=venue-a`,
      `/admin/users/${userId}/expire?venueId=venue-a`,
      `/admin/users/${userId}/password?venueId=venue-a`,
      '/admin/online?venueId=venue-a',
      ...(disconnectLink === null ? [] : [disconnectLink]),
      '/admin/logins',
      '/admin/jobs',
      ...(jobLink === null ? [] : [jobLink]),
      '/admin/batches?venueId=venue-a',
      '/admin/audit',
      '/admin/settings/tokens',
      '/admin/settings/tokens/new',
      '/admin/settings/nas',
      '/admin/settings/nas/new',
      '/admin/settings/venues',
      '/admin/settings/venues/new',
      '/admin/settings/venues/venue-a/portal',
      '/admin/settings/social',
      '/admin/settings/social/new',
      '/admin/settings/plans',
      '/admin/settings/plans/new',
      `/admin/settings/plans/${planId}/edit`,
      `/admin/settings/plans/${planId}/delete`,
      '/admin/settings/operators',
      '/admin/settings/operators/new',
      '/admin/account',
      '/admin/password',
      '/admin/no-such-page',
    ];
  }
});

/** The file name of a screen's phone screenshot: its path without ids or query (`users-id-edit`). */
function screenName(path: string): string {
  const words = new URL(path, 'http://console').pathname
    .split('/')
    .filter((part) => part !== '' && part !== 'admin')
    .map((part) => (/^[0-9a-f-]{20,}$/i.test(part) ? 'id' : part));
  return words.length === 0 ? 'dashboard' : words.join('-');
}
