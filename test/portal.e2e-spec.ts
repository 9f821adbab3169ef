import { createHash } from 'node:crypto';
import request from 'supertest';
import { GuestAccessService } from '../src/guest-access/guest-access.service.js';
import { GuestIdentityEntity } from '../src/guest-access/entities/guest-identity.entity.js';
import { PortalPassEntity } from '../src/guest-access/entities/portal-pass.entity.js';
import { TermsAcceptanceEntity } from '../src/guest-access/entities/terms-acceptance.entity.js';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nestRuntime } from '../src/cli/nest-runtime.js';
import { loadConfig } from '../src/config/configuration.js';
import { runCli } from './support/cli-io.js';
import { signInConsole } from './support/console.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const VENUE = 'lobby';
/** The key that seals stored secrets, shared by the app and the command (as on one installation). */
const SECRETS_KEY = '0f'.repeat(32);
const TERMS = 'Be kind to the network.\n\nNo file sharing.';
const GATEWAY =
  '?link-login-only=http%3A%2F%2F10.5.50.1%2Flogin&mac=02%3A00%3A00%3A00%3A00%3A0a&ip=10.5.50.10' +
  '&dst=http%3A%2F%2Fexample.com%2F&link-logout=http%3A%2F%2F10.5.50.1%2Flogout';

/** The value of the hidden field `name` of the page's form. */
function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (found === null) throw new Error(`no field ${name} in ${html}`);
  return found[1];
}

