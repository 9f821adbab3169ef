import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { givenUser, GUEST } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The interactive docs page (/api/docs) in a real browser (Debian's chromium), as someone trying the
 * API for the first time uses it: the page loads under the service's Content-Security-Policy, is
 * titled after the API, keeps the token across a reload, and "Try it out" answers with live data;
 * the list's filters start empty, so they hide nobody. Runs once: the page does not depend on the
 * database.
 */

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VENUE = 'docs-venue';

describe('docs page in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let profile: string;
  let browser: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'hotspot-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    // What the browser refuses under the Content-Security-Policy, and scripts that fail.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await testApp?.close();
  });

  function operation(method: string, path: string): Locator {
    return page.locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`);
  }

  /** Opens an operation, switches to "Try it out" and returns its block. */
  async function tryOut(method: string, path: string): Promise<Locator> {
    const block = operation(method, path);
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    return block;
  }

  async function execute(block: Locator): Promise<{ status: string; body: string; url: string }> {
    await block.locator('button.execute').click();
    const live = block.locator('.live-responses-table');
    const status = live.locator('tbody .response-col_status').first();
    await status.waitFor();
    return {
      status: (await status.textContent())?.trim() ?? '',
      body: (await live.locator('.response-col_description pre').first().textContent()) ?? '',
      url: (await block.locator('.request-url pre').textContent()) ?? '',
    };
  }

  it('loads under the Content-Security-Policy with the API as its title', async () => {
    const response = await page.goto(`${base}/api/docs`);
    expect(response?.headers()['content-security-policy']).toBeDefined();
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(await page.title()).toBe('Hotspot User Management API (v1)');
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Hotspot User Management API');
    // The quick start is on the page.
    expect(await page.locator('.swagger-ui .info .description').textContent()).toContain('Quick start');
    expect(problems).toEqual([]);
  }, 30_000);

  it('keeps the token when the page is reloaded', async () => {
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.auth-container input[type="text"]').fill(testApp.adminToken);
    await page.locator('.auth-btn-wrapper button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').click();
    await page.locator('.auth-wrapper button.authorize.locked').waitFor();

    await page.reload();
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.auth-wrapper button.authorize.locked').waitFor({ timeout: 10_000 });
    expect(problems).toEqual([]);
  }, 30_000);

  it('"Try it out" on the status check answers 200 with the token', async () => {
    const block = await tryOut('get', '/api/v1');
    const answer = await execute(block);
    expect(answer.status).toBe('200');
    expect(JSON.parse(answer.body)).toEqual({ success: true, message: 'Server API aktif' });
  }, 30_000);

  it('"Try it out" on the list, with only venueId typed in, shows every user of the venue', async () => {
    const withMac = await givenUser(testApp, {
      ...GUEST,
      name: 'Docs Guest A',
      venueIds: [VENUE],
      macAddress: '02:00:00:00:00:01',
    });
    const withoutMac = await givenUser(testApp, { ...GUEST, name: 'Docs Guest B', venueIds: [VENUE] });
    await page.reload();
    const block = await tryOut('get', '/api/v1/hotspot-users');

    // The filters start empty: an example is a hint, not a value.
    for (const name of ['venueId', 'macAddress']) {
      expect(await block.locator(`tr[data-param-name="${name}"] input`).inputValue()).toBe('');
    }
    expect(await block.locator('tr[data-param-name="status"] select').inputValue()).toBe('');
    expect(await block.locator('tr[data-param-name="macAddress"] .parameters-col_description').textContent()).toContain(
      'e.g. AA:BB:CC:DD:EE:FF',
    );

    await block.locator('tr[data-param-name="venueId"] input').fill(VENUE);
    const answer = await execute(block);
    expect(answer.url).not.toMatch(/macAddress|status=/);
    expect(answer.status).toBe('200');
    const body = JSON.parse(answer.body) as { data: Array<{ _id: string }> };
    expect(body.data.map((user) => user._id).sort()).toEqual([withMac._id, withoutMac._id].sort());
    expect(problems).toEqual([]);
  }, 30_000);
});
