import { STATUS_CODES } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The HTTP server's timeouts and connection limit (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS,
 * HTTP_KEEP_ALIVE_TIMEOUT_MS, HTTP_MAX_CONNECTIONS), on the real app listening on a loopback port,
 * seen by raw TCP clients. They concern the HTTP layer alone, so SQLite is enough.
 */

/** Every bound here is several times the configured limit, yet below Node's defaults (60 s, 300 s, 5 s). */
const BOUND_MS = 4000;

interface Client {
  socket: Socket;
  /** Everything the server sent. */
  received: () => string;
  /** Resolves when the connection closes, with the milliseconds since it was opened. */
  closed: Promise<number>;
  /** Resolves once `text` has arrived. */
  waitFor(text: string): Promise<void>;
}

const clients: Client[] = [];

function openClient(port: number): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  const listeners: Array<() => void> = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
    for (const listener of listeners) listener();
  });
  // A refused or reset connection shows as its close; the error itself is expected.
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  const client: Client = {
    socket,
    received: () => received,
    closed,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received.includes(text)) resolve();
        };
        listeners.push(check);
        void closed.then(() =>
          received.includes(text) ? resolve() : reject(new Error(`closed before "${text}": ${received}`)),
        );
        check();
      }),
  };
  clients.push(client);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve(client));
    socket.once('close', () => resolve(client));
  });
}

/** Resolves with the time it took `promise`, or rejects when that exceeds `bound`. */
/** An answer written for a request Node's parser refused: the status, the API's error body, a request id, closed. */
function expectParserAnswer(received: string, status: number, reason: string): void {
  const [head, body] = received.split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${reason}`);
  expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
  expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
  expect(JSON.parse(body)).toEqual({ success: false, message: reason });
}

async function within<T>(promise: Promise<T>, bound: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${bound} ms`)), bound);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function listen(testApp: TestApp): Promise<number> {
  await testApp.app.listen(0, '127.0.0.1');
  return (testApp.app.getHttpServer().address() as AddressInfo).port;
}

afterEach(() => {
  for (const client of clients.splice(0)) client.socket.destroy();
});

describe('HTTP server timeouts', () => {
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite', {
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    port = await listen(testApp);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('a client that trickles its header block and never ends it gets 408 and is disconnected', async () => {
    const client = await openClient(port);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    // One byte every 100 ms: activity on the socket does not extend the header deadline.
    const trickle = setInterval(() => client.socket.writable && client.socket.write('a'), 100);
    try {
      await within(client.closed, BOUND_MS, 'disconnecting the slow client');
    } finally {
      clearInterval(trickle);
    }
    expectParserAnswer(client.received(), 408, 'Request Timeout');
  });

  it('a client that sends the headers but stalls in the body gets 408 and is disconnected', async () => {
    const client = await openClient(port);
    client.socket.write(
      'POST /api/v1/hotspot-users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${testApp.adminToken}\r\nContent-Length: 1000\r\n\r\n{"name":`,
    );
    await within(client.closed, BOUND_MS, 'disconnecting the stalled client');
    expectParserAnswer(client.received(), 408, 'Request Timeout');
  });

  it.each([
    [
      'a header block too large',
      `GET /api/v1 HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
    ['an unknown method', 'FOO /api/v1 HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
    ['a header name with a space', 'GET /api/v1 HTTP/1.1\r\nHost: localhost\r\nBad Name: 1\r\n\r\n', 400],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /api/v1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
  ])('%s: the parser refuses it with the API error body and an X-Request-Id', async (_what, raw, status) => {
    const client = await openClient(port);
    client.socket.write(raw);
    await within(client.closed, BOUND_MS, 'closing the refused connection');
    expectParserAnswer(client.received(), status, STATUS_CODES[status]!);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const client = await openClient(port);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await client.waitFor('"status":"ok"');
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received()).toMatch(/\r\nConnection: keep-alive\r\n/i);
    // Node closes it once the keep-alive timeout (plus its own safety margin of about 1 s) passed.
    await within(client.closed, BOUND_MS, 'closing the idle connection');
    expect(client.socket.destroyed).toBe(true);
  });
});

describe('HTTP server connection limit', () => {
  const MAX_CONNECTIONS = 3;
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    testApp = await startTestApp('sqlite', {
      HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      // Long enough that the first connections stay open while the test goes on.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
    });
    port = await listen(testApp);
  });

  afterAll(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await testApp?.close();
  });

  /** A connection that got its answer and stays open (keep-alive). */
  async function answeredClient(): Promise<Client> {
    const client = await openClient(port);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await within(client.waitFor('"status":"ok"'), BOUND_MS, 'the answer');
    return client;
  }

  it('closes connections beyond HTTP_MAX_CONNECTIONS at once, and accepts again when one ends', async () => {
    const open: Client[] = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) open.push(await answeredClient());

    const refused = await openClient(port);
    if (!refused.socket.destroyed) refused.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await within(refused.closed, BOUND_MS, 'closing the connection over the limit');
    expect(refused.received()).toBe('');
    // The connections within the limit still serve.
    open[0].socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await within(
      new Promise<void>((resolve, reject) => {
        const poll = setInterval(() => {
          if (open[0].received().split('"status":"ok"').length === 3) {
            clearInterval(poll);
            resolve();
          }
        }, 10);
        void open[0].closed.then(() => {
          clearInterval(poll);
          reject(new Error('the connection within the limit was closed'));
        });
      }),
      BOUND_MS,
      'a second answer on an open connection',
    );

    open[1].socket.destroy();
    const server = testApp.app.getHttpServer();
    const connections = () => new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)));
    const deadline = Date.now() + BOUND_MS;
    while ((await connections()) >= MAX_CONNECTIONS) {
      if (Date.now() > deadline) throw new Error('the server still counts the closed connection');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await answeredClient();
  });
});
