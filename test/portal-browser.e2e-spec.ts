import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { axeViolations, pageWidth, PHONE, TestBrowser } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const VENUE = 'browser-portal';

/**
 * The guest portal in Chromium at 360 px: the voucher way in English and the terms way in Turkish,
 * from the gateway's redirect to the hand-over's POST reaching a stand-in MikroTik login URL; every
 * page axe-core clean, without a sideways scroll, a CSP refusal or a script error.
 */
describe('guest portal in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let gateway: Server;
  let gatewayBase: string;
  const logins: URLSearchParams[] = [];
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite', { SECRETS_KEY: 'd'.repeat(64) });
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.app.get(VenuePortalsService).set(VENUE, {
      ways: ['voucher', 'terms'],
      displayName: 'Otel Lobisi',
      termsText: 'Ağı nazikçe kullanın.\n\nDosya paylaşımı yok.',
      privacyText: 'Yalnızca yasanın istediğini saklarız.',
      colourAccent: '#0b4f8a',
    });
    await testApp.http
      .post('/api/v1/hotspot-users')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({
        name: 'Card 7',
        loginMethod: 'username_password',
        username: 'card-7',
        password: 'Hm4sPq8rTv',
        venueIds: [VENUE],
      })
      .expect(201);
    gateway = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        if (req.method === 'POST') logins.push(new URLSearchParams(body));
        res
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end('<!doctype html><html lang="en"><title>Gateway</title><main><h1>You are online</h1></main></html>');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayBase = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    browser = await TestBrowser.launch(PHONE);
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => gateway?.close(resolve));
    await testApp?.close();
  });

  async function check(name: string): Promise<void> {
    expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, width: await pageWidth(page) }).toEqual({ name, width: PHONE.width });
    expect(browser.problems).toEqual([]);
  }

  const arrival = (mac: string) =>
    `${base}/portal/${VENUE}?link-login-only=${encodeURIComponent(`${gatewayBase}/login`)}` +
    `&mac=${encodeURIComponent(mac)}&ip=10.5.50.9&dst=${encodeURIComponent(`${gatewayBase}/landing`)}`;

  it('the voucher way, in English: a wrong code first, then the card, handed to the gateway', async () => {
    await page.goto(`${arrival('02:00:00:00:07:01')}&lang=en`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Welcome');
    await check('start (en)');
    await page.getByRole('link', { name: 'I have a voucher' }).click();
    await check('voucher form (en)');
    await page.getByLabel('Username').fill('card-7');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This voucher is not valid here. Check what you typed.',
    );
    await check('voucher refused (en)');
    await page.getByLabel('Voucher code').fill('card-7-Hm4sPq8rTv');
    await page.getByRole('checkbox').check();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${gatewayBase}/login`);
    await expect(page.locator('h1').textContent()).resolves.toBe('You are online');
    expect(Object.fromEntries(logins.at(-1)!)).toEqual({
      username: 'card-7',
      password: 'Hm4sPq8rTv',
      dst: `${gatewayBase}/landing`,
      popup: 'false',
    });
  });

  it('the terms way, in Turkish: the terms read, accepted by keyboard, a one-time pass handed over', async () => {
    await page.goto(arrival('02:00:00:00:07:02'));
    await page.getByRole('link', { name: 'Türkçe' }).click();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('tr');
    await check('start (tr)');
    await page.getByRole('link', { name: 'Koşulları kabul et ve bağlan' }).click();
    await expect(page.locator('.terms').textContent()).resolves.toContain('Dosya paylaşımı yok.');
    await check('terms (tr)');
    await page.getByRole('link', { name: 'Gizlilik bildirimi' }).click();
    await check('privacy (tr)');
    await page.goBack();
    await page.getByRole('checkbox').focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Kabul et ve bağlan' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${gatewayBase}/login`);
    const login = Object.fromEntries(logins.at(-1)!);
    expect(login).toMatchObject({ username: 'guest-020000000702', dst: `${gatewayBase}/landing` });
    expect(login.password).toMatch(/^[A-Za-z2-9]{24}$/);
  });

  it('the hand-over page itself works without JavaScript: its button posts the form', async () => {
    // A context of its own without JavaScript (the suite's browser runs scripts).
    const noScript = await browser.context.browser()!.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const quiet = await noScript.newPage();
    try {
      await quiet.goto(`${arrival('02:00:00:00:07:03')}&lang=en`);
      await quiet.getByRole('link', { name: 'Accept the terms and connect' }).click();
      await quiet.getByRole('checkbox').check();
      await quiet.getByRole('button', { name: 'Accept and connect' }).click();
      await expect(quiet.locator('h1').textContent()).resolves.toBe('Connecting you');
      await quiet.getByRole('button', { name: 'Continue' }).click();
      await quiet.waitForURL(`${gatewayBase}/login`);
      expect(logins.at(-1)?.get('username')).toBe('guest-020000000703');
    } finally {
      await noScript.close();
    }
  });
});