for (const kind of databaseKinds()) {
  describe(`guest portal: voucher and terms ways [${kind}]`, () => {
    let testApp: TestApp;
    let database: TestDatabase;
    let termsVersion: string;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      testApp = await startTestApp(kind, { PORTAL_FORMS_PER_MINUTE: '50', SECRETS_KEY }, { database });
      const plan = await testApp.http
        .post('/api/v1/plans')
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .send({
          name: 'Portal day',
          venueIds: [VENUE],
          quotaBytes: 2_000_000_000,
          quotaPeriod: 'day',
          dailyTimeSeconds: 7200,
        });
      expect(plan.status).toBe(201);
      const portal = await testApp.app.get(VenuePortalsService).set(VENUE, {
        ways: ['voucher', 'terms'],
        displayName: 'Lobby Café',
        termsText: TERMS,
        colourAccent: '#113355',
        planId: (plan.body as { data: { _id: string } }).data._id,
      });
      termsVersion = portal.termsVersion ?? '';
      const created = await testApp.http
        .post('/api/v1/hotspot-users')
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .send({
          name: 'Voucher 1',
          loginMethod: 'username_password',
          username: 'guest-abc123',
          password: 'Kx7mPq2rTz',
          venueIds: [VENUE],
        });
      expect(created.status).toBe(201);
    }, 60_000);
    afterAll(async () => {
      await testApp?.close();
      await database?.drop();
    });

    /** A guest's browser: keeps the portal cookie between requests. */
    async function arrive(query = GATEWAY) {
      const agent = request.agent(testApp.app.getHttpServer());
      const start = await agent.get(`/portal/${VENUE}${query}`);
      expect(start.status).toBe(200);
      return { agent, start };
    }

    it('starts at the venue page, listing its ways in its theme, with a sealed HttpOnly cookie', async () => {
      const { start } = await arrive();
      expect(start.text).toContain('Lobby Café');
      expect(start.text).toContain(`href="/portal/${VENUE}/voucher"`);
      expect(start.text).toContain(`href="/portal/${VENUE}/terms"`);
      const cookie = String(start.headers['set-cookie']);
      expect(cookie).toMatch(/hotspot_portal=[^;]+; Max-Age=3600; Path=\/portal;.*HttpOnly; SameSite=Lax/);
      expect(cookie).not.toContain('10.5.50.1');
      const theme = await testApp.http.get(`/portal/${VENUE}/theme.css`);
      expect(theme.text).toContain('--accent: #113355;');
    });

    it('answers in Turkish when the browser asks for it', async () => {
      const page = await testApp.http.get(`/portal/${VENUE}`).set('Accept-Language', 'tr-TR,tr;q=0.9');
      expect(page.text).toContain('Kuponum var');
      expect(page.text).toContain('<html lang="tr">');
    });

    it('a voucher hands its credentials to the MikroTik login URL in a form', async () => {
      const { agent } = await arrive();
      const form = await agent.get(`/portal/${VENUE}/voucher`);
      const sent = await agent
        .post(`/portal/${VENUE}/voucher`)
        .type('form')
        .send({
          formToken: hidden(form.text, 'formToken'),
          username: 'GUEST-abc123',
          password: 'Kx7mPq2rTz',
          acceptTerms: 'yes',
          termsVersion,
        });
      expect(sent.status).toBe(200);
      expect(sent.text).toContain('<form id="handover" method="post" action="http://10.5.50.1/login">');
      expect(hidden(sent.text, 'username')).toBe('guest-abc123');
      expect(hidden(sent.text, 'password')).toBe('Kx7mPq2rTz');
      expect(hidden(sent.text, 'dst')).toBe('http://example.com/');
      expect(sent.headers['content-security-policy']).not.toContain('form-action');
      const user = await testApp.dataSource
        .getRepository(HotspotUserEntity)
        .findOneByOrFail({ username: 'guest-abc123' });
      const accepted = await testApp.dataSource.getRepository(TermsAcceptanceEntity).findBy({ userId: user.id });
      expect(accepted).toEqual([
        expect.objectContaining({
          venueId: VENUE,
          termsVersion,
          macAddress: '02:00:00:00:00:0A',
          ipAddress: '10.5.50.10',
        }),
      ]);
    });

    it('a voucher as one code works too; an unknown voucher and a wrong password answer the same', async () => {
      const { agent } = await arrive();
      const form = await agent.get(`/portal/${VENUE}/voucher`);
      const token = hidden(form.text, 'formToken');
      const send = (fields: Record<string, string>) =>
        agent
          .post(`/portal/${VENUE}/voucher`)
          .type('form')
          .send({ formToken: token, acceptTerms: 'yes', termsVersion, ...fields });
      const code = await send({ code: 'guest-abc123-Kx7mPq2rTz' });
      expect(code.status).toBe(200);
      expect(hidden(code.text, 'username')).toBe('guest-abc123');
      const wrong = await send({ username: 'guest-abc123', password: 'wrong-one' });
      const unknown = await send({ username: 'guest-nobody', password: 'wrong-one' });
      expect(wrong.status).toBe(422);
      expect(unknown.status).toBe(422);
      const problem = (html: string) => /<p class="problem"[^>]*>([^<]*)</.exec(html)?.[1];
      expect(problem(wrong.text)).toBe('This voucher is not valid here. Check what you typed.');
      expect(problem(unknown.text)).toBe(problem(wrong.text));
      const noTerms = await send({ username: 'guest-abc123', password: 'Kx7mPq2rTz', acceptTerms: '' });
      expect(noTerms.status).toBe(422);
      expect(noTerms.text).toContain('Please accept the terms of use to continue.');
    });

    it('refuses a form without the session token, or from another site', async () => {
      const { agent } = await arrive();
      const forged = await agent.post(`/portal/${VENUE}/terms`).type('form').send({ acceptTerms: 'yes', termsVersion });
      expect(forged.status).toBe(403);
      const form = await agent.get(`/portal/${VENUE}/terms`);
      const crossSite = await agent
        .post(`/portal/${VENUE}/terms`)
        .set('Sec-Fetch-Site', 'cross-site')
        .type('form')
        .send({ formToken: hidden(form.text, 'formToken'), acceptTerms: 'yes', termsVersion });
      expect(crossSite.status).toBe(403);
    });

    it('terms only make one guest user of the device MAC, with a one-time pass, whatever the number of tries', async () => {
      const { agent } = await arrive();
      const form = await agent.get(`/portal/${VENUE}/terms`);
      const token = hidden(form.text, 'formToken');
      const [first, second] = await Promise.all(
        [1, 2].map(() =>
          agent
            .post(`/portal/${VENUE}/terms`)
            .type('form')
            .send({ formToken: token, acceptTerms: 'yes', termsVersion }),
        ),
      );
      for (const sent of [first, second]) {
        expect(sent.status).toBe(200);
        expect(hidden(sent.text, 'username')).toBe('guest-02000000000a');
        expect(hidden(sent.text, 'password')).toMatch(/^[A-Za-z2-9]{24}$/);
      }
      const users = await testApp.dataSource
        .getRepository(HotspotUserEntity)
        .findBy({ macAddress: '02:00:00:00:00:0A', loginMethod: 'guest' });
      expect(users).toHaveLength(1);
      expect(users[0].expiresAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
      const identities = await testApp.dataSource.getRepository(GuestIdentityEntity).findBy({ venueId: VENUE });
      expect(identities).toEqual([
        expect.objectContaining({ kind: 'device', issuer: '', subject: '02:00:00:00:00:0A', userId: users[0].id }),
      ]);
      expect(await testApp.dataSource.getRepository(PortalPassEntity).countBy({ userId: users[0].id })).toBe(2);
      expect(await testApp.dataSource.getRepository(TermsAcceptanceEntity).countBy({ userId: users[0].id })).toBe(2);
    });

    it('the status page shows the plan left and the gateway log-out link; without a gateway the hand-over lands there', async () => {
      const { agent } = await arrive();
      const form = await agent.get(`/portal/${VENUE}/terms`);
      await agent
        .post(`/portal/${VENUE}/terms`)
        .type('form')
        .send({ formToken: hidden(form.text, 'formToken'), acceptTerms: 'yes', termsVersion })
        .expect(200);
      const status = await agent.get(`/portal/${VENUE}/status`).expect(200);
      expect(status.text).toContain('You are connected.');
      expect(status.text).toMatch(/<dt>Time left<\/dt><dd>120 min<\/dd>/);
      expect(status.text).toMatch(/<dt>Data left<\/dt><dd>2 GB<\/dd>/);
      expect(status.text).toContain('href="http://10.5.50.1/logout"');

      const direct = request.agent(testApp.app.getHttpServer());
      await direct.get(`/portal/${VENUE}`).expect(200);
      expect((await direct.get(`/portal/${VENUE}/status`)).text).toContain(
        'You have not signed in on this device yet.',
      );
      const voucherForm = await direct.get(`/portal/${VENUE}/voucher`);
      const landed = await direct
        .post(`/portal/${VENUE}/voucher`)
        .type('form')
        .send({
          formToken: hidden(voucherForm.text, 'formToken'),
          code: 'guest-abc123-Kx7mPq2rTz',
          acceptTerms: 'yes',
          termsVersion,
        })
        .expect(303);
      expect(landed.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/portal/${VENUE}/status$`));
    });

    it('behind openNDS: the browser is sent to opennds_auth with tok = sha256(hid + faskey), after the user is made', async () => {
      const hid = 'b'.repeat(64);
      const fas = Buffer.from(
        `hid=${hid}, clientip=192.168.8.20, clientmac=02:00:00:00:00:0b, gatewayname=Lobby, version=9.10.0, ` +
          'gatewayaddress=192.168.8.1:2050, originurl=http%3a%2f%2fexample.com%2fnews, themespec=(null), (null)',
      ).toString('base64');
      const service = testApp.app.get(VenuePortalsService);
      const { agent } = await arrive(`?fas=${encodeURIComponent(fas)}`);
      const send = async () => {
        const form = await agent.get(`/portal/${VENUE}/terms`);
        return agent
          .post(`/portal/${VENUE}/terms`)
          .type('form')
          .send({ formToken: hidden(form.text, 'formToken'), acceptTerms: 'yes', termsVersion });
      };
      const notSetUp = await send();
      expect(notSetUp.status).toBe(503);
      expect(notSetUp.text).toContain('not set up completely');
      await service.set(VENUE, { faskey: 'a-long-faskey-1234' });
      try {
        const sent = await send();
        expect(sent.status).toBe(303);
        const tok = createHash('sha256').update(`${hid}a-long-faskey-1234`).digest('hex');
        expect(sent.headers.location).toBe(
          `http://192.168.8.1:2050/opennds_auth/?tok=${tok}&redir=http%3A%2F%2Fexample.com%2Fnews`,
        );
        const user = await testApp.dataSource
          .getRepository(HotspotUserEntity)
          .findOneByOrFail({ macAddress: '02:00:00:00:00:0B', loginMethod: 'guest' });
        expect(user.username).toBe('guest-02000000000b');
      } finally {
        await service.set(VENUE, { faskey: null });
      }
    });

    it('hotspot venue set --portal-* sets the portal the pages then show (the real command runtime)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'portal-cli-'));
      try {
        writeFileSync(join(dir, 'terms.txt'), 'Keep it legal.\n');
        writeFileSync(join(dir, 'faskey'), 'a-long-faskey-1234\n');
        const runtime = nestRuntime(() => loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'error', SECRETS_KEY }));
        const result = await runCli(
          runtime,
          'venue',
          'set',
          'terrace',
          '--portal-ways',
          'terms',
          '--portal-name',
          'Terrace Bar',
          '--portal-terms-file',
          join(dir, 'terms.txt'),
          '--portal-faskey-file',
          join(dir, 'faskey'),
        );
        expect(result.stderr).toBe('');
        expect(result.stdout).toContain('Guest portal of venue terrace: ways terms, name "Terrace Bar", terms t-');
        const page = await testApp.http.get('/portal/terrace').expect(200);
        expect(page.text).toContain('Terrace Bar');
        const text = await testApp.http.get('/portal/terrace/terms/text').expect(200);
        expect(text.text).toContain('Keep it legal.');
        const stored = await testApp.dataSource.query('SELECT faskey_sealed FROM venue_portals WHERE venue_id = ?', [
          'terrace',
        ]);
        expect(String(stored[0].faskey_sealed)).not.toContain('a-long-faskey-1234');
        expect(await testApp.app.get(VenuePortalsService).faskey('terrace')).toBe('a-long-faskey-1234');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("the console's venue settings edit the portal (form token, every field; the faskey kept unless typed)", async () => {
      const admin = await signInConsole(testApp, { admin: true, permissions: ['read', 'write', 'delete'] });
      const list = await admin.console.get('/admin/settings/venues');
      expect(list.text).toContain('href="/admin/settings/venues/terrace/portal"');
      const page = await admin.console.get('/admin/settings/venues/terrace/portal');
      expect(page.status).toBe(200);
      expect(page.text).toContain('A faskey is stored (sealed).');
      const form = {
        ways: 'terms',
        displayName: 'Terrace Bar',
        logoUrl: '',
        colourAccent: 'blue',
        colourBackground: '',
        colourText: '',
        termsText: 'Keep it legal.\n',
        privacyText: 'We keep what the law asks.',
        planId: '',
        validityMinutes: '90',
        faskey: '',
      };
      const refused = await admin.console.post('/admin/settings/venues/terrace/portal', form);
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('Accent colour: #rrggbb, e.g. #0b5cad.');
      await admin.console.get('/admin/settings/venues/terrace/portal');
      const saved = await admin.console.post('/admin/settings/venues/terrace/portal', {
        ...form,
        colourAccent: '#aa2200',
      });
      expect(saved.status).toBe(303);
      expect(saved.headers.location).toBe('/admin/settings/venues?notice=notice.venues.portalSaved');
      const portal = await testApp.app.get(VenuePortalsService).portal('terrace');
      expect(portal).toMatchObject({
        ways: ['terms'],
        colours: { accent: '#aa2200', background: null, text: null },
        privacyText: 'We keep what the law asks.',
        validitySeconds: 5400,
        hasFaskey: true,
      });
      const privacy = await testApp.http.get('/portal/terrace/privacy').set('Accept-Language', 'tr').expect(200);
      expect(privacy.text).toContain('Gizlilik bildirimi');
    });

    it('admitVerifiedPhone and admitSocial (for the SMS and social ways): one user per identity, even at once', async () => {
      const guestAccess = testApp.app.get(GuestAccessService);
      await testApp.app.get(VenuePortalsService).set('phones', { ways: ['sms', 'social'] });
      const device = { mac: '02:00:00:00:09:01', ip: '10.9.0.1' };
      const phone = '+905551112233';
      const admissions = await Promise.all(
        [1, 2, 3, 4].map(() =>
          guestAccess.admitVerifiedPhone({ venueId: 'phones', phone, device, termsVersion: null }),
        ),
      );
      expect(new Set(admissions.map((admission) => admission.userId)).size).toBe(1);
      expect(new Set(admissions.map((admission) => admission.password)).size).toBe(4);
      const smsUsers = await testApp.dataSource.getRepository(HotspotUserEntity).findBy({ phone, loginMethod: 'sms' });
      expect(smsUsers).toEqual([expect.objectContaining({ username: phone, status: 'active' })]);
      expect(await testApp.dataSource.getRepository(PortalPassEntity).countBy({ userId: smsUsers[0].id })).toBe(4);
      // The sweep deletes the passes expired for a while, once.
      await testApp.dataSource
        .getRepository(PortalPassEntity)
        .update({ userId: smsUsers[0].id }, { expiresAt: new Date(Date.now() - 3_600_000) });
      expect(await guestAccess.sweepPasses()).toBe(4);
      expect(await guestAccess.sweepPasses()).toBe(0);

      const social = { venueId: 'phones', issuer: 'https://idp.example', subject: 'u-42', device, termsVersion: null };
      const first = await guestAccess.admitSocial({ ...social, email: 'guest@example.com' });
      const again = await guestAccess.admitSocial({ ...social, email: 'guest@example.com' });
      expect(again.userId).toBe(first.userId);
      const socialUser = await testApp.dataSource
        .getRepository(HotspotUserEntity)
        .findOneByOrFail({ id: first.userId });
      expect(socialUser).toMatchObject({ loginMethod: 'social', email: null });
      expect(first.username).toMatch(/^social-[0-9a-f]{12}$/);

      // A way the venue does not offer, and terms not accepted where there are terms, are refused.
      await expect(guestAccess.admitTerms({ venueId: 'phones', device, termsVersion: null })).rejects.toMatchObject({
        reason: 'wayNotOffered',
      });
      await expect(
        guestAccess.admitVerifiedPhone({ venueId: VENUE, phone, device, termsVersion: null }),
      ).rejects.toMatchObject({ reason: 'wayNotOffered' });
    });
  });
}
