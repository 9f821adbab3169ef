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
 * - `partition()`: a real network split, as seen from both ends. As with `blackhole`, nothing is
 *   forwarded and new connections are never answered; in addition a side that closes its socket
 *   meanwhile is not heard of by the other: a client that gives up leaves its server connection
 *   open (a transaction it had under way stays open on the server), and a connection the server
 *   ends is not closed towards the client. Bytes sent either way during the split are dropped, not
 *   held: the streams are broken for good, as after a partition outlived by neither peer's
 *   retransmissions.
 * - `partitionAtNextCommit()`: forwards as usual until a client sends a MySQL `COMMIT`
 *   (COM_QUERY), then splits the network at once, that COMMIT (with the rest of its chunk)
 *   undelivered. So the transaction it would have ended stays open on the server, holding its locks.
 * - `restore()`: the outage ends. After `refuse`, the port listens again. After `blackhole`, the
 *   partition heals as TCP would: what was held back is delivered, and held connections reach the
 *   server. After `partition`, every connection of the split is reset at both ends (as when each
 *   peer finally finds the other gone), and new connections work again.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly links = new Set<Link>();
  private mode: 'open' | 'refused' | 'blackhole' | 'partitioned' = 'open';
  private listeningPort = 0;
  /** Set by partitionAtNextCommit until the COMMIT is seen: resolves its promise. */
  private commitTrap: (() => void) | null = null;

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

  /** Connections open through the proxy right now (during a partition, those with either end still open). */
  get connectionCount(): number {
    return this.links.size;
  }

  /**
   * The local ports of the proxy's open connections to the server, as the server sees them (in
   * MySQL's information_schema.PROCESSLIST, HOST reads `127.0.0.1:PORT` or `localhost:PORT`).
   */
  upstreamLocalPorts(): number[] {
    return [...this.links].flatMap((link) => link.upstreamLocalPort() ?? []);
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

  partition(): void {
    this.mode = 'partitioned';
    const trap = this.commitTrap;
    this.commitTrap = null;
    trap?.();
  }

  /**
   * Splits the network (partition()) when a client next sends `COMMIT`, which is not delivered.
   * The promise resolves at that moment; it stays pending if no COMMIT comes, so callers bound
   * their wait.
   */
  partitionAtNextCommit(): Promise<void> {
    return new Promise((resolve) => {
      this.commitTrap = resolve;
    });
  }

  async restore(options: { stranded?: boolean } = {}): Promise<void> {
    const previous = this.mode;
    this.mode = 'open';
    this.commitTrap = null;
    if (previous === 'refused') await this.listen(this.listeningPort);
    for (const link of [...this.links]) {
      // Bytes were dropped during a split, so no connection of it can carry on.
      if (previous === 'partitioned') link.destroy();
      else if (options.stranded) link.strand();
      else link.flush();
    }
  }

  async close(): Promise<void> {
    this.mode = 'refused';
    this.commitTrap = null;
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
    const link = new Link(client, {
      forwarding: () => this.mode === 'open',
      partitioned: () => this.mode === 'partitioned',
      splitsAtCommit: () => {
        if (this.commitTrap === null) return false;
        this.partition();
        return true;
      },
      dial: () => connect(this.targetPort, this.targetHost),
    });
    this.links.add(link);
    link.onClose = () => this.links.delete(link);
    if (this.mode === 'open') link.flush();
  }
}

/** What a link asks of its proxy. */
interface Network {
  /** Whether bytes pass right now. */
  forwarding(): boolean;
  /** Whether the network is split: bytes are dropped and closes are not passed on. */
  partitioned(): boolean;
  /** Called on a client chunk that holds a COMMIT; true when the network split just before it. */
  splitsAtCommit(): boolean;
  /** A new connection to the server. */
  dial(): Socket;
}

