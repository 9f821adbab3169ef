import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { GuestIdentityEntity } from '../src/guest-access/entities/guest-identity.entity.js';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { SocialProvidersService } from '../src/social-sign-in/social-providers.service.js';
import { axeViolations, pageWidth, PHONE, signInInBrowser, TestBrowser } from './support/browser.js';
import { givenOperator, newTotpSecret } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { startTestIdp, type TestIdp } from './support/oidc-provider.js';
import { freePort } from './support/service-process.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CLIENT_SECRET = 'browser-idp-client-secret-4f2a9c0d';

/** A gateway's login URL on loopback: it takes the hand-over's POST, and answers when the test releases it. */
class TestGateway {
  private constructor(
    private readonly server: Server,
    readonly loginUrl: string,
    readonly posts: URLSearchParams[],
    private readonly held: Array<() => void>,
  ) {}

  static async start(): Promise<TestGateway> {
    const posts: URLSearchParams[] = [];
    const held: Array<() => void> = [];
    const server = createServer((request, response) => {
      // The browser also asks the gateway for its favicon: only the POSTs are hand-overs.
      if (request.method !== 'POST') {
        response.statusCode = 404;
        response.end();
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        posts.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        held.push(() =>
          response.setHeader('Content-Type', 'text/html').end('<!doctype html><title>Online</title><p>You are online'),
        );
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return new TestGateway(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/login`, posts, held);
  }

  /** Waits (bounded) until the gateway has `count` posts. */
  async received(count: number): Promise<URLSearchParams> {
    for (let tries = 0; tries < 100 && this.posts.length < count; tries += 1) {
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(this.posts).toHaveLength(count);
    return this.posts[count - 1];
  }

  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  close(): Promise<void> {
    this.release();
    return new Promise((done) => this.server.close(() => done()));
  }
}

/**
 * Social sign-in in Debian's Chromium at 360 px: the venue's page, the provider's own login and
 * consent pages (oidc-provider on loopback), back to the hand-over page, which posts to a gateway;
 * axe finds nothing on the social screen's pages; the `social` user is in the database and in v1; a second
 * sign-in finds it; a replayed callback and a cancelled consent end on clear pages.
 */
for (const kind of databaseKinds()) {
  describe(`guest portal: social sign-in in a browser [${kind}]`, () => {
    let testApp: TestApp;
    let idp: TestIdp;
    let gateway: TestGateway;
    let testBrowser: TestBrowser;
    let base: string;
    let redirectUri: string;
    const logLines: string[] = [];
    const callbacks: string[] = [];

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      redirectUri = `${base}/portal/social/callback`;
      idp = await startTestIdp({ redirectUri, clientSecret: CLIENT_SECRET });
      gateway = await TestGateway.start();
      testApp = await startTestApp(
        kind,
        { PORTAL_PUBLIC_URL: base, PORTAL_FORMS_PER_MINUTE: '100', LOG_LEVEL: 'debug' },
        { logDestination: { write: (line: string) => void logLines.push(line) } },
      );
      await testApp.app.listen(port, '127.0.0.1');
      await testApp.app.get(VenuePortalsService).set('lobby', {
        ways: ['voucher', 'social'],
        displayName: 'Lobby Café',
        termsText: 'Be kind to the network.',
        keepSocialEmail: true,
      });
      await testApp.app.get(SocialProvidersService).add({
        name: 'hotel-idp',
        displayName: 'Hotel Club',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: CLIENT_SECRET,
        venueIds: ['lobby'],
      });
      testBrowser = await TestBrowser.launch(PHONE);
    }, 60_000);
    afterAll(async () => {
      await testBrowser?.close();
      await gateway?.close();
      await testApp?.close();
      await idp?.close();
    });

    async function check(page: Page, name: string): Promise<void> {
      expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
      expect({ name, width: await pageWidth(page) }).toEqual({ name, width: PHONE.width });
      expect(await page.content()).not.toContain(CLIENT_SECRET);
    }

    /** The guest, trapped by the gateway, at the venue's start page, ticks the terms and presses the provider's button. */
    async function leaveForProvider(page: Page): Promise<void> {
      const query = new URLSearchParams({
        'link-login-only': gateway.loginUrl,
        mac: '02:00:00:00:00:0c',
        ip: '10.5.50.12',
      });
      await page.goto(`${base}/portal/lobby?${query.toString()}`);
      await check(page, 'start page');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Continue with Hotel Club' }).click();
    }

    it('signs in at the provider and hands over to the gateway; the same account finds the same user', async () => {
      const page = await testBrowser.newPage();
      page.on('request', (sent) => {
        if (sent.url().startsWith(`${redirectUri}?`)) callbacks.push(sent.url());
      });
      await leaveForProvider(page);
      await page.waitForURL((url) => url.origin === idp.issuer);
      await page.locator('input[name="login"]').fill('alice');
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      // The hand-over page (portal-core's, checked by its own suite) posts to the gateway at once.
      const posted = await gateway.received(1);
      expect(posted.get('username')).toMatch(/^social-/);
      expect(posted.get('password')).not.toBe('');
      gateway.release();
      await page.getByText('You are online').waitFor();

      const identity = await testApp.dataSource
        .getRepository(GuestIdentityEntity)
        .findOneByOrFail({ kind: 'social', issuer: idp.issuer, subject: 'alice' });
      expect(identity).toMatchObject({ venueId: 'lobby', email: 'alice@idp.test' });
      const user = await testApp.http
        .get(`/api/v1/hotspot-users/${identity.userId}`)
        .set('Authorization', `Bearer ${testApp.adminToken}`);
      expect(user.body.data).toMatchObject({
        loginMethod: 'social',
        username: posted.get('username'),
        email: 'alice@idp.test',
      });

      // Again: the provider remembers the guest, and the portal the account's user.
      await leaveForProvider(page);
      const again = await gateway.received(2);
      gateway.release();
      await page.getByText('You are online').waitFor();
      expect(again.get('username')).toBe(posted.get('username'));
      expect(await testApp.dataSource.getRepository(GuestIdentityEntity).countBy({ subject: 'alice' })).toBe(1);

      // The callback a second time (a replay of its state) is refused with a page.
      expect(callbacks).toHaveLength(2);
      const replayed = await page.goto(callbacks[0]);
      expect(replayed?.status()).toBe(400);
      await page.getByText('This sign-in link is not valid').waitFor();
      await check(page, 'refused callback');
      await page.close();
    }, 60_000);

    it('brings a guest who cancels at the provider back to the buttons, saying so', async () => {
      await testBrowser.context.clearCookies();
      const page = await testBrowser.newPage();
      await leaveForProvider(page);
      await page.getByRole('link', { name: '[ Cancel ]' }).click();
      await page.waitForURL(`${base}/portal/lobby/social?problem=denied`);
      await page.getByText('You did not allow the sign-in.').waitFor();
      await check(page, 'denied consent');
      await page.close();
      expect(testBrowser.problems).toEqual([]);
    }, 60_000);

    it("the console's social sign-in settings work at 360 px, axe clean", async () => {
      const totpSecret = newTotpSecret();
      const operator = await givenOperator(testApp, { admin: true, totpSecret });
      const page = await testBrowser.newPage();
      await signInInBrowser(page, base, operator.email, totpSecret);
      await page.goto(`${base}/admin/settings/social`);
      await page.getByText(redirectUri).first().waitFor();
      await check(page, 'console settings');
      await page.getByRole('link', { name: 'Add a provider' }).click();
      await page.waitForURL(`${base}/admin/settings/social/new`);
      await check(page, 'console new provider');
      await page.close();
    }, 60_000);

    it('never logs the client secret', () => {
      expect(logLines.join('\n')).not.toContain(CLIENT_SECRET);
    });
  });
}
