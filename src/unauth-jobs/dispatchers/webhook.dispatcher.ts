import { createHmac } from 'node:crypto';
import type { UnauthDispatcher, UnauthJobPayload } from './unauth-dispatcher.js';

export const SIGNATURE_HEADER = 'X-Hotspot-Signature';
export const TIMESTAMP_HEADER = 'X-Hotspot-Timestamp';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** `sha256=<hex HMAC-SHA256 of "timestamp.body">`, what a receiver recomputes to trust a delivery. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * POSTs each job as JSON to a receiver, signed with a shared secret. A 2xx answer means delivered;
 * anything else, a timeout or a network error, means retry. The job id is sent as Idempotency-Key so
 * the receiver can drop a repeat (delivery is at least once).
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
      if (name === 'TimeoutError') throw new Error(`webhook timed out after ${this.options.timeoutMs} ms`);
      if (name === 'AbortError') throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new Error(`webhook unreachable${cause ? ` (${cause})` : ''}`);
    }
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status < 200 || response.status >= 300) throw new Error(`webhook answered HTTP ${response.status}`);
  }
}
