import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryTimeoutError, type UnauthJobPayload } from './unauth-dispatcher.js';
import { WebhookDispatcher, webhookSignature } from './webhook.dispatcher.js';

const SECRET = 'unit-test-webhook-secret-0123456789';
const NOW = new Date('2026-11-22T10:00:00.750Z');
const NOW_SECONDS = '1795341600';

const payload: UnauthJobPayload = {
  jobId: '01900000-0000-7000-8000-000000000001',
  userId: '01900000-0000-7000-8000-0000000000aa',
  username: 'guest-ü',
  reason: 'blocked',
  sessions: [{ id: 's1', venueId: 'venue-a', macAddress: 'AA:BB:CC:DD:EE:01', ipAddress: '10.0.0.1', nasId: null }],
  attempt: 1,
  createdAt: '2026-11-22T09:59:00.000Z',
};

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** A real HTTP server on a loopback port; `reply` decides each answer, or holds the request. */
class Receiver {
  readonly received: Received[] = [];
  reply: (response: ServerResponse) => void = (response) => response.writeHead(204).end();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
        });
        this.reply(response);
      });
    });
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const never = new AbortController().signal;

/** How a streamed answer went, seen from the receiver. */
interface Streamed {
  bytesSent: number;
  /** The client closed the connection before the whole body was sent. */
  cutOff: boolean;
  ended: Promise<void>;
}

