import type { Response } from 'supertest';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Security headers (helmet) on every response, success or error, and CORS: off unless
 * CORS_ORIGINS lists an origin, and then only for the origins listed.
 */

const ADMIN_ORIGIN = 'https://admin.example.com';
const OTHER_ORIGIN = 'https://evil.example.net';

function expectSecurityHeaders(response: Response): void {
  const headers = response.headers;
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(headers['x-dns-prefetch-control']).toBe('off');
  expect(headers['x-permitted-cross-domain-policies']).toBe('none');
  expect(headers['x-powered-by']).toBeUndefined();

  const csp = String(headers['content-security-policy'] ?? '');
  const directives = new Map(
    csp
      .split(';')
      .map((directive) => directive.trim())
      .filter((directive) => directive !== '')
      .map((directive) => {
        const [name, ...values] = directive.split(/\s+/);
        return [name, values] as const;
      }),
  );
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('script-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
  // Plain HTTP on a LAN must keep working: no forced upgrade.
  expect(directives.has('upgrade-insecure-requests')).toBe(false);
}

function expectNoCors(response: Response): void {
  for (const name of Object.keys(response.headers)) expect(name).not.toMatch(/^access-control-/);
}

function preflight(testApp: TestApp, origin: string): Promise<Response> {
  return testApp.http
    .options('/api/v1/hotspot-users')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'POST')
    .set('Access-Control-Request-Headers', 'authorization,content-type');
}

