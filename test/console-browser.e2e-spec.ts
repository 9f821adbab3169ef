import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { axeViolations, pageWidth, PHONE, TestBrowser } from './support/browser.js';
import { givenOperator, OPERATOR_PASSWORD, totpCode } from './support/console.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The console in a real browser (Debian's chromium): a form posted from another origin is refused,
 * the pages work with the keyboard alone and on a 360 px wide phone, break no Content-Security-Policy
 * rule, and axe-core finds no accessibility problem on them, in English and in Turkish. Runs once:
 * what the browser sees does not depend on the database.
 */

describe('console in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let foreign: Server;
  let foreignBase: string;
  let testBrowser: TestBrowser;
  let browser: BrowserContext;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    // Another origin (another port) whose page posts a sign-in form to the console.
    foreign = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><title>elsewhere</title><form method="post" action="${base}/admin/login">` +
          `<input name="email" value="victim@venue.example"><input name="password" value="guess">` +
          `<button id="go" type="submit">go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignBase = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
    testBrowser = await TestBrowser.launch(PHONE);
    browser = testBrowser.context;
  }, 60_000);

  afterAll(async () => {
    await testBrowser?.close();
    await new Promise((resolve) => foreign?.close(resolve));
    await testApp?.close();
  });

  const newPage = (): Promise<Page> => testBrowser.newPage();

  /** axe-core's violations on the page, and whether it is wider than the phone. */
  async function check(page: Page, name: string): Promise<void> {
    expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, width: await pageWidth(page) }).toEqual({ name, width: PHONE.width });
    expect(testBrowser.problems).toEqual([]);
  }

  it('refuses a sign-in form posted from another origin', async () => {
    const operator = await givenOperator(testApp, { email: 'victim@venue.example', password: 'guess' });
    expect(operator.email).toBe('victim@venue.example');
    const page = await newPage();
    await page.goto(`${foreignBase}/`);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${base}/admin/login`),
      page.locator('#go').click(),
    ]);
    expect(answer.status()).toBe(403);
    expect(await page.locator('main').textContent()).toContain('came from another site');
    expect((await browser.cookies(base)).map((cookie) => cookie.name)).not.toContain('hotspot_console');
    await page.close();
  }, 30_000);

  for (const language of ['en', 'tr'] as const) {
    it(`signs in, enrols and reaches home by keyboard; axe finds nothing on any page [${language}]`, async () => {
      await browser.clearCookies();
      const operator = await givenOperator(testApp, { admin: true });
      const page = await newPage();
      await page.goto(`${base}/admin/login`);
      if (language === 'tr') {
        await page.locator('button[value="tr"]').click();
        await page.waitForURL(`${base}/admin/login`);
      }
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      await check(page, `login ${language}`);

      // Keyboard only: the email field is the first stop after the page's start.
      await page.locator('#email').focus();
      await page.keyboard.type(operator.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(OPERATOR_PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/admin/two-factor`);
      await check(page, `enrolment ${language}`);
      expect(await page.locator('svg.qr').count()).toBe(1);

      const secret = (await page.locator('code.secret').textContent()) ?? '';
      await page.locator('#code').focus();
      await page.keyboard.type(totpCode(secret, new Date()));
      await page.keyboard.press('Enter');
      await page.locator('ul.codes').waitFor();
      expect(await page.locator('ul.codes li').count()).toBe(10);
      await check(page, `recovery codes ${language}`);

      await page.locator('main a').click();
      await page.waitForURL(`${base}/admin`);
      await check(page, `home ${language}`);

      await page.locator('form[action="/admin/logout"] button').click();
      await page.waitForURL(`${base}/admin/login`);
      await page.locator('#email').fill(operator.email);
      await page.locator('#password').fill(OPERATOR_PASSWORD);
      await page.locator('#password').press('Enter');
      await page.waitForURL(`${base}/admin/login/second-factor`);
      await check(page, `second factor ${language}`);

      await page.locator('#code').fill('000000');
      await page.locator('#code').press('Enter');
      await page.locator('.problem').waitFor();
      await check(page, `second factor refused ${language}`);
      await page.close();
    }, 60_000);
  }
});
