import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const VENUE = 'harbour';
const SECRETS_KEY = '1e'.repeat(32);
const TERMS = 'Be kind to the network.';
/** Redis database of this file, apart from the API limiter's test (11). */
const REDIS_URL = 'redis://127.0.0.1:6379/12';
const DEVICE_LIMIT = 3;
const SOURCE_LIMIT = 20;

/** The value of the hidden field `name` of the page's form. */
function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (found === null) throw new Error(`no field ${name} in ${html}`);
  return found[1];
}

/** A MikroTik redirect's query naming `login` as its login URL. */
function mikrotik(login: string, mac: string): string {
  const query = new URLSearchParams({ 'link-login-only': login, mac, ip: '10.5.50.11', dst: 'http://example.com/' });
  return `?${query.toString()}`;
}

for (const kind of databaseKinds()) {
  describe(`guest portal abuse: untrusted gateways, form limits, unknown paths [${kind}]`, () => {
    let database: TestDatabase;
    let one: TestApp;
    let two: TestApp;
    let redis: Redis;
    /** This run's addresses and MACs: the Redis keys they make are this run's alone, and deleted after. */
    const run = [randomInt(256), randomInt(256)];
    const hex = run.map((byte) => byte.toString(16).padStart(2, '0').toUpperCase());
    const address = (n: number) => `10.${run[0]}.${run[1]}.${n}`;
    const mac = (site: number, n: number) =>
      `02:${hex[0]}:${hex[1]}:00:${site.toString(16).padStart(2, '0')}:${n.toString(16).padStart(2, '0')}`.toUpperCase();
    const usedKeys = new Set<string>();

    beforeAll(async () => {
      redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      database = await createTestDatabase(kind);
      const env = {
        SECRETS_KEY,
        REDIS_URL,
        TRUST_PROXY: '1',
        PORTAL_FORMS_PER_MINUTE: String(DEVICE_LIMIT),
        PORTAL_FORMS_PER_SOURCE_PER_MINUTE: String(SOURCE_LIMIT),
        // The API's own limits off: only the portal's counters go to Redis.
        RATE_LIMIT_PER_MINUTE: '0',
        RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
      };
      one = await startTestApp(kind, env, { database });
      two = await startTestApp(kind, env, { database });
      await one.app.get(VenuePortalsService).set(VENUE, {
        ways: ['voucher', 'terms', 'sms', 'social'],
        displayName: 'Harbour Inn',
        termsText: TERMS,
        gatewayHosts: ['gw.harbour.example'],
      });
      const created = await one.http
        .post('/api/v1/hotspot-users')
        .set('Authorization', `Bearer ${one.adminToken}`)
        .send({
          name: 'Voucher 1',
          loginMethod: 'username_password',
          username: 'harbour-v1',
          password: 'Kx7mPq2rTz',
          venueIds: [VENUE],
        });
      expect(created.status).toBe(201);
    }, 60_000);
    afterAll(async () => {
      if (usedKeys.size > 0) await redis?.del(...usedKeys);
      await redis?.quit();
      await two?.close();
      await one?.close();
      await database?.drop();
    });

    /** A MikroTik redirect naming `login`, for this run's device `n`. */
    function link(login: string, n: number): string {
      usedKeys.add(`hotspot:portal-form:device:mac:${mac(0, n)}`);
      return mikrotik(login, mac(0, n));
    }

    /** A guest's browser at `testApp`, from `from` (the address the portal sees). */
    function guest(testApp: TestApp, from: string) {
      usedKeys.add(`hotspot:portal-form:device:ip:${from}`);
      usedKeys.add(`hotspot:portal-form:source:ip:${from}`);
      const agent = request.agent(testApp.app.getHttpServer());
      return {
        agent,
        get: (path: string) => agent.get(path).set('X-Forwarded-For', from),
        post: (path: string, form: Record<string, string>) =>
          agent.post(path).set('X-Forwarded-For', from).type('form').send(form),
      };
    }

    async function voucher(browser: ReturnType<typeof guest>) {
      const form = await browser.get(`/portal/${VENUE}/voucher`);
      expect(form.status).toBe(200);
      return browser.post(`/portal/${VENUE}/voucher`, {
        formToken: hidden(form.text, 'formToken'),
        username: 'harbour-v1',
        password: 'Kx7mPq2rTz',
        acceptTerms: 'yes',
        termsVersion: hidden(form.text, 'termsVersion'),
      });
    }

    describe('the hand-over goes only to a gateway the venue trusts', () => {
      it('a crafted link to a public host gets a clear page, and the voucher is not handed to it', async () => {
        const browser = guest(one, address(1));
        const start = await browser.get(`/portal/${VENUE}${link('https://evil.example/login', 1)}`);
        expect(start.status).toBe(400);
        expect(start.text).toContain('names a network gateway this venue does not trust');
        expect(start.text).not.toContain('evil.example');
        const tr = await guest(one, address(1))
          .get(`/portal/${VENUE}${link('http://203.0.113.5/login', 2)}`)
          .set('Accept-Language', 'tr');
        expect(tr.status).toBe(400);
        expect(tr.text).toContain('güvenmediği bir ağ geçidini');
        // The visit goes on without that gateway: the voucher lands on the status page, posted nowhere.
        const sent = await voucher(browser);
        expect(sent.status).toBe(303);
        expect(sent.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/portal/${VENUE}/status$`));
        expect(sent.text).not.toContain('<form');
        const opennds = Buffer.from(`hid=${'ab'.repeat(32)}, clientip=10.1.1.2, gatewayaddress=evil.example:2050`);
        const ndsStart = await guest(one, address(1)).get(`/portal/${VENUE}?fas=${opennds.toString('base64')}`);
        expect(ndsStart.status).toBe(400);
      });

      it('a listed host gets the form; taken off the list mid-visit, the hand-over refuses it', async () => {
        const browser = guest(one, address(2));
        const start = await browser.get(`/portal/${VENUE}${link('https://gw.harbour.example/login', 3)}`);
        expect(start.status).toBe(200);
        const sent = await voucher(browser);
        expect(sent.status).toBe(200);
        expect(sent.text).toContain('<form id="handover" method="post" action="https://gw.harbour.example/login">');
        expect(hidden(sent.text, 'password')).toBe('Kx7mPq2rTz');
        const local = guest(one, address(2));
        expect((await local.get(`/portal/${VENUE}${link('http://192.168.88.1/login', 4)}`)).status).toBe(200);
        expect((await voucher(local)).text).toContain('action="http://192.168.88.1/login"');

        const later = guest(one, address(3));
        expect((await later.get(`/portal/${VENUE}${link('https://gw.harbour.example/login', 5)}`)).status).toBe(200);
        const portals = one.app.get(VenuePortalsService);
        await portals.set(VENUE, { gatewayHosts: [] });
        try {
          const refused = await voucher(later);
          expect(refused.status).toBe(400);
          expect(refused.text).toContain('names a network gateway this venue does not trust');
          expect(refused.text).not.toContain('Kx7mPq2rTz');
          expect(refused.text).not.toContain('gw.harbour.example');
        } finally {
          await portals.set(VENUE, { gatewayHosts: ['gw.harbour.example'] });
        }
      });
    });

    describe('form limits per device and per source address, shared through Redis', () => {
      /** One terms form (refused for the unticked box: the limits count it first) of the device `mac`. */
      async function termsForm(testApp: TestApp, from: string, deviceMac: string) {
        usedKeys.add(`hotspot:portal-form:device:mac:${deviceMac}`);
        const browser = guest(testApp, from);
        await browser.get(`/portal/${VENUE}${mikrotik('http://10.5.50.1/login', deviceMac)}`);
        const form = await browser.get(`/portal/${VENUE}/terms`);
        return { browser, token: hidden(form.text, 'formToken') };
      }

      it('12 guests behind one address all get through, while one MAC alone is limited', async () => {
        const from = address(10);
        for (let n = 1; n <= 12; n++) {
          const { browser, token } = await termsForm(one, from, mac(1, n));
          const sent = await browser.post(`/portal/${VENUE}/terms`, { formToken: token });
          expect(sent.status).toBe(422);
        }
        const { browser, token } = await termsForm(one, from, mac(1, 1));
        const statuses = [];
        for (let n = 2; n <= DEVICE_LIMIT + 1; n++)
          statuses.push((await browser.post(`/portal/${VENUE}/terms`, { formToken: token })).status);
        expect(statuses).toEqual([...Array<number>(DEVICE_LIMIT - 1).fill(422), 429]);
        const refused = await browser.post(`/portal/${VENUE}/terms`, { formToken: token });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.text).toContain('Too many attempts');
        expect(await redis.exists(`hotspot:portal-form:device:mac:${mac(1, 1)}`)).toBe(1);
      });

      it('two instances share the counts: one device, and one source address', async () => {
        const device = mac(2, 1);
        const { browser, token } = await termsForm(one, address(20), device);
        const viaTwo = guest(two, address(20));
        // The same browser's cookie, now at the other instance.
        const cookie = (await browser.get(`/portal/${VENUE}/terms`)).request.cookies;
        const post = (at: 'one' | 'two') =>
          at === 'one'
            ? browser.post(`/portal/${VENUE}/terms`, { formToken: token })
            : viaTwo.agent
                .post(`/portal/${VENUE}/terms`)
                .set('X-Forwarded-For', address(20))
                .set('Cookie', cookie)
                .type('form')
                .send({ formToken: token });
        const statuses = [];
        for (const at of ['one', 'two', 'one', 'two'] as const) statuses.push((await post(at)).status);
        expect(statuses).toEqual([422, 422, 422, 429]);

        const from = address(21);
        const sent = [];
        for (let n = 1; n <= SOURCE_LIMIT + 1; n++) {
          const { browser: next, token: nextToken } = await termsForm(n % 2 === 0 ? two : one, from, mac(3, n));
          sent.push((await next.post(`/portal/${VENUE}/terms`, { formToken: nextToken })).status);
        }
        expect(sent.slice(0, SOURCE_LIMIT).every((status) => status === 422)).toBe(true);
        expect(sent[SOURCE_LIMIT]).toBe(429);
        expect(Number(await redis.get(`hotspot:portal-form:source:ip:${from}`))).toBe(SOURCE_LIMIT + 1);
      });
    });

    describe('unknown portal addresses', () => {
      it('answer the portal 404 page, in the venue look when the venue has a portal', async () => {
        const themed = await one.http.get(`/portal/${VENUE}/no-such-page`).set('Accept-Language', 'tr');
        expect(themed.status).toBe(404);
        expect(themed.headers['content-type']).toMatch(/^text\/html/);
        expect(themed.text).toContain('<html lang="tr">');
        expect(themed.text).toContain('Harbour Inn');
        expect(themed.text).toContain(`href="/portal/${VENUE}/theme.css"`);
        for (const path of ['/portal', '/portal/', '/portal/nowhere/x/y']) {
          const page = await one.http.get(path);
          expect(page.status).toBe(404);
          expect(page.text).toContain('There is no such page.');
          expect(page.text).not.toContain('Harbour Inn');
        }
        const posted = await one.http.post(`/portal/${VENUE}/nothing`).type('form').send({ a: 'b' });
        expect(posted.status).toBe(404);
        expect(posted.text).toContain('There is no such page.');
        const api = await one.http.get('/api/v1/no-such-thing');
        expect(api.headers['content-type']).toMatch(/json/);
      });

      it('leave every real portal route alone', async () => {
        const browser = guest(one, address(30));
        expect((await browser.get(`/portal/${VENUE}`)).status).toBe(200);
        for (const screen of ['voucher', 'terms', 'terms/text', 'sms', 'social', 'status']) {
          const page = await browser.get(`/portal/${VENUE}/${screen}`);
          expect([screen, page.status]).toEqual([screen, 200]);
          expect(page.text).not.toContain('There is no such page.');
        }
        expect((await browser.get('/portal/static/portal.css')).status).toBe(200);
        expect((await browser.get(`/portal/${VENUE}/theme.css`)).status).toBe(200);
      });
    });
  });
}
