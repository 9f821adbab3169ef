import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call FreeRADIUS made, as the peer received it. */
export interface PeerCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, { type: string; value: unknown[] }>;
}

export interface PeerAnswer {
  status: number;
  body?: unknown;
  /** Answers only after this long (a service too busy to answer in time). */
  delayMs?: number;
}

/**
 * A small HTTP server standing in for the service's /radius/ routes in tests of the FreeRADIUS
 * wiring: it records every call and answers what `answer` decides.
 */
export interface RestPeer {
  url: string;
  calls: PeerCall[];
  answer: (call: PeerCall) => PeerAnswer;
  close(): Promise<void>;
}

export async function startRestPeer(answer: (call: PeerCall) => PeerAnswer): Promise<RestPeer> {
  const peer: RestPeer = { url: '', calls: [], answer, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      let body: PeerCall['body'] = {};
      try {
        body = raw === '' ? {} : (JSON.parse(raw) as PeerCall['body']);
      } catch {
        // recorded as empty: the assertions on the body then fail
      }
      const call: PeerCall = { path: request.url ?? '', headers: request.headers, body };
      peer.calls.push(call);
      const { status, body: reply, delayMs = 0 } = peer.answer(call);
      const send = () => {
        if (response.destroyed) return;
        if (reply === undefined) response.writeHead(status).end();
        else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      };
      if (delayMs > 0) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return peer;
}
