import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  renderFreeRadiusConfig,
  writeFreeRadiusConfig,
  type FreeRadiusConfigInput,
} from '../../src/radius-config/freeradius-config.js';

/**
 * A real FreeRADIUS (`freeradius -X`) on 127.0.0.1 for e2e tests, configured by the same generator
 * as `hotspot radius-config`, and radclient/radtest to talk to it. -X prints passwords, secrets and
 * the API token: its output goes to a file in the temporary folder and is shown (masked) only when
 * a test fails, through `explainFailures`.
 */

const READY_LINE = 'Ready to process requests';
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5000;
const CLIENT_TIMEOUT_MS = 20_000;

export function freeRadiusInstalled(): boolean {
  return (
    spawnSync('freeradius', ['-v'], { stdio: 'ignore' }).status === 0 && existsSync('/usr/lib/freeradius/rlm_rest.so')
  );
}

const MISSING =
  'FreeRADIUS 3.2 with rlm_rest and radclient is needed: apt-get install freeradius freeradius-rest freeradius-utils (.ci/run does it)';

/** `count` distinct free UDP ports on 127.0.0.1 (bound, read, released). */
export async function freeUdpPorts(count: number): Promise<number[]> {
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createSocket>>((done, fail) => {
          const socket = createSocket('udp4');
          socket.once('error', fail);
          socket.bind(0, '127.0.0.1', () => done(socket));
        }),
    ),
  );
  const ports = sockets.map((socket) => socket.address().port);
  await Promise.all(sockets.map((socket) => new Promise<void>((done) => socket.close(() => done()))));
  return ports;
}

/** Masks what -X prints in clear: passwords, secrets and the bearer token. */
export function maskSecrets(log: string): string {
  return log
    .split('\n')
    .map((line) =>
      /(User-Password|Cleartext-Password|CHAP-Password|secret\s*=|Authorization|REST-HTTP-Header)/i.test(line)
        ? line.replace(
            /(User-Password|Cleartext-Password|CHAP-Password|secret|Authorization|REST-HTTP-Header)(.*)$/i,
            '$1 <masked>',
          )
        : line,
    )
    .join('\n');
}

