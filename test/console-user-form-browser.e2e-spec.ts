import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { givenOperator } from './support/console.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenGuest } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The user form's zone, stays and limits, and long typed text, in Chromium: axe-core finds nothing and
 * no page scrolls sideways at 360 px, even for a 255-character unbroken name; a stay is chosen and
 * saved with the keyboard alone. SQLite only: what the browser sees does not depend on the database.
 */
describe('console user form in a browser', () => {
  const VENUE = 'form-hotel';
  const SPA = 'form-spa';
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let longName: { _id: string };

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.app.get(VenuesService).set(VENUE, { timeZone: 'Europe/Istanbul', checkOutTime: '11:00' });
    await testApp.app.get(VenuesService).set(SPA, { displayName: 'Spa Otel' });
    longName = await givenGuest(testApp, { name: 'W'.repeat(255), room: 'R'.repeat(32), venueIds: [VENUE] });
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

  for (const viewport of [PHONE, DESKTOP]) {
    it(`keeps a 255-character unbroken name and the stay choices inside the page [${viewport.width} px]`, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/admin/users/${longName._id}?venueId=${VENUE}`);
      await check('user page with a long name', viewport);
      await page.goto(`${base}/admin/users?venueId=${VENUE}`);
      await check('list with a long name', viewport);
      // The row's actions are on screen, not past the wide row's right edge.
      const action = await page.locator('.row-actions a').first().boundingBox();
      expect(action !== null && action.x >= 0 && action.x + action.width <= viewport.width).toBe(true);
      await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
      await check('create form with the stays', viewport);
    }, 60_000);
  }

  for (const viewport of [PHONE, DESKTOP]) {
    it(`picks venues by keyboard, and asks to confirm a typed unregistered one [${viewport.width} px]`, async () => {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
      expect(await page.locator(`input[name="venue"][value="${VENUE}"]`).isChecked()).toBe(true);
      const spa = page.locator(`input[name="venue"][value="${SPA}"]`);
      expect(await page.locator('label', { has: spa }).textContent()).toBe(' Spa Otel (form-spa)');
      expect(await spa.isChecked()).toBe(false);
      await spa.focus();
      await page.keyboard.press('Space');
      expect(await spa.isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
        ),
      ).toBe('user-venueIds');
      await page.keyboard.type('form-spaa');
      await page.locator('#user-name').fill(`Picker Guest ${viewport.width}`);
      await page.locator('#user-username').fill(`picker-${viewport.width}`);
      await page.locator('#user-name').press('Enter');
      await page.waitForLoadState();
      expect(await page.locator('#user-unregistered-list').textContent()).toContain('Not registered: form-spaa.');
      expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
      await check('form asking to confirm an unregistered venue', viewport);
      // Both ticked venues stay ticked; the typed one is kept, and confirmed with the keyboard.
      expect(await spa.isChecked()).toBe(true);
      await page.locator('#user-unregistered').focus();
      await page.keyboard.press('Space');
      await page.locator('#user-name').press('Enter');
      await page.locator('#generated-password').waitFor();
      const user = await testApp.dataSource
        .getRepository(HotspotUserEntity)
        .findOneByOrFail({ username: `picker-${viewport.width}` });
      const shown = await testApp.http
        .get(`/api/v1/hotspot-users/${user.id}`)
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .expect(200);
      expect(shown.body.data.venueIds).toEqual([VENUE, SPA, 'form-spaa']);
      expect(browser.problems).toEqual([]);
    }, 30_000);
  }

  it('creates a user whose stay ends at check-out, with the keyboard alone', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${base}/admin/users/new?venueId=${VENUE}`);
    await page.locator('#user-name').focus();
    await page.keyboard.type('Keyboard Guest');
    await page.keyboard.press('Tab');
    await page.keyboard.type('keyboard-guest');
    await page.locator('#user-stay').focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#user-stay').inputValue()).toBe('checkOut');
    // Past the notes to the form's button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { type: string } } }).document.activeElement.type,
      ),
    ).toBe('submit');
    await page.keyboard.press('Enter');
    await page.locator('#generated-password').waitFor();
    const user = await testApp.dataSource
      .getRepository(HotspotUserEntity)
      .findOneByOrFail({ username: 'keyboard-guest' });
    // 11:00 in Istanbul is 08:00 UTC.
    expect(user.expiresAt?.toISOString()).toMatch(/T08:00:00\.000Z$/);
    expect(browser.problems).toEqual([]);
  }, 30_000);
});
