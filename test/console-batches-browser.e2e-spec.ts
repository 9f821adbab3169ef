import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { VenuesService } from '../src/venues/venues.service.js';
import { givenOperator } from './support/console.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The printable height of an A4 page with the print stylesheet's 12 mm margins, in CSS pixels. */
const A4_CONTENT_HEIGHT_PX = ((297 - 2 * 12) * 96) / 25.4;
const A4_CONTENT_WIDTH_PX = ((210 - 2 * 12) * 96) / 25.4;

/**
 * The batches screen in Chromium: every page with data, in English and Turkish, at 1280 px and
 * 360 px (axe-core clean, no sideways scroll, no CSP or script error); a batch created and its cards
 * printed by keyboard alone; and the cards page in print: A4 pages of whole cards in Chromium's PDF.
 */
describe('console batches screen in a browser', () => {
  const VENUE = 'browser-batches';
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let batchId: string;
  let shots: string;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite', { SECRETS_KEY: 'c'.repeat(64) });
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
    await testApp.app.get(VenuesService).set(VENUE, {
      displayName: 'Otel Lobisi',
      ssid: 'Otel Misafir',
      portalUrl: 'https://portal.example/login?venue=lobby',
    });
    const created = await testApp.http
      .post('/api/v1/hotspot-user-batches')
      .set('Authorization', `Bearer ${testApp.adminToken}`)
      .send({ venueId: VENUE, count: 20, label: 'Fuar 2030', expiresAt: '2030-01-31T12:00:00Z' })
      .expect(201);
    batchId = created.body.data.id;
    const operator = await givenOperator(testApp, { permissions: ['read', 'write'], venueIds: [VENUE] });
    browser = await TestBrowser.launch(DESKTOP);
    page = await browser.newPage();
    await signInInBrowser(page, base, operator.email);
    // BATCH_SHOTS=<dir> keeps the screenshots and the PDF there to look at.
    shots = process.env.BATCH_SHOTS ?? mkdtempSync(join(tmpdir(), 'hotspot-batches-shots-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    if (shots && process.env.BATCH_SHOTS === undefined) rmSync(shots, { recursive: true, force: true });
  });

  async function check(name: string, viewport: { width: number }): Promise<void> {
    expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, width: await pageWidth(page) }).toEqual({ name, width: viewport.width });
    expect(browser.problems).toEqual([]);
  }

  async function language(lang: 'en' | 'tr'): Promise<void> {
    await page.goto(`${base}/admin/batches`);
    if ((await page.locator('html').getAttribute('lang')) !== lang) {
      await page.locator(`footer button[value="${lang}"]`).click();
      await page.waitForLoadState();
    }
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
  }

  for (const lang of ['en', 'tr'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      it(`shows every batches page without an accessibility problem [${lang}, ${viewport.width} px]`, async () => {
        await page.setViewportSize(viewport);
        await language(lang);
        await page.goto(`${base}/admin/batches`);
        expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
        await check('list', viewport);
        await page.locator('#batch-count').fill('5');
        await page.locator('#batch-prefix').fill('not valid');
        await page.locator('#batch-expiresAt').fill('2030-01-31T12:00');
        await page.locator('#batch-count').press('Enter');
        await page.waitForLoadState();
        expect(await page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
        await check('form with problems', viewport);
        await page.goto(`${base}/admin/batches/${batchId}`);
        expect(await page.locator('tbody tr').count()).toBe(20);
        await check('batch', viewport);
        await page.goto(`${base}/admin/batches/${batchId}/export.csv`);
        await check('export confirmation', viewport);
        await page.goto(`${base}/admin/batches/${batchId}/print`);
        await check('print confirmation', viewport);
        await page.locator('main form button[type="submit"]').click();
        await page.locator('.card').first().waitFor();
        expect(await page.locator('.card').count()).toBe(20);
        // The Wi-Fi network's code on each card (the portal's address under it), the network named.
        expect(await page.locator('.card svg.qr').count()).toBe(20);
        expect(await page.locator('.card', { hasText: 'Otel Misafir' }).count()).toBe(20);
        await check('cards', viewport);
        await page.screenshot({ path: join(shots, `cards-${lang}-${viewport.width}.png`), fullPage: true });
      }, 60_000);
    }
  }

  it('offers an operator of every venue the registered venues, and warns of one typed [360 px]', async () => {
    const desk = await TestBrowser.launch(PHONE);
    try {
      const own = await desk.newPage();
      const operator = await givenOperator(testApp, { permissions: ['read', 'write'] });
      await signInInBrowser(own, base, operator.email);
      await own.goto(`${base}/admin/batches`);
      await own.locator('#batches-other').fill('typo-venue');
      await own.locator('#batches-other').press('Enter');
      await own.waitForURL(/otherVenueId=typo-venue/);
      expect(await own.locator('#batch-venue-unregistered').textContent()).toContain('typo-venue is not registered');
      expect(await own.locator('#batches-venue').inputValue()).toBe('typo-venue');
      // Back to the registered venue with the keyboard: its option in the select.
      await own.locator('#batches-other').fill('');
      await own.locator('#batches-venue').selectOption(VENUE);
      await own.locator('#batches-venue').focus();
      await own.keyboard.press('Tab');
      await own.keyboard.press('Tab');
      await own.keyboard.press('Enter');
      await own.waitForURL(new RegExp(`venueId=${VENUE}`));
      expect(await own.locator('#batch-venue-unregistered').count()).toBe(0);
      expect(await axeViolations(own)).toEqual([]);
      expect(await pageWidth(own)).toBe(PHONE.width);
      expect(desk.problems).toEqual([]);
    } finally {
      await desk.close();
    }
  }, 60_000);

  it('prints whole cards on A4 pages in Chromium’s print-to-PDF', async () => {
    await page.setViewportSize({ width: Math.floor(A4_CONTENT_WIDTH_PX), height: 900 });
    await page.goto(`${base}/admin/batches/${batchId}/print`);
    await page.locator('main form button[type="submit"]').click();
    await page.locator('.card').first().waitFor();
    await page.emulateMedia({ media: 'print' });
    // Each sheet (one page) fits the printable height, and each card lies wholly inside its sheet.
    const layout = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<unknown> } }).document;
      type Box = { top: number; bottom: number; height: number };
      type Element = { getBoundingClientRect(): Box; querySelectorAll(s: string): Iterable<Element> };
      return [...(doc.querySelectorAll('.sheet') as Iterable<Element>)].map((sheet) => {
        const box = sheet.getBoundingClientRect();
        return {
          height: box.height,
          cardsInside: [...sheet.querySelectorAll('.card')].every((card) => {
            const inner = card.getBoundingClientRect();
            return inner.top >= box.top - 0.5 && inner.bottom <= box.bottom + 0.5 && inner.height > 100;
          }),
          // Nothing of a card (its lines, its code) is cut off by the card's edge.
          contentInside: [...sheet.querySelectorAll('.card')].every((card) => {
            const inner = card.getBoundingClientRect();
            return [...card.querySelectorAll('dl, svg, .card-url')].every(
              (part) => part.getBoundingClientRect().bottom <= inner.bottom + 0.5,
            );
          }),
          cards: [...sheet.querySelectorAll('.card')].length,
        };
      });
    });
    expect(layout.map((sheet) => sheet.cards)).toEqual([8, 8, 4]);
    for (const sheet of layout) {
      expect(sheet.cardsInside).toBe(true);
      expect(sheet.contentInside).toBe(true);
      expect(sheet.height).toBeLessThanOrEqual(A4_CONTENT_HEIGHT_PX);
    }
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
    writeFileSync(join(shots, 'cards.pdf'), pdf);
    // One PDF page per sheet: the page breaks fall between sheets, never inside a card.
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
    expect(pages).toHaveLength(3);
    await page.emulateMedia({ media: 'screen' });
    expect(browser.problems).toEqual([]);
  }, 30_000);

  it('creates a batch and prints its cards with the keyboard alone', async () => {
    await page.setViewportSize(DESKTOP);
    await language('en');
    await page.goto(`${base}/admin/batches`);
    const focusedId = () =>
      page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
      );
    for (let i = 0; i < 60 && (await focusedId()) !== 'batch-count'; i += 1) await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('batch-count');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('batch-expiresAt');
    await page.keyboard.type('01312030');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1200PM');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/batches\/[^/?]+\?notice=/);
    const focusedText = () =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement
            .textContent,
      );
    for (let i = 0; i < 60 && (await focusedText()) !== 'Print cards'; i += 1) await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Print cards');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/print$/);
    for (let i = 0; i < 60 && (await focusedText()) !== 'Show the cards'; i += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('.card').first().waitFor();
    expect(await page.locator('.card').count()).toBe(3);
    expect(browser.problems).toEqual([]);
  }, 30_000);
});
