import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { guestBody } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Large answers are gzipped when the client asks for it (Accept-Encoding: gzip) and sent as they are
 * otherwise; small ones (under 1 KiB) are never compressed. Raw HTTP, so that nothing decodes the body
 * behind the test's back. Runs once: compression does not depend on the database.
 */

const VENUE = 'gzip-venue';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('compression', () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    await testApp.app.listen(0, '127.0.0.1');
    port = (testApp.app.getHttpServer().address() as AddressInfo).port;
    for (let i = 0; i < 20; i += 1) {
      const created = await testApp.http
        .post('/api/v1/hotspot-users')
        .set('Authorization', `Bearer ${testApp.adminToken}`)
        .send(guestBody({ name: `Compressible guest number ${i}`, venueIds: [VENUE] }));
      expect(created.status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await testApp?.close();
  });

  function get(path: string, headers: Record<string, string>): Promise<RawAnswer> {
    return new Promise((done, fail) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        path,
        headers: { Authorization: `Bearer ${testApp.adminToken}`, ...headers },
      });
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () =>
          done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.once('error', fail);
      });
      request.once('error', fail);
      request.end();
    });
  }

  const LIST = `/api/v1/hotspot-users?venueId=${VENUE}&limit=20`;

  it('gzips a large list answer when the client accepts gzip', async () => {
    const answer = await get(LIST, { 'Accept-Encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(String(answer.headers.vary)).toMatch(/Accept-Encoding/i);
    const json = gunzipSync(answer.body).toString('utf8');
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(json));
    expect((JSON.parse(json) as { data: unknown[] }).data).toHaveLength(20);
  });

  it('sends the same list uncompressed when the client does not ask for gzip', async () => {
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }] as Array<Record<string, string>>) {
      const answer = await get(LIST, headers);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body.length).toBeGreaterThan(1024);
      expect((JSON.parse(answer.body.toString('utf8')) as { data: unknown[] }).data).toHaveLength(20);
    }
  });

  it('leaves small answers uncompressed even when gzip is accepted', async () => {
    const answer = await get('/api/v1', { 'Accept-Encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ success: true, message: 'Server API aktif' });
  });
});