describe.each(databaseKinds())('security headers and CORS [%s]', (kind) => {
  describe('default configuration', () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await startTestApp(kind, { LOG_LEVEL: 'fatal' });
    });
    afterAll(async () => {
      await testApp?.close();
    });
    const auth = () => `Bearer ${testApp.adminToken}`;

    it('on successes: 200 API, probes, the OpenAPI page', async () => {
      expectSecurityHeaders(await testApp.http.get('/api/v1').set('Authorization', auth()).expect(200));
      expectSecurityHeaders(await testApp.http.get('/healthz').expect(200));
      expectSecurityHeaders(await testApp.http.get('/readyz').expect(200));
      expectSecurityHeaders(
        await testApp.http
          .post('/api/v1/hotspot-users')
          .set('Authorization', auth())
          .send({
            name: 'Header Check',
            loginMethod: 'guest',
            venueIds: ['venue-a'],
          })
          .expect(201),
      );
      const docs = await testApp.http.get('/api/docs').redirects(1);
      expect(docs.status).toBe(200);
      expectSecurityHeaders(docs);
    });

    it('no answer of the API may be cached (personal data, generated passwords); its docs may', async () => {
      const created = await testApp.http
        .post('/api/v1/hotspot-users')
        .set('Authorization', auth())
        .send({
          name: 'Cache Check',
          loginMethod: 'username_password',
          username: 'cache-check',
          password: 'sunrise42',
          venueIds: ['venue-a'],
        })
        .expect(201);
      expect(created.headers['cache-control']).toBe('no-store');
      const reset = await testApp.http
        .post(`/api/v1/hotspot-users/${created.body.data._id}/password`)
        .set('Authorization', auth())
        .send({ generate: true })
        .expect(200);
      expect(reset.body.password).toEqual(expect.any(String));
      expect(reset.headers['cache-control']).toBe('no-store');
      for (const path of [
        '/api/v1',
        `/api/v1/hotspot-users/${created.body.data._id}`,
        '/api/v1/hotspot-users?venueId=venue-a',
      ]) {
        expect((await testApp.http.get(path).set('Authorization', auth())).headers['cache-control']).toBe('no-store');
      }
      expect((await testApp.http.get('/api/v1/no-such').set('Authorization', auth())).headers['cache-control']).toBe(
        'no-store',
      );
      expect((await testApp.http.get('/api/docs-json')).headers['cache-control']).not.toBe('no-store');
    });

    it('on errors: 401, 404, 400 (malformed JSON), 413, 415', async () => {
      const unauthorized = await testApp.http.get('/api/v1').expect(401);
      expectSecurityHeaders(unauthorized);
      expectSecurityHeaders(await testApp.http.get('/no/such/route').expect(404));
      expectSecurityHeaders(
        await testApp.http.get('/api/v1/hotspot-users/unknown-id').set('Authorization', auth()).expect(404),
      );
      expectSecurityHeaders(
        await testApp.http
          .post('/api/v1/hotspot-users')
          .set('Authorization', auth())
          .set('Content-Type', 'application/json')
          .send('{"name":')
          .expect(400),
      );
      expectSecurityHeaders(
        await testApp.http
          .post('/api/v1/hotspot-users')
          .set('Authorization', auth())
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ name: 'x'.repeat(200 * 1024) }))
          .expect(413),
      );
      expectSecurityHeaders(
        await testApp.http
          .post('/api/v1/hotspot-users')
          .set('Authorization', auth())
          .set('Content-Type', 'text/plain')
          .send('name=x')
          .expect(415),
      );
    });

    it('CORS is off: no Access-Control-* header for a cross-origin request or a preflight', async () => {
      const response = await testApp.http
        .get('/api/v1')
        .set('Origin', ADMIN_ORIGIN)
        .set('Authorization', auth())
        .expect(200);
      expectNoCors(response);
      const error = await testApp.http.get('/api/v1').set('Origin', ADMIN_ORIGIN).expect(401);
      expectNoCors(error);
      const answer = await preflight(testApp, ADMIN_ORIGIN);
      expectNoCors(answer);
      // Whatever answers the preflight, it is not a successful CORS grant.
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe(`CORS_ORIGINS=${ADMIN_ORIGIN}`, () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await startTestApp(kind, { LOG_LEVEL: 'fatal', CORS_ORIGINS: ADMIN_ORIGIN });
    });
    afterAll(async () => {
      await testApp?.close();
    });

    it('the listed origin passes the preflight for an authorised JSON POST', async () => {
      const answer = await preflight(testApp, ADMIN_ORIGIN);
      expect(answer.status).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(300);
      expect(answer.headers['access-control-allow-origin']).toBe(ADMIN_ORIGIN);
      const allowedHeaders = String(answer.headers['access-control-allow-headers'])
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(allowedHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type']));
      expect(String(answer.headers['access-control-allow-methods'])).toMatch(/POST/);
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(answer.headers.vary)).toMatch(/Origin/i);
      expectSecurityHeaders(answer);
    });

    it('the listed origin can read the response, its request id, rate-limit and Link headers', async () => {
      const response = await testApp.http
        .get('/api/v1')
        .set('Origin', ADMIN_ORIGIN)
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .expect(200);
      expect(response.headers['access-control-allow-origin']).toBe(ADMIN_ORIGIN);
      const exposed = String(response.headers['access-control-expose-headers']).toLowerCase();
      expect(exposed).toContain('x-request-id');
      expect(exposed).toContain('retry-after');
      expect(exposed).toContain('x-ratelimit-remaining');
      expect(exposed).toContain('link');
      expectSecurityHeaders(response);
      // Errors too, or a browser could not show the reason.
      const error = await testApp.http.get('/api/v1').set('Origin', ADMIN_ORIGIN).expect(401);
      expect(error.headers['access-control-allow-origin']).toBe(ADMIN_ORIGIN);
    });

    it('another origin gets no Access-Control-Allow-Origin, neither on a preflight nor on a request', async () => {
      const answer = await preflight(testApp, OTHER_ORIGIN);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      const response = await testApp.http
        .get('/api/v1')
        .set('Origin', OTHER_ORIGIN)
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .expect(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      // A look-alike of the listed origin is another origin.
      const lookAlike = await preflight(testApp, `${ADMIN_ORIGIN}.evil.example.net`);
      expect(lookAlike.headers['access-control-allow-origin']).toBeUndefined();
      const http = await preflight(testApp, 'http://admin.example.com');
      expect(http.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
