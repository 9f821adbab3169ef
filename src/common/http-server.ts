import type { Server } from 'node:http';
import type { HttpServerConfig } from '../config/configuration.js';
import { trackConnections } from './http-connections.js';

/** The longest gap between Node's checks of the header and request deadlines. */
const MAX_CHECKING_INTERVAL_MS = 1000;

/**
 * Applies the timeouts and the connection limit to the service's HTTP server, and tracks its
 * connections (see HttpConnections), before it listens (createApp does it, so main.ts and the e2e
 * tests serve alike). Node's defaults let a client that
 * trickles its header block hold a socket for a minute or more, and accept connections without limit.
 */
export function configureHttpServer(server: Server, config: HttpServerConfig): void {
  trackConnections(server);
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // Past the limit Node closes a new connection as soon as it is accepted.
  server.maxConnections = config.maxConnections;
  // Node enforces the two deadlines on a timer, every 30 s by default, which would let a stalled
  // client stay that much longer. Its interval is the createServer option connectionsCheckingInterval
  // (Nest creates the server without options); the timer starts when the server listens and reads
  // the property then.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    MAX_CHECKING_INTERVAL_MS,
    Math.max(10, Math.floor(Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 4)),
  );
}