/** Answers `status` with `text` then filler up to `bytes` (Infinity: endless), as fast as the client reads. */
function streamAnswer(response: ServerResponse, status: number, text: string, bytes: number): Streamed {
  let ended!: () => void;
  const streamed: Streamed = { bytesSent: 0, cutOff: false, ended: new Promise<void>((resolve) => (ended = resolve)) };
  const filler = Buffer.alloc(64 * 1024, 'x');
  response.writeHead(status, Number.isFinite(bytes) ? { 'Content-Length': String(bytes) } : {});
  response.on('close', () => {
    streamed.cutOff = !response.writableFinished;
    ended();
  });
  const write = (chunk: Buffer) => {
    streamed.bytesSent += chunk.length;
    return response.write(chunk);
  };
  const pump = (): void => {
    while (!response.destroyed) {
      const left = bytes - streamed.bytesSent;
      if (left <= 0) {
        response.end();
        return;
      }
      if (!write(left < filler.length ? filler.subarray(0, left) : filler)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  write(Buffer.from(text, 'utf8'));
  pump();
  return streamed;
}

const HUGE = 200 * 1024 * 1024;
const LITTLE = 16 * 1024 * 1024;

describe('WebhookDispatcher (against a real local HTTP server)', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await Receiver.start();
  });
  afterEach(() => receiver.close());

  const dispatcher = (timeoutMs = 2000, url = receiver.url) =>
    new WebhookDispatcher({ url, secret: SECRET, timeoutMs }, () => NOW);

  it('POSTs the job as JSON with timestamp, signature and idempotency key headers', async () => {
    await dispatcher().dispatch(payload, never);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hook');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-hotspot-timestamp']).toBe(NOW_SECONDS);
    expect(request.headers['idempotency-key']).toBe(payload.jobId);
    expect(JSON.parse(request.rawBody)).toEqual(payload);
  });

  it('signs "timestamp.rawBody" with HMAC-SHA256 of the shared secret, as a receiver verifies it', async () => {
    await dispatcher().dispatch(payload, never);
    const [{ headers, rawBody }] = receiver.received;

    // What a receiver does: recompute over the exact bytes received, compare in constant time.
    const timestamp = String(headers['x-hotspot-timestamp']);
    const expected = Buffer.from(
      `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${rawBody}`).digest('hex')}`,
    );
    const given = Buffer.from(String(headers['x-hotspot-signature']));
    expect(given.length).toBe(expected.length);
    expect(timingSafeEqual(given, expected)).toBe(true);
    expect(String(headers['x-hotspot-signature'])).toMatch(/^sha256=[0-9a-f]{64}$/);

    // Any other secret, timestamp or body gives another signature.
    expect(webhookSignature('another-secret-0123456789', timestamp, rawBody)).not.toBe(given.toString());
    expect(webhookSignature(SECRET, String(Number(timestamp) + 1), rawBody)).not.toBe(given.toString());
    expect(webhookSignature(SECRET, timestamp, rawBody.replace('blocked', 'deleted'))).not.toBe(given.toString());
  });

  it('never sends the secret itself', async () => {
    await dispatcher().dispatch(payload, never);
    const [{ headers, rawBody }] = receiver.received;
    expect(JSON.stringify(headers)).not.toContain(SECRET);
    expect(rawBody).not.toContain(SECRET);
  });

  it.each([200, 201, 202, 204])('resolves when the receiver answers %i', async (status) => {
    receiver.reply = (response) => response.writeHead(status).end(status === 204 ? undefined : '{"ok":true}');
    await expect(dispatcher().dispatch(payload, never)).resolves.toBeUndefined();
  });

  it.each([500, 503, 400, 404, 302])('rejects with "webhook answered HTTP %i" for that answer', async (status) => {
    receiver.reply = (response) =>
      response.writeHead(status, status === 302 ? { Location: 'http://127.0.0.1:1/elsewhere' } : {}).end('nope');
    await expect(dispatcher().dispatch(payload, never)).rejects.toThrow(
      new Error(`webhook answered HTTP ${status}: nope`),
    );
    // A redirect is not followed.
    expect(receiver.received).toHaveLength(1);
  });

  it.each([
    [200, HUGE],
    [200, Infinity],
    [503, HUGE],
    [500, Infinity],
  ])(
    'an answer %i with a body of %d bytes ends the delivery at once, without downloading the body',
    async (status, bytes) => {
      let streamed: Streamed | undefined;
      receiver.reply = (response) => (streamed = streamAnswer(response, status, 'Busy. ', bytes));
      const before = process.memoryUsage().arrayBuffers;
      const started = Date.now();

      const outcome = await dispatcher(20_000)
        .dispatch(payload, never)
        .then(
          () => 'delivered',
          (error: Error) => error.message,
        );

      // Far below the 20 s timeout: nothing waits for the rest of the body.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(outcome).toBe(status === 200 ? 'delivered' : `webhook answered HTTP ${status}: Busy. ${'x'.repeat(194)}…`);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(LITTLE);
      await streamed!.ended;
      expect(streamed!.cutOff).toBe(true);
      expect(streamed!.bytesSent).toBeLessThan(LITTLE);
    },
  );

  it('a 2xx whose body stalls after a few bytes is delivered at once, not after the timeout', async () => {
    receiver.reply = (response) => response.writeHead(200).write('{"ok":');
    const started = Date.now();
    await expect(dispatcher(10_000).dispatch(payload, never)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an error answer whose body stalls fails with what arrived, at the timeout', async () => {
    receiver.reply = (response) => response.writeHead(502).write('Bad gateway: upstream ');
    await expect(dispatcher(300).dispatch(payload, never)).rejects.toThrow(
      /^webhook answered HTTP 502: Bad gateway: upstream$/,
    );
  });

  it.each([
    ['a short text as is', 'Service Unavailable', 'Service Unavailable'],
    ['blanks collapsed', '  Down\n\n  for\tmaintenance \r\n', 'Down for maintenance'],
    ['control and bidi characters replaced', 'bad\u0000\u001b[0m\u202etxt.exe\u2066', 'bad [0m txt.exe'],
    ['at most 200 characters, then …', 'é'.repeat(300), `${'é'.repeat(200)}…`],
  ])('the error message carries the start of the answer: %s', async (_, text, excerpt) => {
    receiver.reply = (response) => response.writeHead(500).end(text);
    await expect(dispatcher().dispatch(payload, never)).rejects.toThrow(
      new Error(`webhook answered HTTP 500: ${excerpt}`),
    );
  });

  it('an error answer without a body gives the status alone', async () => {
    receiver.reply = (response) => response.writeHead(500).end();
    await expect(dispatcher().dispatch(payload, never)).rejects.toThrow(new Error('webhook answered HTTP 500'));
  });

  it('rejects with "webhook timed out" when the receiver does not answer in time', async () => {
    receiver.reply = () => undefined; // holds the request
    const started = Date.now();
    const delivery = dispatcher(150).dispatch(payload, never);
    await expect(delivery).rejects.toThrow('webhook timed out after 150 ms');
    // The worker tells a timeout from other failures by its class: at shutdown it hands the job back.
    await expect(delivery).rejects.toBeInstanceOf(DeliveryTimeoutError);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2000);
  });

  it('rejects with "webhook unreachable" when nothing listens on the port', async () => {
    const closed = await Receiver.start();
    const url = closed.url;
    await closed.close();
    const error = await dispatcher(2000, url)
      .dispatch(payload, never)
      .then(
        () => null,
        (reason: unknown) => reason as Error,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/^webhook unreachable/);
    expect(error!.message).not.toContain(SECRET);
  });

  it('rejects with the abort itself when the caller aborts (shutdown), not as a failure', async () => {
    receiver.reply = () => undefined;
    const shutdown = new AbortController();
    const delivery = dispatcher(5000).dispatch(payload, shutdown.signal);
    await waitUntil(() => receiver.received.length === 1);
    shutdown.abort();
    await expect(delivery).rejects.toMatchObject({ name: 'AbortError' });
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
