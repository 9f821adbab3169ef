import type { SmsGatewayName } from '../../config/configuration.js';
import type { SendVerdict } from '../sms.rules.js';

/** One message as a driver sends it. The text holds the code: a driver never logs it. */
export interface OutgoingSms {
  id: string;
  /** E.164. */
  to: string;
  text: string;
  /** Where the gateway should report delivery; null: no report asked for. */
  reportUrl: string | null;
}

/** A way to hand a message to an SMS gateway. */
export interface SmsDriver {
  readonly name: SmsGatewayName;
  /**
   * Hands the message over and says how the gateway answered. A network error or a timeout is a
   * `retry` verdict, never a throw; `signal` aborts the attempt at shutdown (then it throws).
   */
  send(message: OutgoingSms, signal: AbortSignal): Promise<SendVerdict>;
}

export const SMS_DRIVER = Symbol('SMS_DRIVER');

/** How a request that got no answer is told apart: the caller's abort rethrown, the rest a retry. */
export function unansweredVerdict(error: unknown, gateway: string, timeoutMs: number): SendVerdict {
  const name = (error as { name?: string }).name;
  if (name === 'AbortError') throw error;
  if (name === 'TimeoutError') return { verdict: 'retry', reason: `${gateway} did not answer within ${timeoutMs} ms` };
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return { verdict: 'retry', reason: `${gateway} unreachable${code ? ` (${code})` : ''}` };
}

/** The most of an answer that is read: enough for a verdict and an excerpt. */
export async function answerText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < 4096) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, 4096).toString('utf8');
}
