import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian's Kannel for e2e tests: bearerbox and smsbox on free loopback ports in a folder of their
 * own, with kannel-extras' fakesmsc as the SMSC. What the "operator" received is read from fakesmsc's
 * output. Bounded waits everywhere; stop() kills the three (bearerbox last) and removes the folder.
 *
 *   const kannel = await startKannel();
 *   // SMS_GATEWAY=kannel SMS_GATEWAY_URL=kannel.sendsmsUrl
 *   kannel.received()  // [{ from, to, text }]
 *   await kannel.stop();
 */

const FAKESMSC = '/usr/lib/kannel/test/fakesmsc';
const READY_TIMEOUT_MS = 20_000;

export function kannelInstalled(): boolean {
  return existsSync('/usr/sbin/bearerbox') && existsSync('/usr/sbin/smsbox') && existsSync(FAKESMSC);
}

export const KANNEL_MISSING = 'Kannel is needed: apt-get install kannel kannel-extras (.ci/run does it)';

/** One message as the fake SMSC received it. */
export interface SmscMessage {
  from: string;
  to: string;
  text: string;
}

export interface KannelOptions {
  /** The sendsms-user's credentials (defaults: hotspot / a random password). */
  username?: string;
  password?: string;
  /** Kannel's default-sender: without one and without `from=` every send is refused. */
  defaultSender?: string;
}

export interface Kannel {
  /** smsbox's sendsms URL with the user's username and password: SMS_GATEWAY_URL. */
  sendsmsUrl: string;
  /** Every message fakesmsc received so far, in order. */
  received(): SmscMessage[];
  /** The first message matching `predicate`, waiting for it up to `timeoutMs`. */
  waitFor(predicate: (message: SmscMessage) => boolean, timeoutMs?: number): Promise<SmscMessage>;
  stop(): Promise<void>;
}

