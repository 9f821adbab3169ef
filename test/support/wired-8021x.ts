import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A wired 802.1X network of real software for e2e tests: two network namespaces of the test's own,
 * "nas" running hostapd (driver=wired, 802.1X authenticator, RADIUS accounting and its RFC 5176 DAS)
 * and "dev" running wpa_supplicant (the guest's device). A veth pair joins the root namespace (where
 * FreeRADIUS and the service run) to the NAS on a /30 of 198.18.0.0/15 (the benchmarking range); a
 * second pair joins the NAS to the device and carries EAPOL only. Names are unique per run and at
 * most 15 characters; close() removes everything, also after a setup that failed half-way.
 */

const WAIT_MS = 10_000;
const STOP_TIMEOUT_MS = 5000;

/** Why the suite cannot run here, or null: the programs and the right to make network namespaces. */
export function wired8021xSkipReason(): string | null {
  for (const program of ['hostapd', 'wpa_supplicant', 'wpa_cli', 'ip']) {
    if (spawnSync(program, ['-v'], { stdio: 'ignore' }).error !== undefined) {
      return `${program} is not installed (apt-get install hostapd wpasupplicant iproute2; .ci/run does it)`;
    }
  }
  const probe = `hsprobe${randomBytes(3).toString('hex')}`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.status !== 0) return `network namespaces cannot be made here (ip netns add: ${added.stderr.trim()})`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}

