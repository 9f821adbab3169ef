import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenOperator } from './support/console.js';
import { givenUser } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Settings → API access and Operators, the audit log and My account in Chromium: with data on them,
 * in English and Turkish, at 1280 px and on a 360 px phone, axe-core finds nothing, no page scrolls
 * sideways and no script or Content-Security-Policy error happens; a token is created and revoked
 * with the keyboard alone.
 */
/** The parts of the page's globals the checks read (the test is not compiled with the DOM's types). */
interface PageGlobals {
  document: {
    activeElement: { matches(selector: string): boolean } | null;
    querySelector(selector: string): { textContent: string | null } | null;
  };
  navigator: { clipboard: { readText(): Promise<string> } };
}

describe('console admin screens in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await givenUser(testApp, { venueIds: ['venue-a'] });
    await givenUser(testApp, { venueIds: ['venue-b'] });
    await testApp.createToken({ name: 'portal', permissions: ['read', 'write'], venueIds: ['venue-a'] });
    await givenOperator(testApp, { email: 'desk@venue.example', name: 'Front desk', venueIds: ['venue-a'] });
    const admin = await givenOperator(testApp, { admin: true, permissions: ['read', 'write', 'delete'] });
    browser = await TestBrowser.launch(DESKTOP);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await signInInBrowser(page, base, admin.email);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  /** axe, width and script problems at both sizes, on the page as it is now. */
  async function check(name: string): Promise<void> {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      const label = `${name} @${viewport.width}`;
      expect({ label, violations: await axeViolations(page) }).toEqual({ label, violations: [] });
      if (viewport === PHONE) expect({ label, width: await pageWidth(page) }).toEqual({ label, width: PHONE.width });
    }
    await page.setViewportSize(DESKTOP);
    expect(browser.problems).toEqual([]);
  }

  /** Presses Tab until the focused element matches `selector` (at most 80 times). */
  async function tabTo(selector: string): Promise<void> {
    for (let step = 0; step < 80; step++) {
      await page.keyboard.press('Tab');
      if (
        await page.evaluate(
          (s) => (globalThis as unknown as PageGlobals).document.activeElement?.matches(s) === true,
          selector,
        )
      )
        return;
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  for (const language of ['en', 'tr'] as const) {
    it(`shows every screen without an accessibility problem [${language}]`, async () => {
      await page.goto(`${base}/admin/account`);
      await page.locator(`footer button[value="${language}"]`).click();
      await page.waitForLoadState();
      expect(await page.locator('html').getAttribute('lang')).toBe(language);

      for (const path of [
        '/admin/settings/tokens',
        '/admin/settings/tokens/new',
        '/admin/settings/operators',
        '/admin/settings/operators/new',
        '/admin/audit',
        '/admin/audit?action=user.create&from=2000-01-01T00:00',
        '/admin/account',
      ]) {
        await page.goto(`${base}${path}`);
        expect(await page.locator('h1').count()).toBe(1);
        await check(`${path} ${language}`);
      }
      expect(await page.locator('main').textContent()).toContain('UTC');

      // A token created through the form: its value once, with a copy button.
      await page.goto(`${base}/admin/settings/tokens/new`);
      await page.locator('#name').fill(`browser ${language}`);
      await page.locator('input[name="permissions"][value="read"]').check();
      await page.locator('input[name="scope"][value="some"]').check();
      await page.locator('input[name="other"]').fill('venue-a');
      await page.locator('#expires').fill('2099-12-31');
      await page.locator('main form.stack button[type="submit"]').click();
      await page.locator('#token-value').waitFor();
      const value = ((await page.locator('#token-value').textContent()) ?? '').trim();
      expect(value).toMatch(/^hsp_/);
      await check(`token created ${language}`);
      const copy = page.locator('button[data-copy="token-value"]');
      const copied = (await copy.getAttribute('data-copied')) ?? '';
      await copy.click();
      await page.waitForFunction(
        (text) =>
          (globalThis as unknown as PageGlobals).document.querySelector('button[data-copy]')?.textContent === text,
        copied,
      );
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText())).toBe(
        value,
      );

      // A form with a problem is shown again with it.
      await page.goto(`${base}/admin/settings/tokens/new`);
      await page.locator('#name').fill('no permission');
      await page.locator('main form.stack button[type="submit"]').click();
      await page.locator('.problem').waitFor();
      await check(`token problem ${language}`);

      // An operator created through the form: its one-time password once.
      await page.goto(`${base}/admin/settings/operators/new`);
      await page.locator('#email').fill(`new-${language}@venue.example`);
      await page.locator('#name').fill(`New ${language}`);
      await page.locator('input[name="scope"][value="some"]').check();
      await page.locator('#other').fill('venue-a');
      await page.locator('main form.stack button[type="submit"]').click();
      await page.locator('#one-time-password').waitFor();
      await check(`operator created ${language}`);
      await page.locator('main a').last().click();
      await page.waitForLoadState();
      expect(await page.locator('h1').textContent()).toContain(`new-${language}@venue.example`);
      await check(`operator page ${language}`);
      await page.goto(`${page.url()}/disable`);
      await check(`operator confirm ${language}`);

      expect(await page.content()).not.toContain(value);
    }, 60_000);
  }

  it('creates a token and revokes it with the keyboard alone', async () => {
    await page.goto(`${base}/admin/settings/tokens/new`);
    await tabTo('#name');
    await page.keyboard.type('keyboard');
    await tabTo('input[name="permissions"][value="read"]');
    await page.keyboard.press('Space');
    await tabTo('form.stack button[type="submit"]');
    await page.keyboard.press('Enter');
    await page.locator('#token-value').waitFor();

    await tabTo('main a[href="/admin/settings/tokens"]');
    // The created page's URL is the list's already (the form posted there): wait for the new page.
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    expect(await page.locator('#token-value').count()).toBe(0);
    await tabTo('a[aria-label*="keyboard"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/revoke$/);
    await tabTo('button.danger');
    await page.keyboard.press('Enter');
    await page.waitForURL(/notice=notice\.tokens\.revoked/);
    const row = page.locator('tr', { hasText: 'keyboard' });
    expect(await row.locator('.badge').textContent()).toMatch(/Revoked|İptal edildi/);
    expect(browser.problems).toEqual([]);
  }, 30_000);
});