/** `count` distinct free TCP ports on 127.0.0.1. */
async function freeTcpPorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((done, fail) => {
          const server = createServer();
          server.once('error', fail);
          server.listen(0, '127.0.0.1', () => done(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise<void>((done) => server.close(() => done()))));
  return ports;
}

/** A line of fakesmsc's output: a whole message, or one part of a concatenated one. */
export type FakeSmscLine =
  | { kind: 'message'; message: SmscMessage }
  | { kind: 'part'; from: string; to: string; reference: number; total: number; sequence: number; data: Buffer };

/**
 * fakesmsc prints `Got message N: <from to text words…>` for GSM text, `<from to ucs-2 %00K%00o…>` for
 * UCS-2 (coding=2), and `<from to udh %05%00%03RTS data …>` for each part of a concatenated message
 * (reference R, total T, sequence S), its data URL-encoded (UTF-16BE when the text needed UCS-2).
 */
export function parseFakeSmscLine(line: string): FakeSmscLine | null {
  const match = /Got message \d+: <(\S+) (\S+) (text|ucs-2|udh) (.*)>\s*$/.exec(line);
  if (match === null) return null;
  const [, from, to, kind, rest] = match;
  if (kind === 'text') return { kind: 'message', message: { from, to, text: rest } };
  if (kind === 'ucs-2') return { kind: 'message', message: { from, to, text: textOf(urlBytes(rest)) } };
  const [udh, , data] = rest.split(' ');
  const header = urlBytes(udh);
  return {
    kind: 'part',
    from,
    to,
    reference: header[3],
    total: header[4],
    sequence: header[5],
    data: urlBytes(data ?? ''),
  };
}

function urlBytes(encoded: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i += 1) {
    if (encoded[i] === '%') {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(encoded[i] === '+' ? 0x20 : encoded.charCodeAt(i));
  }
  return Buffer.from(bytes);
}

/** UTF-16BE when the bytes hold zero bytes (UCS-2), else the GSM text Kannel handed over as Latin-1. */
function textOf(bytes: Buffer): string {
  if (!bytes.includes(0)) return bytes.toString('latin1');
  const utf16 = Buffer.from(bytes);
  utf16.swap16();
  return utf16.toString('utf16le');
}

function configOf(
  ports: { admin: number; smsbox: number; smsc: number; sendsms: number },
  folder: string,
  user: {
    username: string;
    password: string;
    defaultSender: string;
  },
): string {
  return `group = core
admin-port = ${ports.admin}
admin-password = ${user.password}-admin
smsbox-port = ${ports.smsbox}
box-allow-ip = "127.0.0.1"
log-file = "${join(folder, 'bearerbox.log')}"
log-level = 1

group = smsc
smsc = fake
smsc-id = fake
port = ${ports.smsc}
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${ports.smsbox}
sendsms-port = ${ports.sendsms}
sendsms-interface = 127.0.0.1
log-file = "${join(folder, 'smsbox.log')}"
log-level = 1

group = sendsms-user
username = ${user.username}
password = ${user.password}
max-messages = 3
concatenation = true
default-sender = ${user.defaultSender}
`;
}

export async function startKannel(options: KannelOptions = {}): Promise<Kannel> {
  const folder = mkdtempSync(join(tmpdir(), 'kannel-'));
  const user = {
    username: options.username ?? 'hotspot',
    password: options.password ?? `pw${Math.random().toString(36).slice(2, 12)}`,
    defaultSender: options.defaultSender ?? 'HOTSPOT',
  };
  const [admin, smsbox, smsc, sendsms] = await freeTcpPorts(4);
  const conf = join(folder, 'kannel.conf');
  writeFileSync(conf, configOf({ admin, smsbox, smsc, sendsms }, folder, user), { mode: 0o600 });
  const children: ChildProcess[] = [];
  const messages: SmscMessage[] = [];
  const output: string[] = [];
  const spawnBox = (command: string, args: string[]) => {
    const child = spawn(command, args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    children.push(child);
    return child;
  };
  const sendsmsUrl =
    `http://127.0.0.1:${sendsms}/cgi-bin/sendsms?username=${encodeURIComponent(user.username)}` +
    `&password=${encodeURIComponent(user.password)}`;
  const kannel: Kannel = {
    sendsmsUrl,
    received: () => [...messages],
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find(predicate);
        if (found !== undefined) return found;
        await sleep(50);
      }
      throw new Error(
        `fakesmsc received no such message within ${timeoutMs} ms; received: ${JSON.stringify(messages)}`,
      );
    },
    async stop() {
      // bearerbox last: the boxes and fakesmsc hang up on it.
      for (const child of [...children].reverse()) await stopChild(child);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    spawnBox('/usr/sbin/bearerbox', [conf]);
    await waitForPort(smsc, 'bearerbox', () => logOf(folder, output));
    spawnBox('/usr/sbin/smsbox', [conf]);
    await waitForPort(sendsms, 'smsbox', () => logOf(folder, output));
    const fake = spawnBox(FAKESMSC, ['-H', '127.0.0.1', '-r', String(smsc), '-i', '1', '-m', '0', '100 200 text none']);
    let pending = '';
    const parts = new Map<string, Buffer[]>();
    const onOutput = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const parsed = parseFakeSmscLine(line);
        if (parsed === null) continue;
        if (parsed.kind === 'message') {
          messages.push(parsed.message);
          continue;
        }
        // A concatenated message is one message once all its parts are in.
        const key = `${parsed.from} ${parsed.to} ${parsed.reference}`;
        const got = parts.get(key) ?? [];
        got[parsed.sequence - 1] = parsed.data;
        parts.set(key, got);
        if (got.filter((part) => part !== undefined).length === parsed.total) {
          parts.delete(key);
          messages.push({ from: parsed.from, to: parsed.to, text: textOf(Buffer.concat(got)) });
        }
      }
    };
    fake.stdout?.on('data', onOutput);
    fake.stderr?.on('data', onOutput);
    await waitUntilOnline(admin, `${user.password}-admin`, () => logOf(folder, output));
  } catch (error) {
    await kannel.stop();
    throw error;
  }
  return kannel;
}

function logOf(folder: string, output: string[]): string {
  const read = (name: string) => (existsSync(join(folder, name)) ? readFileSync(join(folder, name), 'utf8') : '');
  return [output.join(''), read('bearerbox.log'), read('smsbox.log')].join('\n').split('\n').slice(-40).join('\n');
}

async function waitForPort(port: number, what: string, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((done) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`${what} did not listen on ${port} within ${READY_TIMEOUT_MS} ms:\n${log()}`);
}

/** Ready once bearerbox's status page shows the fake SMSC online: before that a send is only queued. */
async function waitUntilOnline(adminPort: number, password: string, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(
        `http://127.0.0.1:${adminPort}/status.txt?password=${encodeURIComponent(password)}`,
        {
          signal: AbortSignal.timeout(1000),
        },
      );
      last = await response.text();
      if (/fake\[fake\][^\n]*online/.test(last) || /\(online/.test(last)) return;
    } catch (error) {
      last = String(error);
    }
    await sleep(100);
  }
  throw new Error(`the fake SMSC was not online within ${READY_TIMEOUT_MS} ms (${last}):\n${log()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
