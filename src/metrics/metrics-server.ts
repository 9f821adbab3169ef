import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseMetricsCollector } from './database-metrics.collector.js';
import { HotspotMetrics } from './hotspot-metrics.js';
import { LoadMetricsCollector } from './load-metrics.collector.js';
import { METRICS_SETTINGS, type MetricsSettings } from './metrics-settings.js';

/**
 * `GET /metrics` on a listener of its own (METRICS_HOST:METRICS_PORT), never on the API's port: a
 * plain node:http server, started once the application is up and closed at shutdown. Anything but
 * GET or HEAD /metrics is 404 (405 for another method).
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly metrics: HotspotMetrics,
    private readonly collector: DatabaseMetricsCollector,
    private readonly load: LoadMetricsCollector,
    @Inject(METRICS_SETTINGS) private readonly settings: MetricsSettings,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed\n');
        return;
      }
      this.render().then(
        (body) => {
          response.writeHead(200, { 'content-type': this.metrics.registry.contentType });
          response.end(request.method === 'HEAD' ? undefined : body);
        },
        (error: unknown) => {
          this.logger.error(`Could not render the metrics: ${error instanceof Error ? error.message : String(error)}`);
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n');
        },
      );
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.settings.port, this.settings.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const { address, port } = this.address()!;
    const shown = address.includes(':') ? `[${address}]` : address;
    this.logger.log(`Prometheus metrics on http://${shown}:${port}/metrics`);
  }

  /** Where the listener is (METRICS_PORT 0 takes a free port); null before it started. */
  address(): AddressInfo | null {
    const address = this.server?.address();
    return address !== null && typeof address === 'object' ? address : null;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  private async render(): Promise<string> {
    this.load.collect();
    await this.collector.collect();
    return this.metrics.registry.metrics();
  }
}
