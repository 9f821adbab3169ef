import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './support/build.js';
import { createUser, startSession } from './support/factories.js';
import { freePort, startService, type Service } from './support/service-process.js';
import { ADMIN_TOKEN, startTestApp } from './support/test-app.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Graceful shutdown of the real, compiled processes (`node dist/src/main.js`, `node dist/src/worker.js`)
 * on a temporary SQLite file and a free loopback port: SIGTERM lets a request under way finish,
 * refuses new connections, and exits 0 within SHUTDOWN_TIMEOUT_SECONDS; a signal repeated meanwhile
 * changes nothing; a shutdown that cannot finish in time exits 1 at the timeout.
 */

const MAIN = join(ROOT, 'dist/src/main.js');
const WORKER = join(ROOT, 'dist/src/worker.js');
const SHUTDOWN_TIMEOUT_SECONDS = 3;
const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789abcdef';

/** A JSON request with a body that is sent only when `send()` is called; `Expect: 100-continue` tells when the server took the headers. */
function heldRequest(
  port: number,
  method: string,
  path: string,
  body: unknown,
  agent: Agent | false = false,
): {
  accepted: Promise<void>;
  send: () => void;
  response: Promise<{ status: number; body: string }>;
  request: ClientRequest;
} {
  const payload = Buffer.from(JSON.stringify(body));
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method,
    path,
    agent,
    headers: {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      'Content-Type': 'application/json',
      'Content-Length': String(payload.length),
      Expect: '100-continue',
    },
  });
  const accepted = new Promise<void>((done, fail) => {
    request.once('continue', () => done());
    request.once('error', fail);
  });
  const response = new Promise<{ status: number; body: string }>((done, fail) => {
    request.once('response', (message: IncomingMessage) => {
      let text = '';
      message.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      message.on('end', () => done({ status: message.statusCode ?? 0, body: text }));
      message.on('error', fail);
    });
    request.once('error', fail);
  });
  // Headers go out now; the body waits.
  request.flushHeaders();
  return { accepted, send: () => request.end(payload), response, request };
}

async function fetchJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: { data?: Record<string, unknown> } }> {
  const response = await fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
    signal: AbortSignal.timeout(5000),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } };
}

