import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { decodePacket, verifyResponse, type RadiusPacket } from './radius-packet.js';

export interface ExchangeOptions {
  host: string;
  port: number;
  secret: string;
  /** The encoded request: sent as is, and again unchanged on every retransmission. */
  request: Buffer;
  /** Wait for the first answer; doubled after each retransmission. */
  timeoutMs: number;
  /** Retransmissions after the first send. */
  retries: number;
  signal?: AbortSignal;
}

export interface ExchangeResult {
  /** The verified answer, or null when none came in time. */
  response: RadiusPacket | null;
  /** How many times the request went out. */
  transmissions: number;
  /** Datagrams dropped: from another address or port, or not a valid answer to this request. */
  discarded: number;
}

/**
 * Sends one request over UDP from a socket of its own (so every retransmission leaves from the same
 * source port, with the same Identifier and authenticator) and waits for a verified answer. A
 * datagram that does not come from host:port, or does not verify as an answer to this request with
 * the secret, is dropped and the wait goes on. Rejects only on abort or a socket error.
 */
export function exchange(options: ExchangeOptions): Promise<ExchangeResult> {
  const { host, port, secret, request, signal } = options;
  const family = isIPv6(host) ? 'udp6' : 'udp4';
  return new Promise((resolve, reject) => {
    const socket: Socket = createSocket(family);
    let transmissions = 0;
    let discarded = 0;
    let timeoutMs = options.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;

    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.removeAllListeners('message');
      socket.close();
      outcome();
    };
    const onAbort = (): void => finish(() => reject(signal?.reason ?? new DOMException('aborted', 'AbortError')));
    const send = (): void => {
      transmissions += 1;
      socket.send(request, port, host, (error) => {
        if (error) finish(() => reject(new Error(`could not send to ${host}:${port} (${describeCode(error)})`)));
      });
      timer = setTimeout(onTimeout, timeoutMs);
    };
    const onTimeout = (): void => {
      if (transmissions > options.retries) {
        finish(() => resolve({ response: null, transmissions, discarded }));
        return;
      }
      timeoutMs *= 2;
      send();
    };

    socket.on('message', (data: Buffer, from: RemoteInfo) => {
      if (!sameAddress(from.address, host) || from.port !== port || !verifyResponse(data, request, secret)) {
        discarded += 1;
        return;
      }
      const response = decodePacket(data);
      if (response !== null) finish(() => resolve({ response, transmissions, discarded }));
    });
    socket.on('error', (error) => finish(() => reject(new Error(`socket error (${describeCode(error)})`))));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.bind(0, () => send());
  });
}

function sameAddress(from: string, host: string): boolean {
  return from.toLowerCase() === host.toLowerCase();
}

function describeCode(error: Error): string {
  return (error as { code?: string }).code ?? error.message;
}