function ip(...args: string[]): void {
  const run = spawnSync('ip', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${run.stderr.trim()}`);
}

export interface DaemonLog {
  /** The output so far. */
  text(): string;
}

class Daemon implements DaemonLog {
  private exited = false;
  constructor(
    private readonly child: ChildProcess,
    private readonly logPath: string,
  ) {
    child.once('exit', () => (this.exited = true));
  }

  text(): string {
    return existsSync(this.logPath) ? readFileSync(this.logPath, 'utf8') : '';
  }

  get running(): boolean {
    return !this.exited;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((done) => this.child.once('exit', () => done()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await gone;
    clearTimeout(timer);
  }
}

/** Starts `command` inside namespace `ns` (ip netns exec replaces itself with it), output to `logPath`. */
function startIn(ns: string, logPath: string, command: string[]): Daemon {
  const fd = openSync(logPath, 'a', 0o600);
  const child = spawn('ip', ['netns', 'exec', ns, ...command], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return new Daemon(child, logPath);
}

/** Bounded wait for `condition`, polling. */
export async function waitUntil(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = WAIT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

export interface HostapdSettings {
  secret: string;
  authPort: number;
  acctPort: number;
  interimIntervalSeconds: number;
}

export interface Device {
  macAddress: string;
  /** wpa_cli status as key=value pairs. */
  status(): Record<string, string>;
  /** Makes the device authenticate again (EAPOL-Start). */
  reauthenticate(): void;
  log: DaemonLog;
  stop(): Promise<void>;
}

export class Wired8021x {
  /** The root namespace's address (FreeRADIUS listens here; the service's Disconnects come from here). */
  readonly serverAddress: string;
  /** hostapd's address (own_ip_addr, NAS-IP-Address, its DAS). */
  readonly nasAddress: string;
  readonly nasNamespace: string;
  readonly deviceNamespace: string;
  private readonly rootLink: string;
  private readonly nasLink: string;
  private readonly nasPortLink: string;
  private readonly deviceLink: string;
  private readonly daemons: Daemon[] = [];
  private readonly namespaces: string[] = [];
  private rootLinkMade = false;
  hostapd: Daemon | null = null;

  private constructor(private readonly dir: string) {
    const id = randomBytes(3).toString('hex');
    this.nasNamespace = `hs${id}-nas`;
    this.deviceNamespace = `hs${id}-dev`;
    this.rootLink = `hs${id}r`;
    this.nasLink = `hs${id}n`;
    this.nasPortLink = `hs${id}p`;
    this.deviceLink = `hs${id}d`;
    const block = randomBytes(3);
    const base = `198.${18 + (block[0] & 1)}.${block[1]}`;
    const host = block[2] & 0xfc;
    this.serverAddress = `${base}.${host + 1}`;
    this.nasAddress = `${base}.${host + 2}`;
  }

  /** Builds the namespaces and links; on a failure removes what it made and rethrows. */
  static create(dir: string): Wired8021x {
    const network = new Wired8021x(dir);
    try {
      network.build();
    } catch (error) {
      network.removeNetwork();
      throw error;
    }
    return network;
  }

  private build(): void {
    for (const ns of [this.nasNamespace, this.deviceNamespace]) {
      ip('netns', 'add', ns);
      this.namespaces.push(ns);
    }
    ip('link', 'add', this.rootLink, 'type', 'veth', 'peer', 'name', this.nasLink);
    this.rootLinkMade = true;
    ip('link', 'set', this.nasLink, 'netns', this.nasNamespace);
    ip('addr', 'add', `${this.serverAddress}/30`, 'dev', this.rootLink);
    ip('link', 'set', this.rootLink, 'up');
    ip('-n', this.nasNamespace, 'addr', 'add', `${this.nasAddress}/30`, 'dev', this.nasLink);
    ip('-n', this.nasNamespace, 'link', 'set', this.nasLink, 'up');
    ip('-n', this.nasNamespace, 'link', 'set', 'lo', 'up');
    ip('-n', this.nasNamespace, 'link', 'add', this.nasPortLink, 'type', 'veth', 'peer', 'name', this.deviceLink);
    ip('-n', this.nasNamespace, 'link', 'set', this.deviceLink, 'netns', this.deviceNamespace);
    ip('-n', this.nasNamespace, 'link', 'set', this.nasPortLink, 'up');
    ip('-n', this.deviceNamespace, 'link', 'set', 'lo', 'up');
  }

  /** Starts hostapd as the NAS, 802.1X on the device's port, and waits until it is enabled. */
  async startHostapd(settings: HostapdSettings): Promise<void> {
    const config = join(this.dir, 'hostapd.conf');
    writeFileSync(
      config,
      [
        `interface=${this.nasPortLink}`,
        'driver=wired',
        `ctrl_interface=${join(this.dir, 'hostapd-ctrl')}`,
        'logger_stdout=-1',
        'logger_stdout_level=1',
        'ieee8021x=1',
        'eapol_version=2',
        'use_pae_group_addr=1',
        `own_ip_addr=${this.nasAddress}`,
        'nas_identifier=hostapd-e2e',
        `auth_server_addr=${this.serverAddress}`,
        `auth_server_port=${settings.authPort}`,
        `auth_server_shared_secret=${settings.secret}`,
        `acct_server_addr=${this.serverAddress}`,
        `acct_server_port=${settings.acctPort}`,
        `acct_server_shared_secret=${settings.secret}`,
        `radius_acct_interim_interval=${settings.interimIntervalSeconds}`,
        'radius_das_port=3799',
        `radius_das_client=${this.serverAddress} ${settings.secret}`,
        'radius_das_time_window=300',
        'radius_das_require_event_timestamp=1',
        'radius_das_require_message_authenticator=1',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const hostapd = startIn(this.nasNamespace, join(this.dir, 'hostapd.log'), ['hostapd', '-t', config]);
    this.daemons.push(hostapd);
    this.hostapd = hostapd;
    await waitUntil('hostapd to start', () => {
      if (!hostapd.running) throw new Error(`hostapd exited:\n${hostapd.text()}`);
      return /AP-ENABLED|interface state \S+->ENABLED/.test(hostapd.text());
    });
  }

  /**
   * Starts wpa_supplicant on the device's port with one network block (wpa_supplicant syntax), as a
   * new device: a MAC address of its own, so hostapd's state of an earlier device (e.g. the quiet
   * period after a refused login) does not apply to it.
   */
  async startDevice(network: string): Promise<Device> {
    const name = `wpa-${process.hrtime.bigint()}`;
    const macAddress = `02:${[...randomBytes(5)].map((byte) => byte.toString(16).padStart(2, '0')).join(':')}`;
    ip('-n', this.deviceNamespace, 'link', 'set', this.deviceLink, 'down');
    ip('-n', this.deviceNamespace, 'link', 'set', this.deviceLink, 'address', macAddress);
    ip('-n', this.deviceNamespace, 'link', 'set', this.deviceLink, 'up');
    const ctrl = join(this.dir, `${name}-ctrl`);
    const config = join(this.dir, `${name}.conf`);
    writeFileSync(config, `ctrl_interface=${ctrl}\nap_scan=0\neapol_version=2\n${network}`, { mode: 0o600 });
    const daemon = startIn(this.deviceNamespace, join(this.dir, `${name}.log`), [
      'wpa_supplicant',
      '-D',
      'wired',
      '-i',
      this.deviceLink,
      '-c',
      config,
    ]);
    this.daemons.push(daemon);
    const cli = (...args: string[]) => {
      const run = spawnSync(
        'ip',
        ['netns', 'exec', this.deviceNamespace, 'wpa_cli', '-p', ctrl, '-i', this.deviceLink, ...args],
        {
          encoding: 'utf8',
          timeout: 5000,
        },
      );
      return run.stdout ?? '';
    };
    await waitUntil('wpa_supplicant to start', () => {
      if (!daemon.running) throw new Error(`wpa_supplicant exited:\n${daemon.text()}`);
      return cli('ping').includes('PONG');
    });
    const status = () =>
      Object.fromEntries(
        cli('status')
          .split('\n')
          .map((line) => line.split('='))
          .filter((pair) => pair.length >= 2)
          .map(([key, ...value]) => [key, value.join('=')]),
      );
    // Its EAPOL-Start would come after about 2 s; asking now makes the login start at once.
    cli('reauthenticate');
    return {
      macAddress,
      status,
      reauthenticate: () => void cli('reauthenticate'),
      log: daemon,
      stop: () => daemon.stop(),
    };
  }

  /** Everything hostapd and the devices printed, for a failing test. */
  logs(): string {
    return this.daemons.map((daemon) => daemon.text()).join('\n----\n');
  }

  async close(): Promise<void> {
    for (const daemon of this.daemons) await daemon.stop();
    this.removeNetwork();
  }

  private removeNetwork(): void {
    // Deleting a namespace deletes the links in it, and a veth pair goes with either end.
    for (const ns of this.namespaces) spawnSync('ip', ['netns', 'del', ns]);
    if (this.rootLinkMade) spawnSync('ip', ['link', 'del', this.rootLink], { stdio: 'ignore' });
  }
}
