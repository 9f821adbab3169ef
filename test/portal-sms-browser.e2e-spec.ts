import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { axeViolations, pageWidth, PHONE, TestBrowser } from './support/browser.js';
import { KANNEL_MISSING, kannelInstalled, startKannel, type Kannel } from './support/kannel.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The SMS way in Chromium at 360 px, by keyboard: the venue page, the phone form, the code form with
 * the code fakesmsc received through Debian's Kannel, and the hand-over that posts to the gateway (a
 * local server standing in for MikroTik's login page). Every page axe-clean, none wider than the
 * phone, no CSP or script error. SQLite only: what the browser sees does not depend on the database.
 */
const describeWithKannel = kannelInstalled() ? describe : describe.skip;
if (!kannelInstalled()) console.warn(KANNEL_MISSING);

describeWithKannel('the SMS way in a browser at 360 px', () => {
  const VENUE = 'harbour';
  let kannel: Kannel;
  let testApp: TestApp;
  let base: string;
  let gateway: Server;
  let gatewayUrl: string;
  const logins: string[] = [];
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    kannel = await startKannel();
    gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'POST') logins.push(body);
        res
          .writeHead(200, { 'Content-Type': 'text/html' })
          .end('<!doctype html><title>Online</title><p>You are online.</p>');
      });
    });
    await new Promise<void>((done) => gateway.listen(0, '127.0.0.1', done));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/login`;
    testApp = await startTestApp('sqlite', {
      WORKER_ENABLED: 'true',
      PORTAL_FORMS_PER_MINUTE: '0',
      SMS_GATEWAY: 'kannel',
      SMS_GATEWAY_URL: kannel.sendsmsUrl,
      SMS_POLL_INTERVAL_MS: '50',
    });
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.app
      .get(VenuePortalsService)
      .set(VENUE, { ways: ['voucher', 'sms'], displayName: 'Harbour Hotel', termsText: 'Be kind to the network.' });
    browser = await TestBrowser.launch(PHONE);
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    await new Promise<void>((done) => gateway?.close(() => done()));
    await kannel?.stop();
  });

  async function expectClean(): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
  }

  it('walks from the venue page to the gateway by keyboard, every page clean', async () => {
    const query = `?link-login-only=${encodeURIComponent(gatewayUrl)}&mac=02%3A00%3A00%3A00%3A02%3A01&ip=10.5.50.9`;
    await page.goto(`${base}/portal/${VENUE}${query}`);
    await expectClean();
    await page.getByRole('link', { name: 'Sign in with my phone number' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/portal/${VENUE}/sms`);
    await expectClean();

    // A number without its country code is refused, with the reason next to the field.
    await page.locator('#sms-phone').fill('0555 100 00 09');
    await page.getByRole('checkbox').check();
    await page.locator('#sms-phone').press('Enter');
    await page.locator('#sms-problem').waitFor();
    expect(await page.locator('#sms-problem').textContent()).toBe(
      'Type the number with its country code, starting with +.',
    );
    await expectClean();

    const seen = kannel.received().length;
    await page.locator('#sms-phone').fill('+90 555 100 00 09');
    await page.getByRole('checkbox').check();
    await page.locator('#sms-phone').press('Enter');
    await page.waitForURL(`${base}/portal/${VENUE}/sms/code`);
    expect(await page.locator('#sms-sent-to').textContent()).toBe(
      'We sent a 6-digit code to +90 ••• 09. It is valid for 10 minutes.',
    );
    await expectClean();

    const message = await kannel.waitFor((m) => m.to === '+905551000009' && kannel.received().indexOf(m) >= seen);
    const code = /(\d{6})/.exec(message.text)![1];
    await page.locator('#sms-code').fill(code);
    await page.locator('#sms-code').press('Enter');
    // The hand-over page posts itself to the gateway.
    await page.waitForURL(gatewayUrl);
    expect(await page.textContent('p')).toBe('You are online.');
    const login = new URLSearchParams(logins.at(-1));
    const user = await testApp.dataSource
      .getRepository(HotspotUserEntity)
      .findOneByOrFail({ username: login.get('username') ?? '' });
    expect(user).toMatchObject({ loginMethod: 'sms', phone: '+905551000009' });
    expect(browser.problems).toEqual([]);
  }, 60_000);

  it('shows the code page in Turkish, clean too', async () => {
    await page.goto(`${base}/portal/${VENUE}/sms?lang=tr`);
    expect(await page.locator('h1').textContent()).toBe('Telefonunuzla bağlanın');
    await expectClean();
    expect(browser.problems).toEqual([]);
  });
});
