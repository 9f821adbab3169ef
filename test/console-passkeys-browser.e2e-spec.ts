import type { CDPSession, Page } from 'playwright-core';
import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { OperatorPasskeyEntity } from '../src/operators/entities/operator-passkey.entity.js';
import { axeViolations, DESKTOP, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { ConsoleBrowser, givenOperator, newTotpSecret, OPERATOR_PASSWORD, totpCode } from './support/console.js';
import { freePort } from './support/service-process.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Passkeys in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain): added
 * in My account, used at sign-in instead of a code, refused when replayed or forged; the pages pass
 * axe-core at 1280 and 360 px. The console runs at http://localhost:<port>, its CONSOLE_ORIGIN, since
 * a passkey is bound to a host name. SQLite only: what the browser sees does not depend on the database.
 */
describe('console passkeys in a browser', () => {
  let testApp: TestApp;
  let base: string;
  let browser: TestBrowser;
  let page: Page;
  let cdp: CDPSession;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    testApp = await startTestApp('sqlite', { CONSOLE_ORIGIN: base });
    await testApp.app.listen(port, '127.0.0.1');
    browser = await TestBrowser.launch(DESKTOP);
    page = await browser.newPage();
    cdp = await browser.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'usb',
        hasResidentKey: false,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  it('adds a passkey in My account and signs in with it instead of a code; a replayed or forged answer is refused', async () => {
    const totpSecret = newTotpSecret();
    const operator = await givenOperator(testApp, { totpSecret, permissions: ['read'] });
    await signInInBrowser(page, base, operator.email, totpSecret);

    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base}/admin/account`);
      expect(await axeViolations(page)).toEqual([]);
      expect(await pageWidth(page)).toBe(viewport.width);
    }
    await page.setViewportSize(DESKTOP);
    await page.locator('#passkey-name').fill('Desk key');
    await page.locator('form[data-passkey] button[type="submit"]').click();
    await page.waitForURL(`${base}/admin/account?notice=notice.account.passkeyAdded`);
    expect(await page.locator('ul.passkeys').textContent()).toContain('Desk key');
    const [stored] = await testApp.dataSource.getRepository(OperatorPasskeyEntity).findBy({ operatorId: operator.id });
    expect(stored).toMatchObject({ name: 'Desk key', lastUsedAt: null });

    // Sign out, then in with the password and the passkey.
    await page.locator('form[action="/admin/logout"] button').first().click();
    await page.waitForURL(`${base}/admin/login`);
    await page.locator('#email').fill(operator.email);
    await page.locator('#password').fill(OPERATOR_PASSWORD);
    await page.locator('#password').press('Enter');
    await page.waitForURL(`${base}/admin/login/second-factor`);
    expect(await axeViolations(page)).toEqual([]);
    let answer = '';
    page.on('request', (request) => {
      if (request.url().endsWith('/admin/login/passkey') && request.method() === 'POST') {
        answer = new URLSearchParams(request.postData() ?? '').get('response') ?? '';
      }
    });
    await page.locator('form[data-passkey] button[type="submit"]').click();
    await page.waitForURL(`${base}/admin`);
    expect(browser.problems).toEqual([]);
    const used = await testApp.dataSource.getRepository(OperatorPasskeyEntity).findOneByOrFail({ id: stored.id });
    expect(used.lastUsedAt).not.toBeNull();
    const signIns = await testApp.dataSource
      .getRepository(AuditEventEntity)
      .findBy({ actorId: operator.id, action: 'signin.success' });
    expect(signIns).toHaveLength(2);

    // The same answer again, in a new sign-in with a new challenge: refused.
    expect(answer).toContain('"id"');
    const replay = new ConsoleBrowser(() => testApp.http);
    expect((await replay.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD })).status).toBe(
      303,
    );
    expect((await replay.get('/admin/login/passkey/options')).status).toBe(200);
    const replayed = await replay.post('/admin/login/passkey', { response: answer });
    expect(replayed.status).toBe(401);
    expect(replayed.text).toContain('The passkey was not accepted.');
    // A forged answer, and one without any challenge asked for.
    expect((await replay.post('/admin/login/passkey', { response: '{"id":"x","response":{}}' })).status).toBe(401);
    expect((await replay.post('/admin/login/passkey', { response: 'not json' })).status).toBe(401);
    expect((await replay.get('/admin')).headers.location).toBe('/admin/login/second-factor');

    // Removed from My account; another operator cannot remove it; both changes audited, never the key.
    const otherSecret = newTotpSecret();
    const other = await givenOperator(testApp, { totpSecret: otherSecret });
    const stranger = new ConsoleBrowser(() => testApp.http);
    await stranger.post('/admin/login', { email: other.email, password: OPERATOR_PASSWORD });
    await stranger.post('/admin/login/second-factor', { code: totpCode(otherSecret, new Date()) });
    expect((await stranger.get('/admin/account')).status).toBe(200);
    expect((await stranger.post(`/admin/account/passkeys/${stored.id}/remove`, {})).status).toBe(404);
    await page.goto(`${base}/admin/account`);
    await page.locator('ul.passkeys button').click();
    await page.waitForURL(`${base}/admin/account?notice=notice.account.passkeyRemoved`);
    expect(await testApp.dataSource.getRepository(OperatorPasskeyEntity).countBy({ operatorId: operator.id })).toBe(0);
    const changes = await testApp.dataSource
      .getRepository(AuditEventEntity)
      .findBy({ actorId: operator.id, action: 'operator.update' });
    expect(changes.map((row) => row.changedFields)).toEqual([['passkeys'], ['passkeys']]);
    expect(JSON.stringify(changes)).not.toContain(stored.publicKey);
  }, 60_000);

  it('offers no passkeys without CONSOLE_ORIGIN', async () => {
    const plain = await startTestApp('sqlite', { OPERATORS_REQUIRE_2FA: 'false' });
    try {
      const operator = await givenOperator(plain);
      const client = new ConsoleBrowser(() => plain.http);
      await client.post('/admin/login', { email: operator.email, password: OPERATOR_PASSWORD });
      const account = await client.get('/admin/account');
      expect(account.text).toContain('Passkeys are not available');
      expect(account.text).not.toContain('data-passkey');
      expect((await client.get('/admin/account/passkeys/options')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
