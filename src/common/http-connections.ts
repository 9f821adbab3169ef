import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Node's answers to a request its parser rejects, by error code (as its own default handler picks them). */
const CLIENT_ERROR_STATUSES: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * The server's connections and the response under way on each. Node's closeIdleConnections spares a
 * connection that never sent a request (a client's connection pool opened ahead, as FreeRADIUS's
 * rlm_rest does), so a shutdown waiting for the server to close waited for the header deadline.
 */
export class HttpConnections {
  private readonly open = new Set<Socket>();
  private readonly responding = new Map<Socket, ServerResponse>();

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => {
        this.open.delete(socket);
        this.responding.delete(socket);
      });
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      this.responding.set(socket, response);
      response.once('close', () => {
        if (this.responding.get(socket) === response) this.responding.delete(socket);
      });
    });
    server.on('clientError', (error: Error & { code?: string }, socket: Duplex) =>
      this.answerClientError(error, socket),
    );
  }

  /** Closes every connection without a request under way. */
  closeIdle(): void {
    for (const socket of this.open) if (!this.responding.has(socket)) socket.destroy();
  }

  /**
   * What Node's default does for a request its parser rejects (too large a header block, a malformed
   * request, a missed deadline), with the API's error body and an X-Request-Id, as every answer has.
   */
  private answerClientError(error: Error & { code?: string }, socket: Duplex): void {
    const under = this.responding.get(socket as Socket);
    if (error.code === 'ECONNRESET' || !socket.writable || under?.headersSent === true) {
      socket.destroy();
      return;
    }
    const status = CLIENT_ERROR_STATUSES[error.code ?? ''] ?? 400;
    const body = JSON.stringify({ success: false, message: STATUS_CODES[status] });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${randomUUID()}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
}

const tracked = new WeakMap<Server, HttpConnections>();

/** Starts tracking the server's connections (before it listens); connectionsOf finds the tracker again. */
export function trackConnections(server: Server): HttpConnections {
  const connections = new HttpConnections(server);
  tracked.set(server, connections);
  return connections;
}

export function connectionsOf(server: Server): HttpConnections | undefined {
  return tracked.get(server);
}
