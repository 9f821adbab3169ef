import { createHmac } from 'node:crypto';
import { DeliveryTimeoutError, type UnauthDispatcher, type UnauthJobPayload } from './unauth-dispatcher.js';

const SIGNATURE_HEADER = 'X-Hotspot-Signature';
const TIMESTAMP_HEADER = 'X-Hotspot-Timestamp';
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The most of a receiver's answer that is ever read; the rest is never downloaded. */
const MAX_ANSWER_BYTES = 4096;
/** The most of an error answer's text kept in the job's last error. */
const MAX_ANSWER_EXCERPT_LENGTH = 200;

/** `sha256=<hex HMAC-SHA256 of "timestamp.body">`, what a receiver recomputes to trust a delivery. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * POSTs each job as JSON to a receiver, signed with a shared secret. A 2xx answer means delivered;
 * anything else, a timeout or a network error, means retry. The job id is sent as Idempotency-Key so
 * the receiver can drop a repeat (delivery is at least once). A success's body is never read; of an
 * error's, at most MAX_ANSWER_BYTES, whose start goes into the error message.
 */
export class WebhookDispatcher implements UnauthDispatcher {
  readonly name = 'webhook';

  constructor(
    private readonly options: { url: string; secret: string; timeoutMs: number },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async dispatch(payload: UnauthJobPayload, signal: AbortSignal): Promise<void> {
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(this.now().getTime() / 1000));
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          [TIMESTAMP_HEADER]: timestamp,
          [SIGNATURE_HEADER]: webhookSignature(this.options.secret, timestamp, body),
          [IDEMPOTENCY_HEADER]: payload.jobId,
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]),
        redirect: 'manual',
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'TimeoutError') {
        throw new DeliveryTimeoutError(`webhook timed out after ${this.options.timeoutMs} ms`, { cause: error });
      }
      if (name === 'AbortError') throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new Error(`webhook unreachable${cause ? ` (${cause})` : ''}`, { cause: error });
    }
    // A huge or endless answer must neither fill the worker's memory nor keep the delivery busy: a
    // success's body is not read at all, an error's only its start (for the message), then cancelled.
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    const excerpt = excerptOf(await readAnswerStart(response));
    throw new Error(`webhook answered HTTP ${response.status}${excerpt === '' ? '' : `: ${excerpt}`}`);
  }
}

/** Up to MAX_ANSWER_BYTES of the body; the stream (and with it the connection) is then cancelled. */
async function readAnswerStart(response: Response): Promise<Buffer> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } catch {
    // A body cut off (timeout, shutdown, reset) does not change what the status said.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES);
}

/** The answer as one short printable line (no control or bidi characters), for the job's last error and the log. */
function excerptOf(answer: Buffer): string {
  const text = answer
    .toString('utf8')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufffd]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = [...text];
  return characters.length > MAX_ANSWER_EXCERPT_LENGTH
    ? `${characters.slice(0, MAX_ANSWER_EXCERPT_LENGTH).join('')}…`
    : text;
}
