import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { AuditEventEntity } from '../src/audit/entities/audit-event.entity.js';
import { GuestIdentityEntity } from '../src/guest-access/entities/guest-identity.entity.js';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { SocialProviderEntity } from '../src/social-sign-in/entities/social-provider.entity.js';
import { SocialSignInStateEntity } from '../src/social-sign-in/entities/social-sign-in-state.entity.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { runCliWithInput } from '../src/testing/cli.js';
import { contextRuntime } from './support/cli-io.js';
import { signInConsole } from './support/console.js';
import { databaseKinds } from './support/databases.js';
import { startTestIdp, throughProvider, type TestIdp } from './support/oidc-provider.js';
import { freePort } from './support/service-process.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CLIENT_SECRET = 'idp-client-secret-8d1f0a77c2e94b6b';
const GATEWAY =
  '?link-login-only=http%3A%2F%2F10.5.50.1%2Flogin&mac=02%3A00%3A00%3A00%3A00%3A0b&ip=10.5.50.11' +
  '&dst=http%3A%2F%2Fexample.com%2F';

/** The value of the hidden field `name` of the page's form. */
function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (found === null) throw new Error(`no field ${name} in ${html}`);
  return found[1];
}

/**
 * Social sign-in over HTTP against a real OpenID provider (oidc-provider on loopback): the provider
 * registered by the command line, a guest's sign-in and hand-over, the identity kept per venue, and
 * every refusal (replayed, forged, foreign and expired states, a denied consent, a provider that is
 * down, a form without its token or the terms).
 */
