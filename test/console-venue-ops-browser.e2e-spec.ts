import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { newId } from '../src/common/ids.js';
import { NasService } from '../src/nas/nas.service.js';
import { LoginAttemptEntity } from '../src/radius/entities/login-attempt.entity.js';
import { REJECT_MESSAGES } from '../src/radius/radius.rules.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { VenueEntity } from '../src/venues/entities/venue.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenOperator } from './support/console.js';
import { givenUserWithSessions } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The dashboard, login attempts and the NAS and venue settings in Chromium, with data on them: axe
 * finds nothing, in English and Turkish, at 1280 px and on a 360 px phone (no sideways scroll of
 * the page), no Content-Security-Policy or script error; a venue is added by keyboard alone.
 */
describe('console: dashboard, login attempts, NAS and venues in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.app
      .get(VenuesService)
      .set('venue-a', { displayName: 'Hotel Alpha', timeZone: 'Europe/Istanbul', ssid: 'Alpha Guest' });
    const nas = await testApp.app.get(NasService).add({
      venueId: 'venue-a',
      name: 'alpha-ap',
      ipAddress: '192.0.2.10',
      secret: 'a-very-long-nas-secret-0123456789',
    });
    await testApp.app.get(NasService).add({
      venueId: 'venue-a',
      name: 'alpha-quiet',
      ipAddress: '192.0.2.11',
      secret: 'a-very-long-nas-secret-0123456789',
    });
    const { user, sessions } = await givenUserWithSessions(testApp, { venues: ['venue-a'], sessions: 2 });
    await testApp.dataSource
      .getRepository(SessionEntity)
      .update({ id: sessions[0].id }, { nasClientId: nas.id, lastAccountingAt: new Date(Date.now() - 3_600_000) });
    for (const reason of Object.keys(REJECT_MESSAGES)) {
      await testApp.dataSource.getRepository(LoginAttemptEntity).insert({
        id: newId(),
        createdAt: new Date(),
        outcome: 'reject',
        nasClientId: nas.id,
        venueId: reason === 'unknownNas' ? null : 'venue-a',
        userId: reason === 'blocked' ? user._id : null,
        username: reason === 'blocked' ? user.username : `guest-${reason}`,
        macAddress: 'AA:BB:CC:DD:EE:0F',
        reason,
      });
    }
    browser = await TestBrowser.launch(DESKTOP);
    page = await browser.newPage();
    const admin = await givenOperator(testApp, { admin: true, permissions: ['delete'] });
    await signInInBrowser(page, base, admin.email);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  const screens = [
    '/admin',
    '/admin/logins',
    '/admin/logins?show=all&venueId=venue-a',
    '/admin/settings/nas',
    '/admin/settings/nas/new',
    '/admin/settings/venues',
    '/admin/settings/venues/venue-a/edit',
  ];

  for (const language of ['en', 'tr'] as const) {
    it(`shows every screen without an axe violation at 1280 px and 360 px [${language}]`, async () => {
      await browser.context.addCookies([{ name: 'lang', value: language, url: `${base}/admin` }]);
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        for (const path of screens) {
          const answer = await page.goto(`${base}${path}`);
          expect([path, answer?.status()]).toEqual([path, 200]);
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          expect([path, viewport.width, await axeViolations(page)]).toEqual([path, viewport.width, []]);
          expect([path, await pageWidth(page)]).toEqual([path, viewport.width]);
        }
      }
      expect(browser.problems).toEqual([]);
    }, 60_000);
  }

  it('adds a venue by keyboard alone', async () => {
    await browser.context.addCookies([{ name: 'lang', value: 'en', url: `${base}/admin` }]);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${base}/admin/settings/venues`);
    await page.locator('a[href="/admin/settings/venues/new"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/admin/settings/venues/new`);
    await page.locator('#venue-id').focus();
    await page.keyboard.type('venue-k');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Hotel Kilo');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Europe/Ist');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kilo Guest');
    await page.keyboard.press('Tab');
    await page.keyboard.type('https://wifi.example.com/kilo');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/admin/settings/venues?notice=notice.venues.added`);
    expect(await page.locator('.notice').textContent()).toContain('The venue was added');
    const venue = await testApp.dataSource.getRepository(VenueEntity).findOneByOrFail({ id: 'venue-k' });
    expect(venue).toMatchObject({
      displayName: 'Hotel Kilo',
      timeZone: 'Europe/Istanbul',
      ssid: 'Kilo Guest',
      portalUrl: 'https://wifi.example.com/kilo',
    });
    expect(await axeViolations(page)).toEqual([]);
    expect(browser.problems).toEqual([]);
  }, 30_000);
});
