import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './wired-8021x.js';

/**
 * A real captive-portal gateway for e2e tests: Debian's openNDS in network namespaces of the test's
 * own (openNDS 9.10 on Debian 12; docs/portal.md has the protocol, the comments below each trap).
 *
 *   root namespace (the service, the FAS)  ── uplink /30 ──  "gw" (openNDS)  ── /30 ──  "guest" (curl)
 *                                                                 └───────── /30 ──  "web" (a site on port 80)
 *
 * The service listens in the root namespace on `serverAddress`, which the gateway routes to as its
 * FAS; the guest reaches it, and the "web" namespace's landing site, through the gateway only. All
 * addresses are in 198.18.0.0/15 (the benchmarking range). openNDS runs in a private mount and PID
 * namespace as well (it edits /etc, runs systemctl and pgrep): /etc is an overlay there, /tmp and
 * /run fresh tmpfs, and iptables is pointed at the legacy binaries inside that overlay only.
 *
 * Namespaces are named `nds-<pid>-<id>-<role>` after the process that made them: create() first
 * removes those of processes that are gone (a crashed run), and close() removes everything this one
 * made, also after a set-up that failed half-way. The root namespace's end of the uplink is created
 * from the gateway's namespace, so it goes with that namespace; every process started here gets
 * SIGKILL when this process dies (setpriv --pdeathsig), and openNDS's whole PID namespace with it.
 *
 *   const network = await OpenNdsNetwork.create(dir);          // namespaces, links, the landing site
 *   await app.listen(0, network.serverAddress);
 *   await network.startGateway({ fasRemoteIp: network.serverAddress, fasPort, fasPath, fasKey });
 *   await network.request(`http://${network.webAddress}/`, { cookieJar })  // the guest's curl: 307 to the FAS
 *   (await network.guest())?.state                              // ndsctl json: 'Preauthenticated', …
 *   await network.close();                                      // in afterAll, also after a failed set-up
 */

const PREFIX = 'nds-';
const WAIT_MS = 15_000;
const CURL_TIMEOUT_SECONDS = 10;
export const GATEWAY_PORT = 2050;

const PROGRAMS: [string, string[]][] = [
  ['opennds', ['-v']],
  ['ndsctl', ['-h']],
  ['iptables-legacy', ['--version']],
  ['ip', ['-V']],
  ['unshare', ['--version']],
  ['nsenter', ['--version']],
  ['setpriv', ['--version']],
  ['curl', ['--version']],
];

/** Why the suite cannot run here, or null: the programs and the right to make network namespaces. */
export function openNdsSkipReason(): string | null {
  for (const [program, args] of PROGRAMS) {
    if (spawnSync(program, args, { stdio: 'ignore' }).error !== undefined) {
      return `${program} is not installed (apt-get install opennds iptables nftables curl util-linux iproute2; .ci/run does it)`;
    }
  }
  const probe = `${PREFIX}probe-${randomBytes(3).toString('hex')}`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.status !== 0) return `network namespaces cannot be made here (ip netns add: ${added.stderr.trim()})`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}

