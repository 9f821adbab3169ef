import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { givenOperator } from './support/console.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenGuest, givenUser, startSession, uniqueDevice } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';

/**
 * The users screen in Chromium: every page of it with data on it, in English and Turkish, at 1280 px
 * and 360 px: axe-core finds nothing, the phone page does not scroll sideways, no CSP or script
 * error; a search then opening a user with the keyboard alone; and a reload after creating a user,
 * which shows the result again rather than making a second user. SQLite only: what the browser sees
 * does not depend on the database.
 */
describe('console users screen in a browser', () => {
  const VENUE = 'browser-venue';
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let active: { _id: string };
  let vouchers: string[];
  let counter = 0;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite', { SECRETS_KEY: 'd'.repeat(64) });
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    active = await givenUser(testApp, {
      name: 'Ayşe Yılmaz',
      username: 'ayse1204',
      email: 'ayse.yilmaz.with.a.long.address@example.com',
      phone: '+90 532 111 22 33',
      venueIds: [VENUE],
    });
    await startSession(testApp, { userId: active._id, venueId: VENUE, macAddress: uniqueDevice().macAddress });
    const blocked = await givenGuest(testApp, { name: 'Mehmet Öztürk', phone: '0212 444 55 66', venueIds: [VENUE] });
    await testApp.http
      .put(`/api/v1/hotspot-users/${blocked._id}`)
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ status: 'blocked' })
      .expect(200);
    for (let i = 0; i < 22; i += 1) await givenGuest(testApp, { name: `Room ${100 + i}`, venueIds: [VENUE] });
    // A batch printed last: its vouchers are the newest users, yet the list opens on the guests.
    const batch = await testApp.http
      .post('/api/v1/hotspot-user-batches')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ venueId: VENUE, count: 3, prefix: 'card-', expiresAt: '2030-06-02T09:00:00.000Z' })
      .expect(201);
    vouchers = (batch.body as { data: { accounts: Array<{ username: string }> } }).data.accounts.map(
      (account) => account.username,
    );
    const operator = await givenOperator(testApp, { permissions: ['read', 'write', 'delete'] });
    browser = await TestBrowser.launch(DESKTOP);
    page = await browser.newPage();
    await signInInBrowser(page, base, operator.email);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  async function check(name: string, viewport: { width: number }): Promise<void> {
    expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
    const width = await pageWidth(page);
    expect({ name, width }).toEqual({ name, width: viewport.width });
    expect(browser.problems).toEqual([]);
  }

  async function language(lang: 'en' | 'tr'): Promise<void> {
    await page.goto(`${base}/admin/users`);
    if ((await page.locator('html').getAttribute('lang')) !== lang) {
      await page.locator(`footer button[value="${lang}"]`).click();
      await page.waitForLoadState();
    }
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
  }

  for (const lang of ['en', 'tr'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      it(`shows every users page without an accessibility problem [${lang}, ${viewport.width} px]`, async () => {
        await page.setViewportSize(viewport);
        await language(lang);
        await page.goto(`${base}/admin/users?venueId=${VENUE}`);
        expect(await page.locator('tbody tr').count()).toBe(20);
        await check('list', viewport);
        // A surname alone, with why the row was found under its name.
        await page.goto(`${base}/admin/users?venueId=${VENUE}&q=yilmaz&status=active`);
        expect(await page.locator('tbody tr').count()).toBe(1);
        expect(await page.locator('tbody tr .row-match').count()).toBe(1);
        await check('search', viewport);
        await page.goto(`${base}/admin/users?venueId=${VENUE}&page=2`);
        await check('page 2', viewport);
        await page.goto(`${base}/admin/users?venueId=${VENUE}&vouchers=shown`);
        await check('list with vouchers', viewport);
        await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
        await check('create form', viewport);
        counter += 1;
        await page.locator('#user-name').fill(`Browser User ${counter}`);
        await page.locator('#user-username').fill('not valid!');
        await page.locator('#user-name').press('Enter');
        await page.waitForLoadState();
        expect(await page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
        await check('create form with problems', viewport);
        await page.locator('#user-username').fill(`browser${counter}`);
        await page.locator('#user-name').press('Enter');
        await page.locator('#generated-password').waitFor();
        await check('created', viewport);
        // The guest slip, from the result page: the password, and the venue without an SSID said so.
        const password = await page.locator('#generated-password').textContent();
        await page.locator('a[href*="/slip/"]').click();
        await page.locator('#slip-password').waitFor();
        expect(await page.locator('#slip-password').textContent()).toBe(password);
        expect(await page.locator('#slip-no-ssid').count()).toBe(1);
        await check('guest slip', viewport);
        await page.goto(`${base}/admin/users/new?loginMethod=guest&venueId=${VENUE}`);
        await check('guest form', viewport);
        await page.goto(`${base}/admin/users/${active._id}/edit?venueId=${VENUE}`);
        await check('edit', viewport);
        await page.goto(`${base}/admin/users/${active._id}/block?venueId=${VENUE}`);
        expect(await page.locator('main').textContent()).toContain('1');
        await check('block confirmation', viewport);
        await page.goto(`${base}/admin/users/${active._id}/delete?venueId=${VENUE}`);
        await check('delete confirmation', viewport);
      }, 60_000);
    }
  }

  it('shows the created user again on a reload, never a second one; the same form sent again is "Already done"', async () => {
    await page.setViewportSize(DESKTOP);
    await language('en');
    await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
    const form = page.locator('form[action="/admin/users/new"]');
    const usedToken = await form.locator('input[name="formToken"]').inputValue();
    await page.locator('#user-name').fill('Reload Test');
    await page.locator('#user-username').fill('reload1');
    await page.locator('#user-name').press('Enter');
    await page.locator('#generated-password').waitFor();
    const password = await page.locator('#generated-password').textContent();
    const resultUrl = page.url();
    expect(resultUrl).toMatch(/\/admin\/users\/[0-9a-f-]{36}\/created\/[0-9a-f-]{36}\?venueId=/);
    expect(resultUrl).not.toContain(password!);
    // Post/Redirect/Get: the reload asks for the result page again, not for a second POST.
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    expect(reloaded?.request().method()).toBe('GET');
    expect(await page.locator('#generated-password').textContent()).toBe(password);
    const users = testApp.dataSource.getRepository(HotspotUserEntity);
    expect(await users.countBy({ username: 'reload1' })).toBe(1);

    // The same form, with the token it was sent with (as a browser restoring it would send it again).
    await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
    await page.locator('#user-name').fill('Reload Test');
    await page.locator('#user-username').fill('reload1');
    await form.locator('input[name="formToken"]').evaluate((input, token) => {
      (input as unknown as { value: string }).value = token;
    }, usedToken);
    const [again] = await Promise.all([
      page.waitForResponse(`${base}/admin/users/new`),
      page.locator('#user-name').press('Enter'),
    ]);
    await page.waitForLoadState();
    expect(again.status()).toBe(409);
    expect(await page.locator('main').textContent()).toContain('It was not done a second time.');
    expect(await page.locator('main').textContent()).not.toContain('not saved');
    expect(await users.countBy({ username: 'reload1' })).toBe(1);
    await check('already done', DESKTOP);
    // Its link, by keyboard, leads to the first POST's result: the password is still shown.
    const link = page.getByRole('link', { name: 'See what was done' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(resultUrl);
    expect(await page.locator('#generated-password').textContent()).toBe(password);
    expect(browser.problems).toEqual([]);
  }, 30_000);

  it("downloads the venue's users as CSV from the list's link, by keyboard", async () => {
    await page.setViewportSize(PHONE);
    await language('en');
    await page.goto(`${base}/admin/users?venueId=${VENUE}`);
    const link = page.getByRole('link', { name: `Export the users of ${VENUE} (CSV)` });
    await link.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^users-browser-venue-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'username,name,email,phone,room,macAddress,status,loginMethod,expiresAt,validForHours,createdAt,batch,venues',
    );
    expect(text).toContain('ayse1204,Ayşe Yılmaz,ayse.yilmaz.with.a.long.address@example.com');
    expect(text).toContain('Mehmet Öztürk');
    await check('list with the export link', PHONE);
  }, 30_000);

  it('finds as a desk types (a surname, a national phone, the last digits) and shows why each row matched', async () => {
    await page.setViewportSize(PHONE);
    await language('en');
    await page.goto(`${base}/admin/users?venueId=${VENUE}`);
    const search = async (typed: string) => {
      await page.locator('#users-q').fill('');
      await page.locator('#users-q').pressSequentially(typed);
      await page.waitForURL((url) => url.searchParams.get('q') === typed);
      await page.locator('#results').waitFor();
      return (await page.locator('tbody tr').allInnerTexts()).map((row) => row.replace(/\s+/g, ' '));
    };
    const surname = await search('Yilmaz');
    expect(surname).toHaveLength(1);
    expect(surname[0]).toContain('Found by the name: Ayşe Yılmaz');
    const national = await search('0212 444 55 66');
    expect(national).toHaveLength(1);
    expect(national[0]).toContain('Mehmet Öztürk');
    expect(national[0]).toContain('Found by the phone: 0212 444 55 66');
    const last = await search('2233');
    expect(last).toHaveLength(1);
    expect(last[0]).toContain('Found by the phone: +90 532 111 22 33');
    await check('search with why', PHONE);
  }, 30_000);

  it('opens on the guests without the vouchers, each with room, expiry and online; the check box shows the vouchers, by keyboard', async () => {
    await page.setViewportSize(PHONE);
    await language('en');
    await page.goto(`${base}/admin/users?venueId=${VENUE}`);
    const main = async () => (await page.locator('#results').textContent()) ?? '';
    for (const username of vouchers) expect(await main()).not.toContain(username);
    const guests = Number(/Users found: (\d+) \(vouchers not counted\)/.exec(await main())?.[1]);
    expect(guests).toBeGreaterThanOrEqual(24);
    const headers = await page.locator('thead th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Room', 'Expires', 'Online now']));
    // The first guest, online now, on the last page of the guests.
    await page.goto(`${base}/admin/users?venueId=${VENUE}&page=2`);
    const ayse = page.locator('tbody tr', { hasText: 'Ayşe Yılmaz' });
    expect(await ayse.locator('.badge.good', { hasText: 'Online' }).count()).toBe(1);
    expect(await page.locator('tbody tr', { hasText: 'Mehmet Öztürk' }).locator('.badge.good').count()).toBe(0);
    await page.goto(`${base}/admin/users?venueId=${VENUE}`);
    // The check box, reached and ticked with the keyboard, lists the vouchers (htmx, the address kept).
    await page.locator('#users-vouchers').focus();
    await page.keyboard.press('Space');
    await page.waitForURL(/vouchers=shown/);
    await page.locator('tbody tr', { hasText: vouchers[0] }).waitFor();
    expect(await main()).toContain(`Users found: ${guests + 3}`);
    expect(await page.locator('tbody tr .badge', { hasText: 'Voucher' }).count()).toBe(3);
    await check('vouchers shown', PHONE);
  }, 30_000);

  it('links each problem of the summary to its field: Enter on the link puts the cursor in the field', async () => {
    await page.setViewportSize(DESKTOP);
    await language('en');
    await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
    await page.locator('#user-name').fill('Summary Links');
    await page.locator('#user-username').fill('not valid!');
    await page.locator('#user-macAddress').fill('zz');
    await page.locator('#user-name').press('Enter');
    await page.locator('#form-problems').waitFor();
    const items = await page.locator('#form-problems li').allTextContents();
    expect(items).toEqual([
      expect.stringMatching(/^Username: Use 1 to 64 letters/),
      expect.stringMatching(/^MAC address: Give a MAC address/),
    ]);
    const link = page.locator('#form-problems a[href="#user-macAddress"]');
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id ===
        'user-macAddress',
    );
    expect(await page.locator('#user-macAddress').getAttribute('aria-invalid')).toBe('true');
    expect(browser.problems).toEqual([]);
  }, 30_000);

  it('searches and opens a user with the keyboard alone', async () => {
    await page.setViewportSize(DESKTOP);
    await language('en');
    await page.goto(`${base}/admin/users?venueId=${VENUE}`);
    const focusedId = () =>
      page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
      );
    for (let i = 0; i < 40 && (await focusedId()) !== 'users-q'; i += 1) await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('users-q');
    await page.keyboard.type('+90 532');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=%2B90/);
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    const userLink = `/admin/users/${active._id}?venueId=${VENUE}`;
    const focusedHref = () =>
      page.evaluate(() =>
        (
          globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } } }
        ).document.activeElement.getAttribute('href'),
      );
    for (let i = 0; i < 40 && (await focusedHref()) !== userLink; i += 1) await page.keyboard.press('Tab');
    expect(await focusedHref()).toBe(userLink);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}${userLink}`);
    expect(browser.problems).toEqual([]);
  }, 30_000);
});
