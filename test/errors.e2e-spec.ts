import type { Response } from 'supertest';
import { guestBody } from './support/factories.js';
import { describeEachDatabase } from './support/test-app.js';

/** Nothing internal may leak: no stack frames, source paths or parser/driver text. */
function expectNoInternals(response: Response): void {
  const text = response.text ?? '';
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  expect(text).not.toMatch(/node_modules|\.ts\b|\.js\b|stack/i);
  expect(text).not.toMatch(/SyntaxError|Unexpected token|position \d+/);
}

function expectRequestId(response: Response): string {
  const id = response.headers['x-request-id'];
  expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  return id;
}

describeEachDatabase('error responses', (current) => {
  const auth = () => `Bearer ${current().adminToken}`;

  describe('request bodies', () => {
    it('malformed JSON is 400 naming the body, even without a token', async () => {
      for (const withToken of [false, true]) {
        let req = current().http.post('/api/v1').set('Content-Type', 'application/json');
        if (withToken) req = req.set('Authorization', auth());
        const response = await req.send('{"name": "x",,}').expect(400);
        expect(response.body).toEqual({
          success: false,
          message: 'Validation error',
          errors: [{ field: 'body', message: expect.any(String) }],
        });
        expectNoInternals(response);
        expectRequestId(response);
      }
    });

    it('a body whose Content-Type is not JSON is 415', async () => {
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .set('Content-Type', 'text/plain')
        .send('{"name":"x"}')
        .expect(415);
      expect(response.body).toEqual({ success: false, message: 'Unsupported Media Type' });
    });

    it.each(['application/vnd.api+json', 'application/merge-patch+json; charset=utf-8'])(
      'a %s body is read as JSON, on create and on change',
      async (type) => {
        const created = await current()
          .http.post('/api/v1/hotspot-users')
          .set('Authorization', auth())
          .set('Content-Type', type)
          .send(JSON.stringify(guestBody({ name: 'Plus JSON' })))
          .expect(201);
        const path = `/api/v1/hotspot-users/${created.body.data._id}`;
        await current()
          .http.put(path)
          .set('Authorization', auth())
          .set('Content-Type', type)
          .send('{"name":"Renamed"}')
          .expect(200);
        const stored = await current().http.get(path).set('Authorization', auth()).expect(200);
        expect(stored.body.data.name).toBe('Renamed');
      },
    );

    it('malformed JSON under application/*+json gets the answer application/json gets', async () => {
      const answer = async (type: string) => {
        const response = await current()
          .http.post('/api/v1/hotspot-users')
          .set('Authorization', auth())
          .set('Content-Type', type)
          .send('{"name": "x",,}')
          .expect(400);
        return response.body as unknown;
      };
      expect(await answer('application/problem+json')).toEqual(await answer('application/json'));
    });

    it.each([
      ['a lone continuation byte', [0x80]],
      ['bytes FF FE', [0xff, 0xfe]],
      ['an overlong slash', [0xc0, 0xaf]],
      ['a UTF-16 surrogate encoded as UTF-8', [0xed, 0xa0, 0x80]],
    ])('a body with %s (not UTF-8) is 400 naming the body, and nothing is stored', async (_case, bytes) => {
      const [before] = await current().dataSource.query('SELECT COUNT(*) AS n FROM hotspot_users');
      const body = Buffer.concat([
        Buffer.from('{"name":"Bad '),
        Buffer.from(bytes),
        Buffer.from('","loginMethod":"guest","venueIds":["venue-a"]}'),
      ]);
      const response = await current()
        .http.post('/api/v1/hotspot-users')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json; charset=utf-8')
        .serialize((raw: unknown) => raw as string)
        .send(body)
        .expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'body', message: 'body is not valid UTF-8' }],
      });
      const [after] = await current().dataSource.query('SELECT COUNT(*) AS n FROM hotspot_users');
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('a body of valid UTF-8 beyond ASCII is stored as sent', async () => {
      const name = 'Şükrü 🛜 ĳ';
      const response = await current()
        .http.post('/api/v1/hotspot-users')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json')
        .serialize((raw: unknown) => raw as string)
        .send(Buffer.from(JSON.stringify(guestBody({ name }))))
        .expect(201);
      expect(response.body.data.name).toBe(name);
    });

    it('a form body is 415', async () => {
      const response = await current()
        .http.put('/api/v1')
        .set('Authorization', auth())
        .type('form')
        .send({ name: 'x' })
        .expect(415);
      expect(response.body).toEqual({ success: false, message: 'Unsupported Media Type' });
    });

    it('JSON in a charset the parser does not read is 415', async () => {
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json; charset=latin1')
        .send('{"name":"x"}')
        .expect(415);
      expect(response.body).toEqual({ success: false, message: 'Unsupported Media Type' });
    });

    it('a body with no Content-Type is 415', async () => {
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .serialize((body: unknown) => body as string)
        .send(Buffer.from('{"name":"x"}'))
        .unset('Content-Type')
        .expect(415);
      expect(response.body).toEqual({ success: false, message: 'Unsupported Media Type' });
    });

    it('a body over 100 KiB is 413', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(100 * 1024) });
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json')
        .send(big)
        .expect(413);
      expect(response.body).toEqual({ success: false, message: 'Payload Too Large' });
      expectNoInternals(response);
    });

    it('a body just under 100 KiB is parsed (and reaches routing)', async () => {
      const body = JSON.stringify({ name: 'x'.repeat(100 * 1024 - 20) });
      expect(Buffer.byteLength(body)).toBeLessThan(100 * 1024);
      // POST /api/v1 has no handler: what matters is that it is not 413.
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json')
        .send(body);
      expect(response.status).toBe(404);
    });

    it('a top-level array is 400 naming the body', async () => {
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json')
        .send('[{"name":"x"}]')
        .expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'body', message: 'body must be a JSON object' }],
      });
    });

    it.each([
      ['a string', '"just a string"'],
      ['null', 'null'],
      ['a number', '42'],
    ])('a top-level %s is 400 naming the body', async (_case, body) => {
      const response = await current()
        .http.post('/api/v1')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'body', message: expect.any(String) }],
      });
    });

    it('a body nested too deep is 400 naming the body', async () => {
      const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
      const response = await current()
        .http.post('/api/v1')
        .set('Authorization', auth())
        .set('Content-Type', 'application/json')
        .send(deep)
        .expect(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'body', message: expect.stringContaining('deeper') }],
      });
    });
  });

  describe('routing', () => {
    it('an unknown route is 404 Not Found, without a token', async () => {
      const response = await current().http.get('/api/v1/no-such-thing').expect(404);
      expect(response.body).toEqual({ success: false, message: 'Not Found' });
      expect(response.headers['www-authenticate']).toBeUndefined();
      expectNoInternals(response);
    });

    it('an unknown route is 404 Not Found with a token', async () => {
      const response = await current().http.get('/api/v1/no-such-thing').set('Authorization', auth()).expect(404);
      expect(response.body).toEqual({ success: false, message: 'Not Found' });
    });

    it('an unknown route outside /api/v1 is 404 Not Found', async () => {
      const response = await current().http.delete('/nowhere/at/all').expect(404);
      expect(response.body).toEqual({ success: false, message: 'Not Found' });
    });

    it('an id that cannot be decoded is 404 in the words of the resource its path names', async () => {
      const cases: Array<[string, string]> = [
        ['/api/v1/plans/%ZZ', 'Plan not found'],
        ['/api/v1/hotspot-user-batches/%E0%A4%A', 'Batch not found'],
        ['/api/v1/hotspot-users/%ZZ/usage', 'Kullanıcı bulunamadı'],
        ['/portal/%E0%A4%A', 'Not Found'],
      ];
      for (const [path, message] of cases) {
        const response = await current().http.get(path).set('Authorization', auth());
        expect([path, response.status, response.body]).toEqual([path, 404, { success: false, message }]);
        expectNoInternals(response);
      }
    });

    it('a wrong method on an existing path is 404', async () => {
      for (const method of ['delete', 'put', 'patch'] as const) {
        const response = await current().http[method]('/api/v1').set('Authorization', auth()).expect(404);
        expect(response.body).toEqual({ success: false, message: 'Not Found' });
      }
      const probe = await current().http.post('/healthz').expect(404);
      expect(probe.body).toEqual({ success: false, message: 'Not Found' });
    });
  });

  describe('X-Request-Id', () => {
    it.each([
      ['a UUID', '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60'],
      ['a single character', 'a'],
      ['every allowed character', 'AZaz09._:-'],
      ['128 characters', 'r'.repeat(128)],
    ])('keeps %s', async (_case, id) => {
      const response = await current()
        .http.get('/api/v1')
        .set('Authorization', auth())
        .set('X-Request-Id', id)
        .expect(200);
      expect(response.headers['x-request-id']).toBe(id);
    });

    it.each([
      ['129 characters', 'r'.repeat(129)],
      ['spaces', 'abc def'],
      ['a slash', 'abc/def'],
      ['markup', '<script>'],
      ['non-ASCII', 'çay'],
    ])('replaces %s with an id of its own', async (_case, id) => {
      const response = await current()
        .http.get('/api/v1')
        .set('Authorization', auth())
        // Node sends header values as latin1: pass the UTF-8 bytes of non-ASCII text that way.
        .set('X-Request-Id', Buffer.from(id, 'utf8').toString('latin1'))
        .expect(200);
      const sent = expectRequestId(response);
      expect(sent).not.toBe(id);
      expect(sent.length).toBeGreaterThan(0);
    });

    it('makes a different id for each request that brings none', async () => {
      const first = expectRequestId(await current().http.get('/healthz').expect(200));
      const second = expectRequestId(await current().http.get('/healthz').expect(200));
      expect(first).not.toBe(second);
    });

    it('is present on success and on every kind of error response', async () => {
      const { http } = current();
      const responses = [
        await http.get('/api/v1').set('Authorization', auth()).set('X-Request-Id', 'ok-1'),
        await http.get('/api/v1').set('X-Request-Id', 'ok-2'),
        await http.get('/nowhere').set('X-Request-Id', 'ok-3'),
        await http.post('/api/v1').set('Content-Type', 'application/json').set('X-Request-Id', 'ok-4').send('{'),
        await http.post('/api/v1').set('Content-Type', 'text/plain').set('X-Request-Id', 'ok-5').send('x'),
        await http
          .post('/api/v1')
          .set('Content-Type', 'application/json')
          .set('X-Request-Id', 'ok-6')
          .send(JSON.stringify({ a: 'x'.repeat(200 * 1024) })),
        await http.get('/readyz').set('X-Request-Id', 'ok-7'),
      ];
      expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 400, 415, 413, 200]);
      responses.forEach((response, index) => {
        expect(response.headers['x-request-id']).toBe(`ok-${index + 1}`);
        expectNoInternals(response);
      });
    });
  });
});
