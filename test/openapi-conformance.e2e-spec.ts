import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { buildOpenApiDocument } from '../src/common/swagger/openapi.js';
import { OpenApiConformance } from './support/openapi-conformance.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The shared hook that checks every test response against the document must be able to fail: a
 * stand-in server answers what the real one never does, and the hook names each problem.
 */
describe('the OpenAPI conformance hook', () => {
  let testApp: TestApp | undefined;
  let conformance: OpenApiConformance;
  let server: Server;
  let answer: { status: number; headers: Record<string, string>; body: string } = {
    status: 200,
    headers: {},
    body: '',
  };
  beforeAll(async () => {
    testApp = await startTestApp('sqlite');
    conformance = new OpenApiConformance(buildOpenApiDocument(testApp.app));
    server = createServer((_req, res) => {
      res.statusCode = answer.status;
      res.setHeader('Content-Type', 'application/json');
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.end(answer.body);
    });
    conformance.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await testApp?.close();
  });
  const send = async (method: 'get' | 'post', path: string): Promise<string> => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await request(base)[method](path);
    return conformance.takeReport();
  };

  it('passes a documented answer', async () => {
    answer = {
      status: 200,
      headers: { 'X-Request-Id': 'abc' },
      body: JSON.stringify({ status: 'ok', version: '1.0.0', commit: null }),
    };
    expect(await send('get', '/healthz')).toBe('');
  });

  it('names an undeclared status', async () => {
    answer = { status: 418, headers: { 'X-Request-Id': 'abc' }, body: '{}' };
    expect(await send('get', '/healthz')).toMatch(/GET \/healthz .*answered 418: status 418 is not declared/);
  });

  it('names a body that does not match the schema, with the schema error', async () => {
    const user = { _id: 'x', name: 'A', username: 42 };
    answer = { status: 200, headers: { 'X-Request-Id': 'abc' }, body: JSON.stringify({ success: true, data: user }) };
    const report = await send('get', '/api/v1/hotspot-users/some-id');
    expect(report).toMatch(/GET \/api\/v1\/hotspot-users\/\{id\} .*answered 200: the body does not match the schema/);
    expect(report).toMatch(/body\.data\.username should be string/);
  });

  it("names a session of the venue's list whose stale flag is not a boolean", async () => {
    const session = {
      id: 's',
      userId: 'u',
      venueId: 'v',
      macAddress: null,
      ipAddress: null,
      nas: null,
      status: 'active',
      startedAt: '2026-11-22T10:00:00.000Z',
      endedAt: null,
      lastUpdateAt: null,
      sessionTime: null,
      inputOctets: null,
      outputOctets: null,
      terminateCause: null,
      stale: false,
    };
    const pagination = { page: 1, limit: 20, total: 1, pages: 1 };
    const page = (data: object) => JSON.stringify({ success: true, data: [data], pagination });
    answer = { status: 200, headers: { 'X-Request-Id': 'abc' }, body: page(session) };
    expect(await send('get', '/api/v1/sessions?venueId=v')).toBe('');
    answer = { status: 200, headers: { 'X-Request-Id': 'abc' }, body: page({ ...session, stale: 'no' }) };
    const report = await send('get', '/api/v1/sessions?venueId=v');
    expect(report).toMatch(/GET \/api\/v1\/sessions .*answered 200: the body does not match the schema/);
    expect(report).toMatch(/stale should be boolean/);
  });

  it('names a missing required header and an undeclared one', async () => {
    answer = {
      status: 401,
      headers: { 'X-Request-Id': 'abc', Location: '/x' },
      body: JSON.stringify({ success: false, message: 'Unauthorized' }),
    };
    const report = await send('get', '/api/v1');
    expect(report).toMatch(/answered 401: the required header www-authenticate is missing/);
    expect(report).toMatch(/answered 401: the header location is sent but not declared/);
  });

  it('checks unknown routes against the documented generic answer', async () => {
    answer = { status: 200, headers: { 'X-Request-Id': 'abc' }, body: '{}' };
    expect(await send('post', '/nowhere')).toMatch(
      /unknown route POST \/nowhere .*answered 200: status 200 is not declared/,
    );
    answer = {
      status: 404,
      headers: { 'X-Request-Id': 'abc' },
      body: JSON.stringify({ success: false, message: 'Not Found' }),
    };
    expect(await send('post', '/nowhere')).toBe('');
  });
});
