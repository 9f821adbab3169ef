import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { verify as verifyPassword } from '@node-rs/argon2';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenOperator } from './support/console.js';
import { givenUser, startSession, uniqueDevice } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A user's password reset in Chromium: the reset page (also with a problem) and the page showing
 * the generated password, in English and Turkish at 1280 px and 360 px: axe-core finds nothing, the
 * phone page does not scroll sideways, no CSP or script error; and a reset with the keyboard alone.
 * SQLite only: what the browser sees does not depend on the database.
 */
describe('console password reset in a browser', () => {
  const VENUE = 'browser-pw-venue';
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let user: { _id: string; username: string | null };

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    user = await givenUser(testApp, { name: 'Ayşe Yılmaz', username: 'ayse1204', venueIds: [VENUE] });
    await startSession(testApp, { userId: user._id, venueId: VENUE, macAddress: uniqueDevice().macAddress });
    const operator = await givenOperator(testApp, { permissions: ['read', 'write'] });
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
    expect({ name, width: await pageWidth(page) }).toEqual({ name, width: viewport.width });
    expect(browser.problems).toEqual([]);
  }

  async function language(lang: 'en' | 'tr'): Promise<void> {
    await page.goto(`${base}/admin/users/${user._id}`);
    if ((await page.locator('html').getAttribute('lang')) !== lang) {
      await page.locator(`footer button[value="${lang}"]`).click();
      await page.waitForLoadState();
    }
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
  }

  for (const lang of ['en', 'tr'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      it(`shows the reset pages without an accessibility problem [${lang}, ${viewport.width} px]`, async () => {
        await page.setViewportSize(viewport);
        await language(lang);
        await page.goto(`${base}/admin/users/${user._id}?venueId=${VENUE}`);
        await check('user page with the reset action', viewport);
        await page.goto(`${base}/admin/users/${user._id}/password?venueId=${VENUE}`);
        await check('reset page', viewport);
        await page.locator('input[name="mode"][value="type"]').check();
        await page.locator('#password-new').fill('ab');
        await page.locator('form.stack button[type="submit"]').click();
        await page.waitForLoadState();
        expect(await page.locator('[aria-invalid="true"]').count()).toBe(1);
        await check('reset page with a problem', viewport);
        await page.locator('input[name="mode"][value="generate"]').check();
        await page.locator('form.stack button[type="submit"]').click();
        await page.locator('#generated-password').waitFor();
        await check('generated password', viewport);
        const password = await page.locator('#generated-password').textContent();
        await page.locator('a[href*="/slip/"]').click();
        await page.locator('#slip-password').waitFor();
        expect(await page.locator('#slip-password').textContent()).toBe(password);
        await check('guest slip', viewport);
      }, 60_000);
    }
  }

  it('resets a password with the keyboard alone, ending the sessions', async () => {
    await page.setViewportSize(DESKTOP);
    await language('en');
    await page.goto(`${base}/admin/users/${user._id}`);
    const focused = (attribute: string) =>
      page.evaluate(
        (name) =>
          (
            globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } } }
          ).document.activeElement.getAttribute(name),
        attribute,
      );
    const tabTo = async (attribute: string, wanted: (value: string) => boolean) => {
      for (let i = 0; i < 40 && !wanted((await focused(attribute)) ?? ''); i += 1) await page.keyboard.press('Tab');
      expect(wanted((await focused(attribute)) ?? '')).toBe(true);
    };
    await tabTo('href', (href) => href.endsWith('/password'));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/password$/);
    // Generate is chosen already: to the checkbox (space ticks it), then to the submit button.
    await tabTo('name', (name) => name === 'endSessions');
    await page.keyboard.press('Space');
    await tabTo('type', (type) => type === 'submit');
    await page.keyboard.press('Enter');
    await page.locator('#generated-password').waitFor();
    const password = (await page.locator('#generated-password').textContent())!.trim();
    const stored = await testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id: user._id });
    expect(await verifyPassword(stored.passwordHash!, password)).toBe(true);
    expect(await page.locator('main').textContent()).toContain('Sessions disconnected: 1.');
    // On to the guest slip by keyboard, and its Print button.
    await tabTo('href', (href) => href.includes('/slip/'));
    await page.keyboard.press('Enter');
    await page.locator('#slip-password').waitFor();
    expect((await page.locator('#slip-password').textContent())!.trim()).toBe(password);
    const onPrint = () =>
      page.evaluate(() =>
        (
          globalThis as unknown as { document: { activeElement: { hasAttribute(name: string): boolean } } }
        ).document.activeElement.hasAttribute('data-print'),
      );
    for (let i = 0; i < 40 && !(await onPrint()); i += 1) await page.keyboard.press('Tab');
    expect(await onPrint()).toBe(true);
    // Printed, the slip alone: no menu, no buttons or notes above it.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header.top').isVisible()).toBe(false);
    expect(await page.locator('.print-intro').isVisible()).toBe(false);
    expect(await page.locator('.slip').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    expect(browser.problems).toEqual([]);
  }, 30_000);
});
