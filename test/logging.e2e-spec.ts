import type { Response } from 'supertest';
import { hashTokenValue } from '../src/auth/token-value.js';
import { userBody } from './support/factories.js';
import { databaseKinds } from './support/databases.js';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The log as an operator reads it: JSON lines, one per request with its id, route, status, duration
 * and caller, and never a secret (token values, passwords, the Authorization header), not even
 * when a request fails with a 500.
 */

const USERS = '/api/v1/hotspot-users';

interface LogLine {
  level: string;
  msg?: string;
  [field: string]: unknown;
}

/** A pino destination that keeps every line in memory. */
class CapturedLog {
  readonly raw: string[] = [];

  write(line: string): void {
    this.raw.push(line);
  }

  get text(): string {
    return this.raw.join('');
  }

  lines(): LogLine[] {
    return this.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogLine);
  }

  requestLines(requestId: string): LogLine[] {
    return this.lines().filter((line) => line.msg === 'request' && line.requestId === requestId);
  }

  /** The request line is written once the response is sent; waits (≤ 1 s) for it to arrive. */
  async requestLine(requestId: string): Promise<LogLine> {
    const deadline = Date.now() + 1000;
    for (;;) {
      const found = this.requestLines(requestId);
      if (found.length > 0 || Date.now() > deadline) {
        expect(found).toHaveLength(1);
        return found[0];
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

let sequence = 0;
function requestId(): string {
  sequence += 1;
  return `log-test-${Date.now().toString(36)}-${sequence}`;
}

describe.each(databaseKinds())('logging [%s]', (kind) => {
  let testApp: TestApp;
  const log = new CapturedLog();
  /** Every secret the tests send; none may show up in the log. */
  const secrets: string[] = [ADMIN_TOKEN];

  beforeAll(async () => {
    testApp = await startTestApp(kind, { LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '1000' }, { logDestination: log });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('every line is one JSON object with a level, a time and the service name', () => {
    const lines = log.lines();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({
          level: expect.any(String),
          time: expect.any(String),
          service: 'hotspot-user-service',
        }),
      );
    }
  });

  it('one request line per request: request id (as in X-Request-Id), method, route, status, duration, caller', async () => {
    const token = await testApp.createToken({ name: 'log-reader', permissions: ['write'] });
    secrets.push(token);
    const created = await testApp.http.post(USERS).set('Authorization', `Bearer ${token}`).send(userBody()).expect(201);
    const userId = created.body.data._id as string;
    // The token's id is what `npm run token -- list` shows; read it from the table like an operator would.
    const [{ id: tokenId }] = await testApp.dataSource.query('SELECT id FROM api_tokens WHERE name = ?', [
      'log-reader',
    ]);

    const id = requestId();
    const response = await testApp.http
      .get(`${USERS}/${userId}?venueId=venue-a`)
      .set('Authorization', `Bearer ${token}`)
      .set('X-Request-Id', id)
      .expect(200);
    expect(response.headers['x-request-id']).toBe(id);

    const line = await log.requestLine(id);
    expect(line).toEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        requestId: id,
        method: 'GET',
        path: `${USERS}/${userId}`,
        route: '/api/v1/hotspot-users/:id',
        status: 200,
        durationMs: expect.any(Number),
        tokenId,
        tokenName: 'log-reader',
      }),
    );
    expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
    expect(line.durationMs as number).toBeLessThan(10_000);
    // The query string is not logged.
    expect(JSON.stringify(line)).not.toContain('venueId=');

    // A generated request id is logged too.
    const generated = await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);
    const generatedId = generated.headers['x-request-id'];
    expect(generatedId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(await log.requestLine(generatedId)).toEqual(
      expect.objectContaining({ route: '/api/v1', method: 'GET', status: 200, tokenName: 'log-reader' }),
    );
  });

  it('errors are logged as one line each too: 401 without a caller at warn, 404 for an unknown route', async () => {
    const wrongToken = 'hsp_wrong-token-for-the-log-0123456789abcdefghij';
    secrets.push(wrongToken);
    const id = requestId();
    await testApp.http.get(USERS).set('Authorization', `Bearer ${wrongToken}`).set('X-Request-Id', id).expect(401);
    expect(await log.requestLine(id)).toEqual(
      expect.objectContaining({
        level: 'warn',
        method: 'GET',
        route: USERS,
        status: 401,
        tokenId: null,
        tokenName: null,
      }),
    );

    const unknown = requestId();
    await testApp.http.get('/api/v1/nothing-here').set('X-Request-Id', unknown).expect(404);
    expect(await log.requestLine(unknown)).toEqual(
      expect.objectContaining({ level: 'warn', path: '/api/v1/nothing-here', status: 404, route: null }),
    );
  });

  it('no secret reaches the log: token values, passwords, Authorization headers, the bootstrap token', async () => {
    const password = 'Very-Secret-Password-4711';
    secrets.push(password);
    const token = await testApp.createToken({ name: 'secret-sender', permissions: ['delete'] });
    secrets.push(token);

    const ids: string[] = [];
    const send = async (build: (id: string) => Promise<Response>): Promise<Response> => {
      const id = requestId();
      ids.push(id);
      return build(id);
    };
    // A password in a create body, with a token in the header.
    await send((id) =>
      testApp.http
        .post(USERS)
        .set('Authorization', `Bearer ${token}`)
        .set('X-Request-Id', id)
        .send(userBody({ password })),
    ).then((response) => expect(response.status).toBe(201));
    // A password where none is allowed (400), and a token value in the query string and the path.
    await send((id) =>
      testApp.http
        .post(USERS)
        .set('Authorization', `Bearer ${token}`)
        .set('X-Request-Id', id)
        .send(userBody({ loginMethod: 'guest', password })),
    ).then((response) => expect(response.status).toBe(400));
    await send((id) => testApp.http.get(`${USERS}?access_token=${token}`).set('X-Request-Id', id)).then((response) =>
      expect(response.status).toBe(401),
    );
    // The bootstrap token, and a malformed body carrying the password.
    await send((id) =>
      testApp.http
        .post(USERS)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .set('X-Request-Id', id)
        .set('Content-Type', 'application/json')
        .send(`{"password": "${password}",`),
    ).then((response) => expect(response.status).toBe(400));
    // The scheme in lower case (accepted) and a token that does not exist.
    await send((id) =>
      testApp.http.get('/api/v1').set('Authorization', `bearer ${token}`).set('X-Request-Id', id),
    ).then((response) => expect(response.status).toBe(200));
    await send((id) =>
      testApp.http.delete(`${USERS}/x`).set('Authorization', `Bearer ${token}x`).set('X-Request-Id', id),
    ).then((response) => expect(response.status).toBe(401));
    secrets.push(`${token}x`);

    for (const id of ids) await log.requestLine(id);
    const text = log.text;
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      // Nor what the database stores for a token.
      expect(text).not.toContain(hashTokenValue(secret));
    }
    expect(text).not.toMatch(/Bearer /i);
    // No request headers at all (a logged header object would carry Authorization).
    expect(text).not.toMatch(/"authorization"\s*:/i);
  });

  it('a 500: the body says nothing, the error line carries the request id, and still no secret is logged', async () => {
    const password = 'Another-Secret-Password-0815';
    secrets.push(password);
    const id = requestId();
    // The users table is renamed away, so the create fails inside the database; it is always put back.
    await testApp.database.run((em) => em.query('ALTER TABLE hotspot_users RENAME TO hotspot_users_away'));
    let response: Response;
    try {
      response = await testApp.http
        .post(USERS)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .set('X-Request-Id', id)
        .send(userBody({ password, username: `log500_${Date.now().toString(36)}` }));
    } finally {
      await testApp.database.run((em) => em.query('ALTER TABLE hotspot_users_away RENAME TO hotspot_users'));
    }
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ success: false, message: 'Internal server error' });
    expect(response.headers['x-request-id']).toBe(id);

    const requestLine = await log.requestLine(id);
    expect(requestLine).toEqual(
      expect.objectContaining({ level: 'error', status: 500, method: 'POST', route: USERS, tokenName: 'bootstrap' }),
    );

    const errorLines = log
      .lines()
      .filter((line) => line.level === 'error' && line.msg !== 'request' && JSON.stringify(line).includes(id));
    expect(errorLines).toHaveLength(1);
    // Where it happened and why, for the operator; the stack is in the line, not in the body.
    expect(errorLines[0].msg).toContain('POST');
    expect(JSON.stringify(errorLines[0])).toMatch(/hotspot_users/);

    const text = log.text;
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/Bearer /i);
    // Nor the stored hashes of the password or of a token.
    expect(text).not.toMatch(/\$argon2id\$|\$scrypt\$/);
  });
});