/** One client connection and its connection to the server, with what is held back while cut. */
class Link {
  onClose: () => void = () => undefined;
  private upstream: Socket | null = null;
  private readonly toServer: Buffer[] = [];
  private readonly toClient: Buffer[] = [];
  private readonly commits = new CommitSpotter();
  private closed = false;
  private stranded = false;

  constructor(
    private readonly client: Socket,
    private readonly network: Network,
  ) {
    client.on('data', (chunk: Buffer) => {
      if (this.network.partitioned()) return;
      if (this.commits.spot(chunk) && this.network.splitsAtCommit()) return;
      this.toServer.push(chunk);
      if (this.network.forwarding()) this.flush();
    });
    client.on('error', () => this.endClosed());
    client.on('close', () => this.endClosed());
  }

  /** Connects to the server if not yet done and delivers everything held back. */
  flush(): void {
    if (this.closed || this.stranded) return;
    if (this.upstream === null) {
      const upstream = this.network.dial();
      this.upstream = upstream;
      upstream.on('data', (chunk: Buffer) => {
        if (this.network.partitioned()) return;
        this.toClient.push(chunk);
        if (this.network.forwarding()) this.flush();
      });
      upstream.on('error', () => this.endClosed());
      upstream.on('close', () => this.endClosed());
    }
    for (const chunk of this.toServer.splice(0)) this.upstream.write(chunk);
    for (const chunk of this.toClient.splice(0)) this.client.write(chunk);
  }

  /** The local port of the open connection to the server, if any. */
  upstreamLocalPort(): number | undefined {
    if (this.closed || this.upstream === null || this.upstream.destroyed) return undefined;
    return this.upstream.localPort;
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

  /** One end closed: the other is closed too, unless the network is split and the close cannot reach it. */
  private endClosed(): void {
    const clientOpen = !this.client.destroyed;
    const upstreamOpen = this.upstream !== null && !this.upstream.destroyed;
    if (this.network.partitioned() && (clientOpen || upstreamOpen)) return;
    this.destroy();
  }
}

/** A MySQL packet's header: 3-byte little-endian payload length, then a sequence id. */
const HEADER = 4;
const COM_QUERY = 0x03;
/** Longer payloads are not `COMMIT` (give or take some whitespace), so their bytes are not kept. */
const MAX_COMMIT_PAYLOAD = 64;

/**
 * Follows the packets a MySQL client sends, across chunks (a chunk may hold several packets or part
 * of one), to spot a COM_QUERY whose SQL is `COMMIT`. It assumes the plain protocol (no TLS, no
 * compression), as the tests use.
 */
class CommitSpotter {
  /** Bytes still to come of a packet too long to be a COMMIT. */
  private skip = 0;
  /** The start of a packet that the last chunk cut and that may still be a COMMIT. */
  private partial: Buffer | null = null;

  /** Whether `chunk` completes a COMMIT packet. */
  spot(chunk: Buffer): boolean {
    if (this.skip >= chunk.length) {
      this.skip -= chunk.length;
      return false;
    }
    const data = this.partial === null ? chunk : Buffer.concat([this.partial, chunk]);
    let offset = this.skip;
    this.skip = 0;
    this.partial = null;
    let found = false;
    while (offset < data.length) {
      if (data.length - offset < HEADER) {
        this.partial = data.subarray(offset);
        break;
      }
      const length = data.readUIntLE(offset, 3);
      const end = offset + HEADER + length;
      if (end > data.length) {
        if (length <= MAX_COMMIT_PAYLOAD) this.partial = data.subarray(offset);
        else this.skip = end - data.length;
        break;
      }
      if (length <= MAX_COMMIT_PAYLOAD && isCommit(data.subarray(offset + HEADER, end))) found = true;
      offset = end;
    }
    return found;
  }
}

function isCommit(payload: Buffer): boolean {
  return payload[0] === COM_QUERY && payload.subarray(1).toString('utf8').trim().toUpperCase() === 'COMMIT';
}
