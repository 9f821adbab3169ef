// The service and FreeRADIUS as the bench's scenarios run them: the production environment of the
// service, its CLI, the FreeRADIUS folder `hotspot radius-config` writes, and FreeRADIUS itself
// without debug output.
import mysql from 'mysql2/promise';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputTail, ROOT } from './processes.mjs';

/** The container image's heap options (Dockerfile); BENCH_SERVICE_NODE_OPTIONS overrides them (empty: Node's defaults). */
export const SERVICE_NODE_OPTIONS =
  process.env.BENCH_SERVICE_NODE_OPTIONS ?? '--max-old-space-size=160 --max-semi-space-size=8';

/**
 * The key sealing stored secrets for this run, given to the service (production refuses to start
 * without one) and to every CLI command, so that what one seals the other opens.
 */
export const BENCH_SECRETS_KEY = randomBytes(32).toString('hex');

/** The service's environment as built for production, without rate limits, logging warnings only; `extra` on top. */
export function serviceEnv({ databaseUrl, port, token, ...extra }) {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
    WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: token,
    NODE_ENV: 'production',
    SECRETS_KEY: BENCH_SECRETS_KEY,
    NODE_OPTIONS: SERVICE_NODE_OPTIONS,
    ...extra,
  };
}

/** A mysql2 connection (promise API) to `url`; the service's `mariadb:` scheme is mysql2's `mysql:`. */
export function connectMysql(url, options = {}) {
  return mysql.createConnection({ uri: url.replace(/^mariadb:/, 'mysql:'), ...options });
}

/** A database on the server of `serverUrl`, as a URL. */
export function databaseUrlOf(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The service's CLI on the database at `databaseUrl`; its stdout. */
export function cli(databaseUrl, argv) {
  const run = spawnSync(process.execPath, ['dist/src/cli/main.js', ...argv], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', SECRETS_KEY: BENCH_SECRETS_KEY },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`hotspot ${argv.slice(0, 2).join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

/** A token with the radius permission, made with the CLI as an operator would. */
export function radiusToken(databaseUrl, name) {
  return cli(databaseUrl, ['token', 'create', '--name', name, '--permissions', 'radius']).trim().split('\n').at(-1);
}

/**
 * The MariaDB account FreeRADIUS records Interim-Updates with, made as the docs say (CREATE USER, then
 * what `hotspot radius-sql-grants` prints, run by `admin`), at both names a connection from 127.0.0.1
 * may have. Its URL for `radius-config --accounting-db-url`, and `drop()`.
 */
export async function accountingAccount(admin, databaseUrl) {
  const user = `hs_radius_${randomBytes(3).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const hosts = ['127.0.0.1', 'localhost'];
  for (const host of hosts) {
    await admin.query(`CREATE USER '${user}'@'${host}' IDENTIFIED BY '${password}'`);
    const grants = cli(databaseUrl, ['radius-sql-grants', '--user', user, '--host', host]);
    for (const grant of grants.split(';\n').filter((line) => line.trim() !== '')) await admin.query(grant);
  }
  const url = new URL(databaseUrl);
  url.protocol = 'mysql:';
  url.username = user;
  url.password = password;
  return {
    url: url.toString(),
    drop: async () => {
      for (const host of hosts) await admin.query(`DROP USER IF EXISTS '${user}'@'${host}'`);
    },
  };
}

/**
 * Writes into `out` the FreeRADIUS folder `hotspot radius-config` generates for the service at
 * `servicePort`; with `accountingDbUrl`, FreeRADIUS records the common Interim-Update itself.
 */
export function generateRadiusConfig(
  databaseUrl,
  { out, servicePort, token, authPort, acctPort, listenAddress, accountingDbUrl },
) {
  cli(databaseUrl, [
    'radius-config',
    '--out',
    out,
    '--api-url',
    `http://127.0.0.1:${servicePort}`,
    '--token',
    token,
    '--auth-port',
    String(authPort),
    '--acct-port',
    String(acctPort),
    '--listen-address',
    listenAddress,
    ...(accountingDbUrl === undefined ? [] : ['--accounting-db-url', accountingDbUrl]),
  ]);
}

export function freeRadiusWithRest() {
  return (
    spawnSync('freeradius', ['-v'], { stdio: 'ignore' }).status === 0 && existsSync('/usr/lib/freeradius/rlm_rest.so')
  );
}

/**
 * `freeradius -f -d DIR`: foreground, no debug output (-X is slow and prints secrets), logging to
 * DIR/log/radius.log. Resolves once `ready()` resolves true (polled, at most 30 s). `stop()` sends
 * SIGTERM and, after 5 s, SIGKILL: a FreeRADIUS with a backlog of requests may take long to end.
 */
export async function startFreeRadius(name, dir, ready) {
  const child = spawn('freeradius', ['-f', '-d', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TZ: 'UTC' },
  });
  const output = outputTail(child);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const logPath = join(dir, 'log', 'radius.log');
  const logTail = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-3000) : '');
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`FreeRADIUS ${name} exited (${child.exitCode}):\n${output()}${logTail()}`);
    if (await ready()) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`FreeRADIUS ${name} did not get ready:\n${output()}${logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { pid: child.pid, stop, logPath };
}

/** A ready() for startFreeRadius: its log says it is ready to process requests. */
export function loggedReady(dir) {
  const logPath = join(dir, 'log', 'radius.log');
  return async () => existsSync(logPath) && readFileSync(logPath, 'utf8').includes('Ready to process requests');
}
