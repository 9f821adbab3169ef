import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of a real server (MariaDB, Redis), which a test can cut
 * and restore to play an outage without touching the server itself:
 *
 * - `refuse()`: the server is down. Every open connection is reset and the port stops listening,
 *   so new connections are refused (ECONNREFUSED).
 * - `blackhole()`: the network is partitioned. Connections stay open but nothing is forwarded
 *   either way, and new connections are accepted and then never answered, so callers only notice
 *   through their own timeouts.
 * - `restore()`: the outage ends. After `refuse`, the port listens again. After `blackhole`, the
 *   partition heals as TCP would: what was held back is delivered, and held connections reach the
 *   server.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly links = new Set<Link>();
  private mode: 'open' | 'refused' | 'blackhole' = 'open';
  private listeningPort = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.listen(0);
    proxy.listeningPort = (proxy.server.address() as AddressInfo).port;
    return proxy;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** Connections open through the proxy right now. */
  get connectionCount(): number {
    return this.links.size;
  }

  async refuse(): Promise<void> {
    this.mode = 'refused';
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const link of [...this.links]) link.destroy();
    await closed;
  }

  blackhole(): void {
    this.mode = 'blackhole';
  }

  async restore(options: { stranded?: boolean } = {}): Promise<void> {
    const wasRefused = this.mode === 'refused';
    this.mode = 'open';
    if (wasRefused) await this.listen(this.listeningPort);
    for (const link of [...this.links]) {
      if (options.stranded) link.strand();
      else link.flush();
    }
  }

  async close(): Promise<void> {
    this.mode = 'refused';
    for (const link of [...this.links]) link.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  private accept(client: Socket): void {
    if (this.mode === 'refused') {
      client.destroy();
      return;
    }
    const link = new Link(
      client,
      () => this.mode === 'open',
      () => connect(this.targetPort, this.targetHost),
    );
    this.links.add(link);
    link.onClose = () => this.links.delete(link);
    if (this.mode === 'open') link.flush();
  }
}

/** One client connection and its connection to the server, with what is held back while cut. */
class Link {
  onClose: () => void = () => undefined;
  private upstream: Socket | null = null;
  private readonly toServer: Buffer[] = [];
  private readonly toClient: Buffer[] = [];
  private closed = false;
  private stranded = false;

  constructor(
    private readonly client: Socket,
    private readonly forwarding: () => boolean,
    private readonly dial: () => Socket,
  ) {
    client.on('data', (chunk: Buffer) => {
      this.toServer.push(chunk);
      if (this.forwarding()) this.flush();
    });
    client.on('error', () => this.destroy());
    client.on('close', () => this.destroy());
  }

  /** Connects to the server if not yet done and delivers everything held back. */
  flush(): void {
    if (this.closed || this.stranded) return;
    if (this.upstream === null) {
      const upstream = this.dial();
      this.upstream = upstream;
      upstream.on('data', (chunk: Buffer) => {
        this.toClient.push(chunk);
        if (this.forwarding()) this.flush();
      });
      upstream.on('error', () => this.destroy());
      upstream.on('close', () => this.destroy());
    }
    for (const chunk of this.toServer.splice(0)) this.upstream.write(chunk);
    for (const chunk of this.toClient.splice(0)) this.client.write(chunk);
  }

  /** This connection stays cut for good, neither answered nor closed. */
  strand(): void {
    this.stranded = true;
  }

  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.client.destroy();
    this.upstream?.destroy();
    this.onClose();
  }
}
