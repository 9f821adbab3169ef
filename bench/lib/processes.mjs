// What the bench's scenarios share: free ports, starting a process and waiting for its health
// endpoint, and reading a process's CPU time and resident memory from /proc.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

export const ROOT = new URL('../..', import.meta.url).pathname;

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A child process serving HTTP on `port`; resolves once `readyPath` answers (any status but a refused connection). */
/** `count` distinct free UDP ports on `address`, all bound at once (so no two are the same), then released. */
export async function freeUdpPorts(count, address = '127.0.0.1') {
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const socket = createSocket('udp4');
          socket.once('error', reject);
          socket.bind(0, address, () => resolve(socket));
        }),
    ),
  );
  const ports = sockets.map((socket) => socket.address().port);
  await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.close(resolve))));
  return ports;
}

/** The last 4,000 characters a child wrote to stdout and stderr, as a function of now. */
export function outputTail(child) {
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return () => output;
}

export async function startProcess(name, argv, port, env = {}) {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = outputTail(child);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    name,
    pid: child.pid,
    port,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('VmRSS:'));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc/PID/stat's CPU times. */
export const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time (user and system) a process has used so far, in ms; null when it cannot be read. */
export function cpuMs(pid) {
  if (pid === null) return null;
  try {
    // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** The local MariaDB or MySQL server's process, whose CPU time per request the table shows; null when none runs here. */
export function databaseServerPid() {
  const found = spawnSync('pidof', ['mariadbd', 'mysqld'], { encoding: 'utf8' }).stdout.trim().split(/\s+/)[0];
  return found ? Number(found) : null;
}

/** Samples the service's RSS every 250 ms; `peak` is the largest seen since start. */
export function rssSampler(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid) ?? 0);
  }, 250);
  return {
    get peak() {
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