describe('graceful shutdown of the compiled service', () => {
  let dir: string;
  let port: number;
  let env: Record<string, string>;
  const services: Service[] = [];

  beforeAll(() => {
    ensureBuilt([MAIN, WORKER]);
  }, 120_000);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotspot-shutdown-'));
    port = await freePort();
    env = {
      DATABASE_URL: `sqlite:${join(dir, 'hotspot.sqlite')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
      WORKER_ENABLED: 'true',
      UNAUTH_POLL_INTERVAL_MS: '100',
      EXPIRY_SWEEP_INTERVAL: '1',
    };
  });

  afterEach(() => {
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function startMain(): Promise<Service> {
    const service = startService(MAIN, env, dir);
    services.push(service);
    await service.waitForOutput(/Hotspot API listening on/);
    return service;
  }

  it('SIGTERM: a request under way completes with 200, new connections are refused, and the process exits 0 in time', async () => {
    const service = await startMain();
    const base = `http://127.0.0.1:${port}/api/v1`;
    const created = await fetchJson(`${base}/hotspot-users`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Before', loginMethod: 'guest', venueIds: ['venue-a'] }),
    });
    expect(created.status).toBe(201);
    const id = String(created.body.data?._id);

    // The server has the request's headers (it answered 100 Continue) but not yet its body.
    const inFlight = heldRequest(port, 'PUT', `/api/v1/hotspot-users/${id}`, { name: 'During shutdown' });
    await inFlight.accepted;

    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    await service.waitForOutput(/SIGTERM received/, 5000);

    // No longer accepting: a new connection is refused while the request under way is still open.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();

    inFlight.send();
    const answer = await inFlight.response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data).toMatchObject({ _id: id, name: 'During shutdown' });

    const { code, afterMs } = await service.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000);
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS * 1000);
    expect(afterMs).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS * 1000);
    expect(service.output()).toMatch(/SIGTERM received: shutting down \(at most 3000 ms\)/);
    expect(service.output()).not.toMatch(/Shutdown took longer|Shutdown failed/);

    // The change made during shutdown was kept: the service started again on the same file shows it.
    const again = await startMain();
    const shown = await fetchJson(`${base}/hotspot-users/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ name: 'During shutdown' });
    again.child.kill('SIGTERM');
    expect((await again.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000)).code).toBe(0);
  }, 25_000);

  it('SIGTERM: a keep-alive client (as proxies and fetch are) does not hold the shutdown open after its answer', async () => {
    const service = await startMain();
    const agent = new Agent({ keepAlive: true });
    try {
      // A first request opens the pooled connection; the second one rides on it.
      const warmUp = heldRequest(
        port,
        'POST',
        '/api/v1/hotspot-users',
        { name: 'Warm', loginMethod: 'guest', venueIds: ['venue-a'] },
        agent,
      );
      warmUp.send();
      expect((await warmUp.response).status).toBe(201);
      const id = JSON.parse((await warmUp.response).body).data._id as string;

      const inFlight = heldRequest(port, 'PUT', `/api/v1/hotspot-users/${id}`, { name: 'Kept alive' }, agent);
      await inFlight.accepted;
      service.child.kill('SIGTERM');
      await service.waitForOutput(/SIGTERM received/, 5000);
      inFlight.send();
      expect((await inFlight.response).status).toBe(200);

      // Well before the server's keep-alive timeout (5 s) and SHUTDOWN_TIMEOUT_SECONDS.
      const { code, afterMs } = await service.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000);
      expect(service.output()).not.toMatch(/Shutdown took longer/);
      expect(code).toBe(0);
      expect(afterMs).toBeLessThan(2000);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it("SIGTERM: connections opened ahead and never used (as FreeRADIUS's rlm_rest pool opens them) do not hold the shutdown open", async () => {
    const service = await startMain();
    const sockets = await Promise.all(
      Array.from(
        { length: 3 },
        () =>
          new Promise<Socket>((done, fail) => {
            const socket = connect(port, '127.0.0.1', () => done(socket));
            socket.once('error', fail);
          }),
      ),
    );
    const closedByServer = sockets.map((socket) => new Promise<void>((done) => socket.once('close', () => done())));

    service.child.kill('SIGTERM');
    const { code, afterMs } = await service.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000);
    await Promise.all(closedByServer);
    expect(service.output()).not.toMatch(/Shutdown took longer/);
    expect(code).toBe(0);
    // Well before the header deadline (HTTP_HEADERS_TIMEOUT_MS, 10 s) and SHUTDOWN_TIMEOUT_SECONDS.
    expect(afterMs).toBeLessThan(2000);
  }, 20_000);

  it('SIGTERM with nothing under way exits 0 promptly', async () => {
    const service = await startMain();
    service.child.kill('SIGTERM');
    const { code, afterMs } = await service.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000);
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS * 1000);
    expect(service.output()).toMatch(/SIGTERM received/);
  }, 20_000);

  it('a shutdown that cannot finish (a request that never completes) exits 1 at SHUTDOWN_TIMEOUT_SECONDS', async () => {
    env.SHUTDOWN_TIMEOUT_SECONDS = '1';
    const service = await startMain();
    // Headers taken, body never sent: the server cannot close while this request is open.
    const stuck = heldRequest(port, 'POST', '/api/v1/hotspot-users', {
      name: 'Never',
      loginMethod: 'guest',
      venueIds: ['venue-a'],
    });
    stuck.response.catch(() => undefined);
    await stuck.accepted;

    service.child.kill('SIGTERM');
    const { code, afterMs } = await service.exited(5000);
    stuck.request.destroy();
    expect(code).toBe(1);
    expect(afterMs).toBeGreaterThanOrEqual(900);
    expect(afterMs).toBeLessThan(3000);
    expect(service.output()).toMatch(/Shutdown took longer than 1000 ms/);
    expect(JSON.parse(service.output().trimEnd().split('\n').at(-1) ?? '')).toMatchObject({
      level: 'error',
      msg: 'Stopped with exit code 1',
    });
  }, 20_000);

  it('the worker process (dist/src/worker.js) also exits 0 on SIGTERM', async () => {
    // The API creates the schema; then a separate worker runs on the same file.
    const api = await startMain();
    api.child.kill('SIGTERM');
    expect((await api.exited(5000)).code).toBe(0);

    const worker = startService(WORKER, env, dir);
    services.push(worker);
    await worker.waitForOutput(/Unauth job worker started/);
    worker.child.kill('SIGTERM');
    const { code, afterMs } = await worker.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000);
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS * 1000);
    expect(worker.output()).toMatch(/SIGTERM received/);
    // The last line says so.
    expect(JSON.parse(worker.output().trimEnd().split('\n').at(-1) ?? '')).toMatchObject({
      context: 'Worker',
      msg: 'Stopped',
    });
  }, 20_000);

  it('a second SIGTERM and a SIGINT during the shutdown are logged and change nothing: the job under way is handed back, then Stopped', async () => {
    const receiver = await WebhookReceiver.start(WEBHOOK_SECRET);
    try {
      receiver.reply = () => 'hang';
      // A job to deliver: a blocked user's session, written by the app in-process on the same file.
      const database = { kind: 'sqlite' as const, url: env.DATABASE_URL, drop: () => Promise.resolve() };
      const writer = await startTestApp('sqlite', { LOG_LEVEL: 'fatal' }, { database });
      try {
        const user = await createUser(writer);
        await startSession(writer, { userId: user._id });
        await writer.http
          .put(`/api/v1/hotspot-users/${user._id}`)
          .set('Authorization', `Bearer ${writer.adminToken}`)
          .send({ status: 'blocked' })
          .expect(200);
      } finally {
        await writer.close();
      }
      const worker = startService(
        WORKER,
        {
          ...env,
          UNAUTH_DISPATCHER: 'webhook',
          UNAUTH_WEBHOOK_URL: receiver.url,
          UNAUTH_WEBHOOK_SECRET: WEBHOOK_SECRET,
          // Half of SHUTDOWN_TIMEOUT_SECONDS, as the defaults are (5 s of 10 s): the delivery times out
          // within the shutdown's grace, and is handed back all the same.
          UNAUTH_WEBHOOK_TIMEOUT_MS: String((SHUTDOWN_TIMEOUT_SECONDS * 1000) / 2),
        },
        dir,
      );
      services.push(worker);
      await receiver.waitForDeliveries(1, 10_000);
      worker.child.kill('SIGTERM');
      await worker.waitForOutput(/SIGTERM received: shutting down/, 5000);
      worker.child.kill('SIGTERM');
      worker.child.kill('SIGINT');
      await worker.waitForOutput(/SIGINT received again/, 5000);

      const { code, signal } = await worker.exited(SHUTDOWN_TIMEOUT_SECONDS * 1000 + 2000);
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(worker.output()).toMatch(/SIGTERM received again: the shutdown under way goes on/);
      expect(JSON.parse(worker.output().trimEnd().split('\n').at(-1) ?? '')).toMatchObject({
        context: 'Worker',
        msg: 'Stopped',
      });
      const reader = await startTestApp('sqlite', { LOG_LEVEL: 'fatal' }, { database });
      try {
        expect(
          await reader.dataSource.query('SELECT status, attempts, last_error AS lastError FROM unauth_jobs'),
        ).toEqual([{ status: 'pending', attempts: 0, lastError: null }]);
      } finally {
        await reader.close();
      }
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