for (const kind of databaseKinds()) {
  describe(`guest portal: social sign-in [${kind}]`, () => {
    let testApp: TestApp;
    let idp: TestIdp;
    let redirectUri: string;
    let providerId: string;
    const clock = new ManualClock(new Date());
    const logLines: string[] = [];
    const pages: string[] = [];
    const termsVersion: Record<string, string> = {};

    beforeAll(async () => {
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}`;
      redirectUri = `${publicUrl}/portal/social/callback`;
      idp = await startTestIdp({ redirectUri, clientSecret: CLIENT_SECRET });
      testApp = await startTestApp(
        kind,
        { PORTAL_PUBLIC_URL: publicUrl, PORTAL_FORMS_PER_MINUTE: '200', LOG_LEVEL: 'debug' },
        { clock, logDestination: { write: (line: string) => void logLines.push(line) } },
      );
      await testApp.app.listen(port, '127.0.0.1');
      const portals = testApp.app.get(VenuePortalsService);
      for (const [venueId, keepSocialEmail] of [
        ['lobby', true],
        ['spa', false],
      ] as const) {
        const portal = await portals.set(venueId, {
          ways: ['voucher', 'social'],
          displayName: venueId,
          termsText: 'Be kind.',
          keepSocialEmail,
        });
        termsVersion[venueId] = portal.termsVersion ?? '';
      }
    }, 60_000);
    afterAll(async () => {
      await testApp?.close();
      await idp?.close();
    });

    const cli = (stdin: string | undefined, ...argv: string[]) =>
      runCliWithInput(contextRuntime(testApp.app), stdin, ...argv);

    /** A guest's browser at the venue's page: the gateway's redirect, then the social screen. */
    async function arrive(venueId = 'lobby'): Promise<{ agent: TestAgent; token: string }> {
      const agent = request.agent(testApp.app.getHttpServer());
      const start = await agent.get(`/portal/${venueId}${GATEWAY}`);
      expect(start.status).toBe(200);
      // The start page has the providers' buttons itself, in a form allowed to go on to them.
      expect(start.text).toContain(`<form method="post" action="/portal/${venueId}/social" class="stack">`);
      expect(start.text).toContain('Continue with Hotel Club');
      expect(start.headers['content-security-policy']).toContain(`form-action 'self' ${idp.issuer}`);
      const page = await agent.get(`/portal/${venueId}/social`);
      expect(page.status).toBe(200);
      pages.push(page.text);
      return { agent, token: hidden(page.text, 'formToken') };
    }

    /** The guest presses the provider's button: the redirect to the provider. */
    async function leave(venueId = 'lobby', provider = providerId) {
      const { agent, token } = await arrive(venueId);
      const left = await agent
        .post(`/portal/${venueId}/social`)
        .type('form')
        .send({ formToken: token, provider, acceptTerms: 'yes', termsVersion: termsVersion[venueId] });
      pages.push(left.text);
      return { agent, token, left };
    }

    /** The path and query of the callback URL the provider sent the browser to. */
    const local = (url: string) => url.slice(new URL(url).origin.length);

    it('registers a provider from the command line, printing the redirect URI and never the secret', async () => {
      const added = await cli(
        CLIENT_SECRET,
        ...['social-provider', 'add', '--name', 'hotel-idp', '--display-name', 'Hotel Club', '--issuer', idp.issuer],
        ...['--client-id', idp.clientId, '--client-secret-stdin', '--venues', 'lobby,spa', '--json'],
      );
      expect(added.code).toBe(0);
      const json = JSON.parse(added.stdout) as { id: string; scopes: string[]; venueIds: string[] };
      providerId = json.id;
      expect(json).toMatchObject({ scopes: ['openid', 'email'], venueIds: ['lobby', 'spa'] });
      expect(added.stderr).toContain(`Give the provider this redirect URI: ${redirectUri}`);
      const listed = await cli(undefined, 'social-provider', 'list');
      expect(listed.stdout).toContain('Hotel Club');
      for (const output of [added.stdout, added.stderr, listed.stdout, listed.stderr]) {
        expect(output).not.toContain(CLIENT_SECRET);
      }
      const stored = await testApp.dataSource.getRepository(SocialProviderEntity).findOneByOrFail({ id: providerId });
      expect(stored.storedClientSecret).toMatch(/^(aes256gcm|plain):/);
      const emptied = await cli(undefined, 'social-provider', 'set', 'hotel-idp', '--no-venues', '--json');
      expect(JSON.parse(emptied.stdout)).toMatchObject({ venueIds: [] });
      const changed = await cli(
        CLIENT_SECRET,
        ...['social-provider', 'set', 'hotel-idp', '--venues', 'lobby,spa', '--client-secret-stdin'],
      );
      expect(changed.code).toBe(0);
      expect(changed.stdout).toContain('venues lobby, spa');
      expect(changed.stdout + changed.stderr).not.toContain(CLIENT_SECRET);
      const nothing = await cli(undefined, 'social-provider', 'set', 'hotel-idp');
      expect(nothing.code).toBe(2);
      const missing = await cli(undefined, 'social-provider', 'remove', 'nobody');
      expect(missing.code).toBe(1);
      const badIssuer = await cli('s', 'social-provider', 'add', '--name', 'x', '--display-name', 'X', '--issuer');
      expect(badIssuer.code).toBe(2);
      const plainHttp = await cli(
        's',
        ...['social-provider', 'add', '--name', 'x', '--display-name', 'X', '--issuer', 'http://idp.example.com'],
        ...['--client-id', 'c', '--client-secret-stdin'],
      );
      expect(plainHttp.code).toBe(2);
      expect(plainHttp.stderr).toContain('issuer must be an https:// URL');
    });

    it('a guest signs in at the provider and is handed over; the same account finds the same user again', async () => {
      const { agent, left } = await leave();
      expect(left.status).toBe(303);
      const location = new URL(left.headers.location);
      expect(location.origin).toBe(idp.issuer);
      expect(location.searchParams.get('redirect_uri')).toBe(redirectUri);
      expect(location.searchParams.get('code_challenge_method')).toBe('S256');
      expect(location.searchParams.get('scope')).toBe('openid email');
      expect(location.searchParams.get('nonce')).toBeTruthy();
      expect(String(left.headers['set-cookie'])).toMatch(
        /hotspot_portal_social=[^;]+; Max-Age=600; Path=\/portal\/social\/callback;.*HttpOnly; SameSite=Lax/,
      );
      const back = await agent.get(local(await throughProvider(location.href, redirectUri, 'alice')));
      pages.push(back.text);
      expect(back.status).toBe(200);
      expect(back.text).toContain('<form id="handover" method="post" action="http://10.5.50.1/login">');
      const username = hidden(back.text, 'username');
      expect(hidden(back.text, 'password')).not.toBe('');

      const identities = await testApp.dataSource.getRepository(GuestIdentityEntity).findBy({ kind: 'social' });
      expect(identities).toEqual([
        expect.objectContaining({ venueId: 'lobby', issuer: idp.issuer, subject: 'alice', email: 'alice@idp.test' }),
      ]);
      const user = await testApp.http
        .get(`/api/v1/hotspot-users/${identities[0].userId}`)
        .set('Authorization', `Bearer ${testApp.adminToken}`);
      expect(user.status).toBe(200);
      expect(user.body.data).toMatchObject({
        loginMethod: 'social',
        username,
        email: 'alice@idp.test',
        venueIds: ['lobby'],
      });

      const again = await leave();
      const second = await again.agent.get(
        local(await throughProvider(again.left.headers.location, redirectUri, 'alice')),
      );
      expect(second.status).toBe(200);
      expect(hidden(second.text, 'username')).toBe(username);
      expect(await testApp.dataSource.getRepository(GuestIdentityEntity).countBy({ kind: 'social' })).toBe(1);

      // The state was taken: the same callback again is refused, and nothing of it is left.
      const replayed = await again.agent.get(local(second.request.url));
      expect(replayed.status).toBe(400);
      expect(replayed.text).toContain('This sign-in link is not valid');
      expect(await testApp.dataSource.getRepository(SocialSignInStateEntity).count()).toBe(0);
    });

    it('keeps no email at a venue whose settings do not ask for it', async () => {
      const { agent, left } = await leave('spa');
      const back = await agent.get(local(await throughProvider(left.headers.location, redirectUri, 'bob')));
      expect(back.status).toBe(200);
      const identity = await testApp.dataSource
        .getRepository(GuestIdentityEntity)
        .findOneByOrFail({ venueId: 'spa', subject: 'bob' });
      expect(identity.email).toBeNull();
      const user = await testApp.http
        .get(`/api/v1/hotspot-users/${identity.userId}`)
        .set('Authorization', `Bearer ${testApp.adminToken}`);
      expect(user.body.data).toMatchObject({ loginMethod: 'social', email: null, venueIds: ['spa'] });
    });

    it('refuses a forged state, and a callback in a browser that did not start the sign-in', async () => {
      const forged = await request(testApp.app.getHttpServer()).get('/portal/social/callback?code=abc&state=forged');
      expect(forged.status).toBe(400);
      expect(forged.text).toContain('This sign-in link is not valid');
      expect((await request(testApp.app.getHttpServer()).get('/portal/social/callback')).status).toBe(400);

      const { agent, left } = await leave();
      const callback = local(await throughProvider(left.headers.location, redirectUri, 'mallory'));
      const elsewhere = await request(testApp.app.getHttpServer()).get(callback);
      expect(elsewhere.status).toBe(303);
      expect(elsewhere.headers.location).toBe('/portal/lobby/social?problem=unknownState');
      // Taken by that try: the guest's own browser cannot use it afterwards either.
      expect((await agent.get(callback)).status).toBe(400);
      expect(await testApp.dataSource.getRepository(GuestIdentityEntity).countBy({ subject: 'mallory' })).toBe(0);
    });

    it('tells the guest who cancels at the provider, and one who took too long', async () => {
      const cancelled = await leave();
      const denied = await cancelled.agent.get(
        local(await throughProvider(cancelled.left.headers.location, redirectUri, 'carol', 'cancel')),
      );
      expect(denied.status).toBe(303);
      expect(denied.headers.location).toBe('/portal/lobby/social?problem=denied');
      const page = await cancelled.agent.get(denied.headers.location);
      pages.push(page.text);
      expect(page.text).toContain('You did not allow the sign-in.');
      expect(page.text).toContain('Continue with Hotel Club');

      const slow = await leave();
      const callback = local(await throughProvider(slow.left.headers.location, redirectUri, 'dave'));
      clock.advance(11 * 60 * 1000);
      const late = await slow.agent.get(callback);
      expect(late.headers.location).toBe('/portal/lobby/social?problem=expired');
      const turkish = await slow.agent.get('/portal/lobby/social?problem=expired').set('Accept-Language', 'tr');
      expect(turkish.text).toContain('Giriş çok uzun sürdü.');
      expect(await testApp.dataSource.getRepository(GuestIdentityEntity).countBy({ subject: 'dave' })).toBe(0);
    });

    it('refuses a form without its token or the terms, an unknown provider, and says when one is down', async () => {
      const { agent, token } = await arrive();
      const send = (fields: Record<string, string>) => agent.post('/portal/lobby/social').type('form').send(fields);
      const withTerms = { acceptTerms: 'yes', termsVersion: termsVersion.lobby };
      expect((await send({ provider: providerId, ...withTerms })).status).toBe(403);
      const noTerms = await send({ formToken: token, provider: providerId });
      expect(noTerms.status).toBe(422);
      expect(noTerms.text).toContain('Please accept the terms of use');
      const unknown = await send({ formToken: token, provider: 'no-such-provider', ...withTerms });
      expect(unknown.status).toBe(422);
      expect(unknown.text).toContain('This provider cannot be used here.');

      const closedPort = await freePort();
      const down = await cli(
        'another-secret',
        ...['social-provider', 'add', '--name', 'down', '--display-name', 'Down IdP'],
        ...['--issuer', `http://127.0.0.1:${closedPort}`, '--client-id', 'c', '--client-secret-stdin'],
        ...['--venues', 'lobby', '--json'],
      );
      const downId = (JSON.parse(down.stdout) as { id: string }).id;
      const unreachable = await send({ formToken: token, provider: downId, ...withTerms });
      pages.push(unreachable.text);
      expect(unreachable.status).toBe(503);
      expect(unreachable.text).toContain('The provider cannot be reached at the moment.');
      expect((await cli(undefined, 'social-provider', 'remove', 'down')).code).toBe(0);
    });

    it('lets an administrator add and remove providers in the console, never showing a secret', async () => {
      const { console: admin } = await signInConsole(testApp, { admin: true });
      const list = await admin.get('/admin/settings/social');
      expect(list.status).toBe(200);
      expect(list.text).toContain(redirectUri);
      expect(list.text).toContain('Hotel Club');
      await admin.get('/admin/settings/social/new');
      const fields = {
        name: 'loyalty',
        displayName: 'Loyalty Club',
        issuer: 'http://idp.example.com',
        clientId: 'portal',
        clientSecret: 'console-typed-secret-1234',
        scopes: 'openid',
        venueIds: 'lobby',
      };
      const refused = await admin.post('/admin/settings/social/new', fields);
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('The issuer must be an https:// URL');
      expect(refused.text).not.toContain(fields.clientSecret);
      const added = await admin.post('/admin/settings/social/new', { ...fields, issuer: 'https://id.loyalty.example' });
      expect(added.headers.location).toBe('/admin/settings/social?notice=notice.social.added');
      const shown = await admin.follow(added);
      expect(shown.text).toContain('Loyalty Club');
      expect(shown.text).not.toContain(fields.clientSecret);
      pages.push(refused.text, shown.text);
      const loyalty = await testApp.dataSource.getRepository(SocialProviderEntity).findOneByOrFail({ name: 'loyalty' });
      await admin.get(`/admin/settings/social/${loyalty.id}/remove`);
      const removed = await admin.post(`/admin/settings/social/${loyalty.id}/remove`, {});
      expect(removed.headers.location).toBe('/admin/settings/social?notice=notice.social.removed');
      const audit = await testApp.dataSource
        .getRepository(AuditEventEntity)
        .findBy({ targetType: 'social-provider', targetId: loyalty.id });
      expect(audit.map((event) => [event.action, event.actorType]).sort()).toEqual([
        ['social-provider.add', 'operator'],
        ['social-provider.remove', 'operator'],
      ]);
    });

    it('never shows or logs the client secret', () => {
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.join('\n')).not.toContain(CLIENT_SECRET);
      for (const page of pages) expect(page).not.toContain(CLIENT_SECRET);
    });
  });
}