export interface RunningFreeRadius {
  dir: string;
  authPort: number;
  acctPort: number;
  logPath: string;
  /** The -X output so far, masked. */
  maskedLog(): string;
  /** Runs `check`; when it throws, writes the masked -X output to stderr before rethrowing. */
  explainFailures<T>(check: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** Starts `freeradius -X -d dir` on a folder written before (ports as in its configuration) and waits until it is ready. */
export async function runFreeRadius(
  dir: string,
  ports: { authPort: number; acctPort: number },
  options: { threaded?: boolean } = {},
): Promise<RunningFreeRadius> {
  if (!freeRadiusInstalled()) throw new Error(MISSING);
  const logPath = join(dir, 'log', 'debug-output.log');
  const fd = openSync(logPath, 'w', 0o600);
  // -X runs one packet at a time, reading the next only when done; `threaded` keeps the debug output
  // but the thread pool too, so that packets queue inside FreeRADIUS as in production.
  const flags = options.threaded ? ['-f', '-xx', '-l', 'stdout'] : ['-X'];
  const child: ChildProcess = spawn('freeradius', [...flags, '-d', dir], {
    stdio: ['ignore', fd, fd],
    env: { ...process.env, TZ: 'UTC' },
  });
  closeSync(fd);
  let exited = false;
  child.once('exit', () => (exited = true));
  const maskedLog = () => (existsSync(logPath) ? maskSecrets(readFileSync(logPath, 'utf8')) : '');

  const stop = async (): Promise<void> => {
    if (exited) return;
    const gone = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await gone;
    clearTimeout(timer);
  };

  // Bounded wait for the ready line (or an early exit: a configuration error).
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!readFileSync(logPath, 'utf8').includes(READY_LINE)) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`FreeRADIUS did not start (${exited ? 'it exited' : 'timed out'}):\n${maskedLog().slice(-4000)}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }

  return {
    dir,
    ...ports,
    logPath,
    maskedLog,
    async explainFailures<T>(check: () => Promise<T>): Promise<T> {
      try {
        return await check();
      } catch (error) {
        process.stderr.write(`FreeRADIUS -X output (masked):\n${maskedLog().slice(-20_000)}\n`);
        throw error;
      }
    },
    stop,
  };
}

export interface StartedFreeRadius extends RunningFreeRadius {
  /** Stops the server and removes its temporary folder. */
  close(): Promise<void>;
}

/** Generates a configuration into a new temporary folder (free ports, 127.0.0.1) and starts FreeRADIUS on it. */
export async function startFreeRadius(
  input: Omit<FreeRadiusConfigInput, 'authPort' | 'acctPort' | 'listenAddress' | 'confDir'>,
): Promise<StartedFreeRadius> {
  const dir = join(mkdtempSync(join(tmpdir(), 'hotspot-freeradius-')), 'raddb');
  const [authPort, acctPort] = await freeUdpPorts(2);
  const files = renderFreeRadiusConfig({ ...input, authPort, acctPort, listenAddress: '127.0.0.1', confDir: dir });
  await writeFreeRadiusConfig(dir, files);
  const server = await runFreeRadius(dir, { authPort, acctPort });
  return {
    ...server,
    async close() {
      await server.stop();
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
}

/** A reply as radclient printed it: the packet type and its attributes (values as printed, quotes removed). */
export interface RadiusReply {
  /** e.g. Access-Accept, Access-Reject, Accounting-Response; null when no reply came. */
  type: string | null;
  attributes: Record<string, string[]>;
}

/** Parses radclient -x output: the attributes after the last "Received …" line. */
export function parseRadclientOutput(output: string): RadiusReply {
  const lines = output.split('\n');
  const at = lines.map((line) => /^Received (\S+) /.exec(line)).findLastIndex((match) => match !== null);
  if (at === -1) return { type: null, attributes: {} };
  const type = /^Received (\S+) /.exec(lines[at])![1];
  const attributes: Record<string, string[]> = {};
  for (const line of lines.slice(at + 1)) {
    const match = /^\s+([A-Za-z0-9-]+) = (.*)$/.exec(line);
    if (match === null) break;
    const value = match[2].replace(/^"(.*)"$/, '$1');
    (attributes[match[1]] ??= []).push(value);
  }
  return { type, attributes };
}

function runTool(command: string, args: string[], stdin: string | null): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLIENT_TIMEOUT_MS);
    child.once('error', fail);
    child.once('close', () => {
      clearTimeout(timer);
      done(output);
    });
    if (stdin !== null) child.stdin!.end(stdin);
  });
}

/**
 * Sends one packet with radclient (`auth`, `acct`, `status`…) to 127.0.0.1:port and returns the reply.
 * Attribute values are written as radclient reads them (strings are quoted here).
 */
export async function radclient(
  port: number,
  kind: 'auth' | 'acct',
  secret: string,
  attributes: Record<string, string | number>,
  waitSeconds?: number,
  tries?: number,
): Promise<RadiusReply> {
  const lines = Object.entries(attributes).map(
    ([name, value]) => `${name} = ${typeof value === 'number' ? value : JSON.stringify(value)}`,
  );
  // -t: seconds to wait for a reply; -r: tries, each a retransmission of the same packet as a NAS
  // makes. Without a wait given the test expects an answer: 4 s, then one retransmission (a login the
  // service could not answer in time under load gets none, and a NAS would retransmit it). With a
  // wait given, one try unless told otherwise: the test may be asserting that no answer comes.
  const wait = waitSeconds ?? 4;
  const attempts = tries ?? (waitSeconds === undefined ? 2 : 1);
  const output = await runTool(
    'radclient',
    ['-x', '-r', String(attempts), '-t', String(wait), `127.0.0.1:${port}`, kind, secret],
    `${lines.join('\n')}\n`,
  );
  return parseRadclientOutput(output);
}

/**
 * Sends many packets with one radclient, `parallel` at a time, each tried once (2 s), and returns how
 * many were answered and how many were lost (its -s summary).
 */
export async function radclientMany(
  port: number,
  kind: 'auth' | 'acct',
  secret: string,
  packets: Array<Record<string, string | number>>,
  parallel: number,
): Promise<{ answered: number; lost: number }> {
  const text = packets
    .map((attributes) =>
      Object.entries(attributes)
        .map(([name, value]) => `${name} = ${typeof value === 'number' ? value : JSON.stringify(value)}`)
        .join('\n'),
    )
    .join('\n\n');
  const file = join(mkdtempSync(join(tmpdir(), 'hotspot-radclient-')), 'packets');
  writeFileSync(file, `${text}\n`);
  try {
    const output = await runTool(
      'radclient',
      ['-s', '-r', '1', '-t', '2', '-p', String(parallel), '-f', file, `127.0.0.1:${port}`, kind, secret],
      null,
    );
    const count = (label: string) => Number(new RegExp(`${label}\\s*:\\s*(\\d+)`).exec(output)?.[1] ?? NaN);
    return { answered: count('Passed filter'), lost: count('Lost') };
  } finally {
    rmSync(dirname(file), { recursive: true, force: true });
  }
}

/**
 * radclient for one Access-Request read from a file, so that nothing remains to be written to it
 * once it is spawned: the caller may block its own event loop at once while the packet goes out.
 * One try, waiting `waitSeconds` for the answer.
 */
export function radclientFromFile(
  port: number,
  secret: string,
  attributes: Record<string, string>,
  dir: string,
  waitSeconds = 2,
): Promise<RadiusReply> {
  const file = join(dir, `request-${process.hrtime.bigint()}.txt`);
  writeFileSync(
    file,
    Object.entries(attributes)
      .map(([name, value]) => `${name} = ${JSON.stringify(value)}\n`)
      .join(''),
    { mode: 0o600 },
  );
  const output = runTool(
    'radclient',
    ['-x', '-r', '1', '-t', String(waitSeconds), '-f', file, `127.0.0.1:${port}`, 'auth', secret],
    null,
  );
  return output.then(parseRadclientOutput);
}

/** radtest (PAP) for `user`/`password` against 127.0.0.1:port. */
export async function radtest(port: number, secret: string, user: string, password: string): Promise<RadiusReply> {
  const output = await runTool('radtest', ['-x', '-t', 'pap', user, password, `127.0.0.1:${port}`, '0', secret], null);
  return parseRadclientOutput(output);
}