/** Runs `ip` with `line`'s words (names and addresses here hold no spaces). */
function ip(line: string): void {
  const run = spawnSync('ip', line.split(' '), { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ip ${line} failed: ${run.stderr.trim()}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the namespaces (and every process in them) of earlier runs whose process is gone. */
export function removeLeftovers(): string[] {
  const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  const removed: string[] = [];
  for (const name of listed.split('\n').map((line) => line.split(' ')[0])) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(name);
    if (owner === null || alive(Number(owner[1]))) continue;
    const pids = spawnSync('ip', ['netns', 'pids', name], { encoding: 'utf8' }).stdout ?? '';
    for (const pid of pids.split('\n').filter((line) => /^\d+$/.test(line))) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    spawnSync('ip', ['netns', 'del', name]);
    removed.push(name);
  }
  return removed;
}

/** A process of the harness, its output in a file; SIGKILL reaches it (and its PID namespace) on close. */
class Daemon {
  private exited = false;
  private readonly gone: Promise<void>;
  constructor(
    readonly child: ChildProcess,
    private readonly logPath: string,
  ) {
    this.gone = new Promise((done) => child.once('exit', () => done()));
    void this.gone.then(() => (this.exited = true));
  }

  get running(): boolean {
    return !this.exited;
  }

  text(): string {
    return existsSync(this.logPath) ? readFileSync(this.logPath, 'utf8') : '';
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGKILL');
    await this.gone;
  }
}

/** Starts `command` in namespace `ns`, killed when this process dies; output to `logPath`. */
function startIn(ns: string, logPath: string, command: string[]): Daemon {
  const fd = openSync(logPath, 'a', 0o600);
  const child = spawn('setpriv', ['--pdeathsig', 'KILL', '--', 'ip', 'netns', 'exec', ns, ...command], {
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  return new Daemon(child, logPath);
}

/** What a run of a program in a namespace printed. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], timeoutMs: number): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** An HTTP answer as the guest's curl saw it (no redirect followed). */
export interface GuestResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface GuestRequest {
  method?: 'GET' | 'POST';
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** A cookie jar file, read and written as a browser keeps cookies. */
  cookieJar?: string;
  headers?: Record<string, string>;
}

/** The settings of opennds.conf a test chooses; the rest is fixed for the namespaces. */
export interface OpenNdsSettings {
  /** The FAS: where the service listens (normally `serverAddress`) and its port. */
  fasRemoteIp: string;
  fasPort: number;
  /** The portal's path, `/portal/<venueId>`. */
  fasPath: string;
  /** fas_secure_enabled 1: the key the token is made with (sha256(hid + faskey)). */
  fasKey: string;
  gatewayName?: string;
}

/** One client of `ndsctl json`. */
export interface NdsClient {
  mac: string;
  ip: string;
  state: string;
  token: string;
  custom: string;
  [key: string]: string;
}

/** The opennds.conf the harness starts openNDS with (FAS level 1). */
export function openNdsConfig(settings: OpenNdsSettings & { gatewayInterface: string }): string {
  return [
    `GatewayInterface ${settings.gatewayInterface}`,
    `gatewayname ${settings.gatewayName ?? 'e2e'}`,
    `gatewayport ${GATEWAY_PORT}`,
    // Without these it writes the FQDN into /etc/hosts and a DHCP option into dnsmasq's files.
    'gatewayfqdn disable',
    'dhcp_default_url_enable 0',
    'fas_secure_enabled 1',
    `faskey ${settings.fasKey}`,
    `fasremoteip ${settings.fasRemoteIp}`,
    `fasport ${settings.fasPort}`,
    `faspath ${settings.fasPath}`,
    'checkinterval 2',
    'FirewallRuleSet authenticated-users {',
    '}',
    'FirewallRuleSet preauthenticated-users {',
    '}',
    'FirewallRuleSet users-to-router {',
    '    FirewallRule allow udp port 53',
    '    FirewallRule allow tcp port 53',
    '    FirewallRule allow udp port 67',
    '}',
    '',
  ].join('\n');
}

/**
 * Runs inside openNDS's private mount and PID namespace: /run a tmpfs holding the overlay's upper
 * layer for /etc; iptables pointed at the legacy binaries there (with Debian 12's iptables-nft 1.8.9
 * openNDS 9.10 fails to add its chains); the configuration copied in before a fresh /tmp hides the
 * test's folder; the guest's lease in dnsmasq's format (openNDS answers 403 to a client without
 * one); then openNDS itself.
 */
const GATEWAY_SCRIPT = `set -e
mount -t tmpfs -o mode=0755 tmpfs /run
mkdir -p /run/.etc-upper /run/.etc-work
mount -t overlay overlay -o lowerdir=/etc,upperdir=/run/.etc-upper,workdir=/run/.etc-work /etc
for tool in iptables iptables-save iptables-restore; do
  ln -sf "/usr/sbin/$(echo "$tool" | sed 's/^iptables/iptables-legacy/')" "/etc/alternatives/$tool"
done
mkdir -p /etc/opennds
cp "$1" /etc/opennds/opennds.conf
mount -t tmpfs -o mode=1777 tmpfs /tmp
printf '%s\\n' "$2" > /tmp/dhcp.leases
exec opennds -f -d 2 -c /etc/opennds/opennds.conf
`;

export class OpenNdsNetwork {
  /** The root namespace's address: the service (the FAS) listens here. */
  readonly serverAddress: string;
  /** The gateway's address on the guests' side (openNDS's gatewayaddress, without the port). */
  readonly gatewayAddress: string;
  readonly guestAddress: string;
  readonly guestMac: string;
  /** A site on the "internet" behind the gateway: any plain-HTTP path on port 80 answers 200 `landing <path>`. */
  readonly webAddress: string;
  readonly gatewayNamespace: string;
  readonly guestNamespace: string;
  readonly webNamespace: string;
  private readonly uplink: string;
  private readonly rootLink: string;
  private readonly guestPort: string;
  private readonly guestLink: string;
  private readonly webPort: string;
  private readonly webLink: string;
  private readonly gatewayUplinkAddress: string;
  private readonly gatewayWebAddress: string;
  private readonly guestSubnet: string;
  private readonly namespaces: string[] = [];
  private readonly daemons: Daemon[] = [];
  private gateway: Daemon | null = null;
  private requests = 0;

  private constructor(private readonly dir: string) {
    const id = randomBytes(3).toString('hex');
    const name = (role: string) => `${PREFIX}${process.pid}-${id}-${role}`;
    this.gatewayNamespace = name('gw');
    this.guestNamespace = name('guest');
    this.webNamespace = name('web');
    // Interface names: at most 15 characters.
    this.uplink = `nds${id}u`;
    this.rootLink = `nds${id}r`;
    this.guestPort = `nds${id}g`;
    this.guestLink = `nds${id}c`;
    this.webPort = `nds${id}w`;
    this.webLink = `nds${id}i`;
    const block = randomBytes(3);
    const base = `198.${18 + (block[0] & 1)}.${block[1]}`;
    const host = block[2] & 0xf0;
    this.serverAddress = `${base}.${host + 1}`;
    this.gatewayUplinkAddress = `${base}.${host + 2}`;
    this.gatewayAddress = `${base}.${host + 5}`;
    this.guestAddress = `${base}.${host + 6}`;
    this.guestSubnet = `${base}.${host + 4}/30`;
    this.gatewayWebAddress = `${base}.${host + 9}`;
    this.webAddress = `${base}.${host + 10}`;
    this.guestMac = `02:${[...randomBytes(5)].map((byte) => byte.toString(16).padStart(2, '0')).join(':')}`;
  }

  /**
   * Removes leftovers of crashed runs, builds the namespaces and links and starts the landing site;
   * on a failure removes what it made and rethrows.
   */
  static async create(dir: string): Promise<OpenNdsNetwork> {
    removeLeftovers();
    const network = new OpenNdsNetwork(dir);
    try {
      network.build();
      await network.startWeb();
    } catch (error) {
      await network.close();
      throw error;
    }
    return network;
  }

  private build(): void {
    for (const ns of [this.gatewayNamespace, this.guestNamespace, this.webNamespace]) {
      ip(`netns add ${ns}`);
      this.namespaces.push(ns);
    }
    const gw = this.gatewayNamespace;
    // Made from the gateway's namespace, the root end lives only as long as that namespace does.
    ip(`-n ${gw} link add ${this.uplink} type veth peer name ${this.rootLink} netns ${process.pid}`);
    ip(`-n ${gw} link add ${this.guestPort} type veth peer name ${this.guestLink} netns ${this.guestNamespace}`);
    ip(`-n ${gw} link add ${this.webPort} type veth peer name ${this.webLink} netns ${this.webNamespace}`);
    ip(`addr add ${this.serverAddress}/30 dev ${this.rootLink}`);
    ip(`link set ${this.rootLink} up`);
    ip(`route add ${this.guestSubnet} via ${this.gatewayUplinkAddress} dev ${this.rootLink}`);
    for (const [link, address] of [
      [this.uplink, this.gatewayUplinkAddress],
      [this.guestPort, this.gatewayAddress],
      [this.webPort, this.gatewayWebAddress],
    ]) {
      ip(`-n ${gw} addr add ${address}/30 dev ${link}`);
      ip(`-n ${gw} link set ${link} up`);
    }
    ip(`-n ${gw} link set lo up`);
    // No default route on the gateway: one out of its GatewayInterface would make openNDS exit.
    const forwarding = spawnSync('ip', ['netns', 'exec', gw, 'sysctl', '-qw', 'net.ipv4.ip_forward=1'], {
      encoding: 'utf8',
    });
    if (forwarding.status !== 0) throw new Error(`ip_forward on the gateway: ${forwarding.stderr.trim()}`);
    ip(`-n ${this.guestNamespace} link set ${this.guestLink} address ${this.guestMac}`);
    for (const [ns, link, address, via] of [
      [this.guestNamespace, this.guestLink, this.guestAddress, this.gatewayAddress],
      [this.webNamespace, this.webLink, this.webAddress, this.gatewayWebAddress],
    ]) {
      ip(`-n ${ns} addr add ${address}/30 dev ${link}`);
      ip(`-n ${ns} link set ${link} up`);
      ip(`-n ${ns} link set lo up`);
      ip(`-n ${ns} route add default via ${via}`);
    }
  }

  private async startWeb(): Promise<void> {
    const site = [
      "const server = require('node:http').createServer((request, response) => {",
      "  response.writeHead(200, { 'content-type': 'text/plain' }).end('landing ' + request.url);",
      '});',
      `server.listen(80, '${this.webAddress}', () => console.log('listening'));`,
    ].join('\n');
    const web = startIn(this.webNamespace, join(this.dir, 'web.log'), [process.execPath, '-e', site]);
    this.daemons.push(web);
    await waitUntil('the landing site to listen', () => {
      if (!web.running) throw new Error(`the landing site exited:\n${web.text()}`);
      return web.text().includes('listening');
    });
  }

  /** Starts openNDS (FAS level 1) with a lease for the guest and waits until ndsctl answers. */
  async startGateway(settings: OpenNdsSettings): Promise<void> {
    if (this.gateway !== null) throw new Error('openNDS is already running in this network');
    const config = join(this.dir, 'opennds.conf');
    writeFileSync(config, openNdsConfig({ ...settings, gatewayInterface: this.guestPort }), { mode: 0o600 });
    const lease = `${Math.floor(Date.now() / 1000) + 86_400} ${this.guestMac} ${this.guestAddress} guest *`;
    const gateway = startIn(this.gatewayNamespace, join(this.dir, 'opennds.log'), [
      'unshare',
      '--mount',
      '--pid',
      '--fork',
      '--kill-child',
      '--mount-proc',
      'sh',
      '-c',
      GATEWAY_SCRIPT,
      'opennds-e2e',
      config,
      lease,
    ]);
    this.daemons.push(gateway);
    this.gateway = gateway;
    await waitUntil(
      'openNDS to answer ndsctl',
      async () => {
        if (!gateway.running) throw new Error(`openNDS exited:\n${gateway.text()}`);
        return gateway.text().includes('openNDS is now running') && (await this.ndsctl('json')).code === 0;
      },
      WAIT_MS,
    );
  }

  /**
   * Runs ndsctl inside openNDS's namespaces (its socket is in the private /tmp): nsenter into the
   * mount and network namespace of openNDS, the child of unshare.
   */
  async ndsctl(...args: string[]): Promise<Run> {
    const unsharePid = this.gateway?.child.pid;
    if (unsharePid === undefined) throw new Error('openNDS is not running');
    const childrenFile = `/proc/${unsharePid}/task/${unsharePid}/children`;
    const inner = existsSync(childrenFile) ? readFileSync(childrenFile, 'utf8').trim().split(' ')[0] : '';
    if (inner === '') return { code: null, stdout: '', stderr: 'openNDS has not started yet' };
    return run('nsenter', ['-t', inner, '-m', '-n', 'ndsctl', ...args], WAIT_MS);
  }

  /** `ndsctl json`: the gateway's clients by MAC. */
  async clients(): Promise<Record<string, NdsClient>> {
    const answer = await this.ndsctl('json');
    if (answer.code !== 0) throw new Error(`ndsctl json failed: ${answer.stderr}`);
    return (JSON.parse(answer.stdout) as { clients: Record<string, NdsClient> }).clients;
  }

  /** The guest's own client entry, or undefined while the gateway has not seen it. */
  async guest(): Promise<NdsClient | undefined> {
    return (await this.clients())[this.guestMac];
  }

  /** Runs curl with `args` in the guest's namespace (asynchronously: the service may be this process). */
  curl(args: string[]): Promise<Run> {
    return run(
      'ip',
      ['netns', 'exec', this.guestNamespace, 'curl', '--max-time', String(CURL_TIMEOUT_SECONDS), ...args],
      (CURL_TIMEOUT_SECONDS + 5) * 1000,
    );
  }

  /** One plain HTTP request by the guest, as a browser makes it (cookies from a jar), no redirect followed. */
  async request(url: string, options: GuestRequest = {}): Promise<GuestResponse> {
    const bodyFile = join(this.dir, `guest-body-${++this.requests}`);
    const args = ['-sS', '-D', '-', '-o', bodyFile];
    if (options.cookieJar !== undefined) args.push('-b', options.cookieJar, '-c', options.cookieJar);
    for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
    if (options.form !== undefined) {
      for (const [name, value] of Object.entries(options.form)) args.push('--data-urlencode', `${name}=${value}`);
    }
    if (options.method !== undefined) args.push('-X', options.method);
    const answer = await this.curl([...args, '--', url]);
    if (answer.code !== 0) throw new Error(`the guest's curl ${url} failed (${answer.code}): ${answer.stderr.trim()}`);
    // The last block of headers is the answer's (a 100 Continue may come first).
    const block = answer.stdout.trimEnd().split('\r\n\r\n').at(-1) ?? '';
    const [statusLine, ...lines] = block.split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    return {
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: existsSync(bodyFile) ? readFileSync(bodyFile, 'utf8') : '',
    };
  }

  /** What openNDS and the landing site printed, for a failing test. */
  logs(): string {
    return this.daemons.map((daemon) => daemon.text()).join('\n----\n');
  }

  async close(): Promise<void> {
    for (const daemon of this.daemons) await daemon.stop();
    // Deleting a namespace deletes its links, a veth pair goes with either end, and the root
    // namespace's route to the guests with its link.
    for (const ns of this.namespaces) spawnSync('ip', ['netns', 'del', ns]);
  }
}

/** The items of openNDS's `fas` parameter (level 1: base64 of `key=value, key=value, …`). */
export function decodeFas(fas: string): Record<string, string> {
  const items: Record<string, string> = {};
  for (const item of Buffer.from(fas, 'base64').toString('utf8').split(', ')) {
    const equals = item.indexOf('=');
    if (equals > 0) items[item.slice(0, equals)] = item.slice(equals + 1);
  }
  return items;
}
