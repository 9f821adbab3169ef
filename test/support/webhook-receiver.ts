import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, as it got it. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  /** The body exactly as received; the signature covers these bytes, not a re-serialisation. */
  rawBody: string;
  body: Record<string, unknown>;
  /** Whether the signature and timestamp checks passed (see verifyWebhook). */
  verified: boolean;
  idempotencyKey: string;
}

/**
 * What the receiver does with a verified delivery: answer with a status, hold the request, or answer
 * with a status and a body of `bytes` bytes (Infinity: endless) that starts with `text`.
 */
export type Reply = number | 'hang' | { status: number; text: string; bytes: number };

/** How a streamed answer (a Reply with `bytes`) went. */
export interface StreamedAnswer {
  status: number;
  /** Bytes handed to the socket so far. */
  bytesSent: number;
  /** Whether the client closed the connection before the whole body was sent. */
  cutOff: boolean;
  /** Set once the answer ended, one way or the other. */
  ended: boolean;
}

/**
 * The receiver check of docs/operations.md ("Dispatchers"), verbatim but for `nowMs`: HMAC-SHA256 with the
 * shared secret over `${timestamp}.${rawBody}`, compared in constant time with X-Hotspot-Signature,
 * and the timestamp no more than 5 minutes from the receiver's clock.
 */
export function verifyWebhook(
  rawBody: string,
  headers: IncomingHttpHeaders,
  secret: string,
  nowMs = Date.now(),
): boolean {
  const timestamp = headers['x-hotspot-timestamp'];
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  const given = Buffer.from(String(headers['x-hotspot-signature'] ?? ''));
  const fresh = Math.abs(nowMs / 1000 - Number(timestamp)) < 300; // refuse replays older than 5 minutes
  return fresh && given.length === Buffer.byteLength(expected) && timingSafeEqual(given, Buffer.from(expected));
}

/**
 * A webhook receiver on a loopback port: verifies each POST like a real one would (401 when the
 * signature does not hold), records it, then answers as `reply` says. Held requests stay open
 * until released or the receiver closes.
 */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  readonly streamedAnswers: StreamedAnswer[] = [];
  reply: (delivery: Delivery) => Reply = () => 200;
  /** How long to wait before answering (a slower receiver makes deliveries of two workers overlap). */
  replyDelayMs: () => number = () => 0;
  private readonly held: ServerResponse[] = [];
  private readonly server: Server;

  private constructor(private readonly secret: string) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(rawBody) as Record<string, unknown>;
        } catch {
          // recorded as is; the test sees an empty body
        }
        const delivery: Delivery = {
          headers: request.headers,
          rawBody,
          body,
          verified: request.method === 'POST' && verifyWebhook(rawBody, request.headers, this.secret),
          idempotencyKey: String(request.headers['idempotency-key'] ?? ''),
        };
        this.deliveries.push(delivery);
        if (!delivery.verified) {
          response.writeHead(401).end();
          return;
        }
        const reply = this.reply(delivery);
        if (reply === 'hang') {
          this.held.push(response);
          return;
        }
        if (typeof reply === 'object') {
          this.stream(response, reply);
          return;
        }
        // Only a success says it was received; an error answer has no body.
        const answer = () =>
          reply < 300
            ? response.writeHead(reply, { 'Content-Type': 'application/json' }).end('{"received":true}')
            : response.writeHead(reply).end();
        const delay = this.replyDelayMs();
        if (delay > 0) setTimeout(answer, delay);
        else answer();
      });
    });
  }

  /** Sends `text` then filler up to `bytes` in 64 KiB chunks, as fast as the client takes them. */
  private stream(response: ServerResponse, reply: { status: number; text: string; bytes: number }): void {
    const record: StreamedAnswer = { status: reply.status, bytesSent: 0, cutOff: false, ended: false };
    this.streamedAnswers.push(record);
    const filler = Buffer.alloc(64 * 1024, 'x');
    response.writeHead(reply.status, {
      'Content-Type': 'text/plain; charset=utf-8',
      ...(Number.isFinite(reply.bytes) ? { 'Content-Length': String(reply.bytes) } : {}),
    });
    response.on('close', () => {
      record.cutOff = !response.writableFinished;
      record.ended = true;
    });
    const write = (chunk: Buffer): boolean => {
      record.bytesSent += chunk.length;
      return response.write(chunk);
    };
    const pump = (): void => {
      while (!response.destroyed) {
        const left = reply.bytes - record.bytesSent;
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
    write(Buffer.from(reply.text, 'utf8'));
    pump();
  }

  static async start(secret: string): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(secret);
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(0, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** How many requests are being held open right now. */
  get heldCount(): number {
    return this.held.filter((response) => !response.writableEnded && !response.destroyed).length;
  }

  /** Answers every held request with `status` now. */
  releaseHeld(status: number): void {
    for (const response of this.held.splice(0)) {
      if (!response.writableEnded && !response.destroyed) response.writeHead(status).end();
    }
  }

  /** Waits (polling every 10 ms, at most `timeoutMs`) until `count` deliveries arrived. */
  async waitForDeliveries(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.deliveries.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${this.deliveries.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits (polling every 10 ms, at most `timeoutMs`) until every streamed answer ended. */
  async waitForStreamedAnswersToEnd(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.streamedAnswers.some((answer) => !answer.ended)) {
      if (Date.now() > deadline) throw new Error('a streamed answer is still being sent');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
