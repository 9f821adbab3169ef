// npm run bench [-- --scenario chain [--rest-accounting] [--skip-steps] [--accounting-only] | --scenario rlm-sql | --scenario classes] [-- --smoke | --soak | --db mysql|sqlite|both | --duration S | --rounds N | --warmup S | --no-build]
// See bench/README.md.
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signInToConsole } from './lib/console-session.mjs';
import { cpuMs, databaseServerPid, freePort, log, ROOT, rssMb, rssSampler, startProcess } from './lib/processes.mjs';
import { openLoop, percentiles } from './lib/radius-load.mjs';
import { cli, connectMysql, radiusToken, serviceEnv } from './lib/service.mjs';
import { BENCH_PASSWORD, HOT_VENUE, seedMysql, seedSqlite } from './seed.mjs';
import { checkTargets, formatTargets } from './targets.mjs';
import { consoleWorkloads, metricsWorkloads, radiusWorkloads, workloads } from './workloads.mjs';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    db: { type: 'string', default: 'both' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
    'rest-accounting': { type: 'boolean', default: false },
    'skip-steps': { type: 'boolean', default: false },
    'accounting-only': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    'pool-size': { type: 'string', default: '20' },
    'mysql-url': { type: 'string', default: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306' },
  },
});

const smoke = args.smoke;
const config = {
  usersMysql: smoke ? 1000 : 1_000_000,
  usersSqlite: smoke ? 1000 : 100_000,
  // Seconds per run; each workload runs `rounds` times on each side, alternating service and yardstick.
  duration: Number(args.duration ?? (smoke ? 1 : 5)),
  rounds: Number(args.rounds ?? (smoke ? 1 : 2)),
  // Seconds of unmeasured load on each side before a workload's rounds, so that both are measured warm (JIT, pools, caches).
  warmup: Number(args.warmup ?? (smoke ? 0 : 2)),
  connections: Number(args.connections),
  // MySQL connections of the service (DB_POOL_SIZE; 20 is its default) and of the bare handler alike.
  poolSize: Number(args['pool-size']),
  soakSeconds: 60,
};
// Fixed, so that --reuse finds the token it stored; the database is a throwaway one.
const token = 'hsp_bench_0123456789abcdefghijklmnopqrstuvwxyz';
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Connections of an open-loop run: enough that requests start on the schedule whatever the answers
 * do while the server keeps up, few enough that one it cannot keep up with is not flooded.
 */
const OPEN_LOOP_CONNECTIONS = 128;
/** An open-loop request whose socket stays silent this long counts as an error. */
const OPEN_LOOP_TIMEOUT_MS = 10_000;

/**
 * One run of `workload` against `server` ({ port, pid }) for `seconds`; with the CPU time that
 * server and the database server (`databasePid`, null for none) used meanwhile. `rate`: requests
 * started per second on a schedule (open loop); without it, closed loop at --connections.
 */
async function runOnce(workload, server, seconds, databasePid = null, rate = null) {
  const cpuBefore = [cpuMs(server.pid), cpuMs(databasePid)];
  const result =
    rate === null ? await closedLoopRun(workload, server, seconds) : await openLoopRun(workload, server, seconds, rate);
  const unexpected = Object.entries(result.statuses)
    .filter(([status]) => !workload.expected.includes(Number(status)))
    .reduce((sum, [, count]) => sum + count, 0);
  const cpuUsed = (pid, before) => (before === null ? null : cpuMs(pid) - before);
  return {
    ...result,
    cpuMs: cpuUsed(server.pid, cpuBefore[0]),
    databaseCpuMs: cpuUsed(databasePid, cpuBefore[1]),
    unexpected,
  };
}

/** The request `workload` makes next, as fetch and autocannon take it. */
function nextRequest(workload) {
  const next = workload.request();
  return {
    method: next.method,
    path: next.path,
    headers: {
      authorization: `Bearer ${next.token ?? token}`,
      ...(next.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...next.headers,
    },
    body: next.body === undefined ? undefined : JSON.stringify(next.body),
  };
}

/** `workload` with --connections (or its own) requests always in flight, by autocannon. */
async function closedLoopRun(workload, server, seconds) {
  const statuses = {};
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: workload.connections ?? config.connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => ({ ...request, ...nextRequest(workload) }),
        onResponse: (status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses,
  };
}

/**
 * `workload` at `rate` requests a second for `seconds`, each started when it is due whatever the
 * earlier answers do (openLoop, a 10 ms schedule), and its latency counted from when it was due; at
 * most OPEN_LOOP_CONNECTIONS in flight, the others waiting for a connection (their wait counted), so
 * a rate the server cannot carry shows as latency and a lower rate, not as a flood it is still
 * answering when the next run begins. (autocannon's `overallRate` is no open loop: each connection
 * sends its share of a second at once when the second begins, so requests come in bursts.)
 */
async function openLoopRun(workload, server, seconds, rate) {
  const agent = new Agent({ keepAlive: true, maxSockets: OPEN_LOOP_CONNECTIONS });
  const statuses = {};
  const samples = [];
  let errors = 0;
  const started = performance.now();
  await openLoop(rate, seconds, async (dueAt) => {
    try {
      const status = await send(agent, server.port, nextRequest(workload));
      statuses[status] = (statuses[status] ?? 0) + 1;
      samples.push(performance.now() - dueAt);
    } catch {
      errors += 1;
    }
  });
  agent.destroy();
  const elapsedSeconds = (performance.now() - started) / 1000;
  const { p50, p99 } = percentiles(samples);
  return {
    requests: samples.length,
    // Answers a second over the whole run, the wait for the last ones included: below the rate when it was not kept up.
    rps: Math.round((samples.length / Math.max(seconds, elapsedSeconds)) * 10) / 10,
    p50: p50 ?? 0,
    p99: p99 ?? 0,
    non2xx: Object.entries(statuses)
      .filter(([status]) => Number(status) >= 300)
      .reduce((sum, [, count]) => sum + count, 0),
    errors,
    statuses,
  };
}

/** One request through `agent`; resolves with its status once the answer is read whole. */
function send(agent, port, { method, path, headers, body }) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers, agent, timeout: OPEN_LOOP_TIMEOUT_MS },
      (response) => {
        response.on('error', reject);
        response.on('end', () => resolve(response.statusCode));
        response.resume();
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body);
  });
}

/** Merges rounds: req/s is the mean, latencies the mean of each round's percentile, counts summed. */
function merge(runs) {
  const mean = (key) => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
  const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
  const statuses = {};
  for (const run of runs)
    for (const [status, n] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const perRequest = (key) =>
    runs.some((run) => run[key] === null) ? null : Math.round((sum(key) * 1000) / Math.max(1, sum('requests')));
  return {
    requests: sum('requests'),
    cpuUsPerRequest: perRequest('cpuMs'),
    databaseCpuUsPerRequest: perRequest('databaseCpuMs'),
    rps: Math.round(mean('rps')),
    p50: Math.round(mean('p50') * 10) / 10,
    p99: Math.round(mean('p99') * 10) / 10,
    non2xx: sum('non2xx'),
    unexpected: sum('unexpected'),
    errors: sum('errors'),
    statuses,
  };
}

async function createMysqlDatabase() {
  const name = args.reuse ?? `hotspot_bench_${process.pid}`;
  if (args.reuse === undefined) {
    const admin = await connectMysql(args['mysql-url']);
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await admin.end();
  }
  const url = new URL(args['mysql-url']);
  url.pathname = `/${name}`;
  return {
    kind: 'mysql',
    url: url.toString(),
    users: config.usersMysql,
    async seed(passwordHash) {
      const connection = await connectMysql(url.toString());
      try {
        await seedMysql(connection, config.usersMysql, passwordHash);
      } finally {
        await connection.end();
      }
    },
    async drop() {
      if (args.keep || args.reuse !== undefined) {
        log(`kept the database ${name} (drop it with: DROP DATABASE \`${name}\`)`);
        return;
      }
      const connection = await connectMysql(args['mysql-url']);
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}

function createSqliteDatabase() {
  const folder = mkdtempSync(join(tmpdir(), 'hotspot-bench-'));
  const path = join(folder, 'bench.sqlite');
  return {
    kind: 'sqlite',
    url: `sqlite:${path}`,
    users: config.usersSqlite,
    async seed(passwordHash) {
      const db = new Database(path);
      try {
        seedSqlite(db, config.usersSqlite, passwordHash);
      } finally {
        db.close();
      }
    },
    async drop() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function mysqlReachable() {
  try {
    const connection = await connectMysql(args['mysql-url'], { connectTimeout: 2000 });
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The service as production runs it, but with admission shedding off: these workloads measure what a
 * request costs at saturation, and a saturated service would otherwise answer part of them 503 by
 * design (the chain and classes scenarios keep shedding on: overload is what they measure).
 */
function benchServiceEnv(database, port) {
  return serviceEnv({
    databaseUrl: database.url,
    port,
    token,
    DB_POOL_SIZE: String(config.poolSize),
    SHED_PAGES_DELAY_MS: '0',
    SHED_WRITES_DELAY_MS: '0',
    // The console workload measures its pages, not the enrolment of a second factor.
    OPERATORS_REQUIRE_2FA: 'false',
  });
}

/**
 * When the service has the RADIUS back end: a NAS for venue-0000 at 127.0.0.1 and a radius token,
 * through the CLI as an operator would. Null without it (its workloads are then left out).
 */
async function setUpRadius(database) {
  if (!existsSync(join(ROOT, 'dist/src/radius'))) return null;
  const nasName = 'bench-nas';
  if (args.reuse === undefined || !cli(database.url, ['nas', 'list']).includes(nasName)) {
    cli(database.url, [
      'nas',
      'add',
      '--venue',
      'venue-0000',
      '--name',
      nasName,
      '--ip',
      '127.0.0.0/8',
      '--secret',
      'bench-shared-secret-0123',
    ]);
  }
  // Sessions of its own for each run: on a reused database, an earlier run's were ended as stale
  // (RADIUS_STALE_AFTER_SECONDS), and each Interim-Update would then take the service's slow path.
  const sessionPrefix = `bench-${Date.now().toString(36)}`;
  return { nasName, nasIp: '127.0.0.1', token: radiusToken(database.url, `bench-radius-${Date.now()}`), sessionPrefix };
}

/**
 * When the service has the console: an operator of the 100,000-user venue (read permission) created
 * through the CLI, signed in through the console's forms as a browser would (its one-time password
 * changed first). Returns the session cookie, or null without a console.
 */
async function setUpConsole(database, service) {
  if (!existsSync(join(ROOT, 'dist/src/console/console.module.js'))) return null;
  const email = `bench-${Date.now().toString(36)}@bench.example`;
  const created = JSON.parse(
    cli(database.url, [
      'operator',
      'create',
      '--email',
      email,
      '--name',
      'Bench',
      '--permissions',
      'read',
      '--venues',
      HOT_VENUE,
      '--json',
    ]),
  );
  return signInToConsole(`http://127.0.0.1:${service.port}`, email, created.oneTimePassword);
}

async function startService(database) {
  const port = await freePort();
  // --cpu-prof: the profile is written to bench/results/ when the service exits.
  const profile = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir=bench/results'] : [];
  return startProcess('service', [...profile, 'dist/src/main.js'], port, benchServiceEnv(database, port));
}

/**
 * A second service on the same database with metrics on (METRICS_PORT), scraped every second as
 * Prometheus would (more often than its usual 15 s, so the cost shows); null when the build has none.
 */
async function startMetricsService(database) {
  if (!existsSync(join(ROOT, 'dist/src/metrics/metrics-server.js'))) return null;
  const port = await freePort();
  const metricsPort = await freePort();
  const env = { ...benchServiceEnv(database, port), METRICS_PORT: String(metricsPort) };
  const service = await startProcess('service+metrics', ['dist/src/main.js'], port, env);
  const scraper = setInterval(() => {
    fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      .then((response) => response.text())
      .catch(() => undefined);
  }, 1000);
  return {
    ...service,
    async stop() {
      clearInterval(scraper);
      await service.stop();
    },
  };
}

/** Requests of each workload sent to both the service and its bare yardstick, whose answers must agree. */
const ANSWERS_COMPARED = 5;

/**
 * Whether the bare yardstick answers `workload` as the service does: the same requests to both,
 * compared by status, the ids they return in order and the total; the requests that differ.
 */
async function differingAnswers(workload, service, yardstick) {
  const read = async (server, next) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${next.path}`, {
      method: next.method,
      headers: { authorization: `Bearer ${next.token ?? token}` },
    });
    const body = await response.json().catch(() => null);
    const ids = Array.isArray(body?.data) ? body.data.map((user) => user._id) : (body?.data?._id ?? null);
    return JSON.stringify([response.status, ids, body?.pagination?.total ?? null]);
  };
  const differing = [];
  for (let i = 0; i < ANSWERS_COMPARED; i++) {
    const next = workload.request();
    const [theirs, ours] = await Promise.all([read(yardstick, next), read(service, next)]);
    if (theirs !== ours) differing.push(`${next.method} ${next.path}: service ${ours}, bare ${theirs}`);
  }
  return differing;
}

/** Seeds `database`, then runs every workload on the service and its yardstick, alternating. */
async function benchDatabase(database) {
  let seedSeconds = 0;
  if (database.kind !== 'mysql' || args.reuse === undefined) {
    log(`${database.kind}: migrating`);
    const migrating = await startService(database);
    await migrating.stop();
    log(`${database.kind}: seeding ${database.users} users`);
    const seedStart = Date.now();
    await database.seed(await hash(BENCH_PASSWORD, ARGON2));
    seedSeconds = (Date.now() - seedStart) / 1000;
    log(`${database.kind}: seeded in ${seedSeconds.toFixed(1)} s`);
  }

  const radius = await setUpRadius(database);
  const service = await startService(database);
  const barePort = await freePort();
  const bare = await startProcess(
    'bare',
    ['bench/servers/bare.mjs', String(barePort), token, database.url, String(config.poolSize)],
    barePort,
  );
  const nestPort = await freePort();
  const nest = await startProcess('nest', ['bench/servers/nest-minimal.mjs', String(nestPort), token], nestPort);
  const metricsService = await startMetricsService(database);
  const rss = rssSampler(service.pid);
  const databasePid = database.kind === 'mysql' ? databaseServerPid() : null;
  const rows = [];
  try {
    const consoleSession = await setUpConsole(database, service);
    const all = [
      ...workloads(database.users),
      ...(radius === null ? [] : radiusWorkloads(radius)),
      ...(consoleSession === null ? [] : consoleWorkloads(consoleSession, database.users)),
      ...(metricsService === null ? [] : metricsWorkloads()),
    ];
    const chosen = all.filter((w) => args.only === undefined || args.only.split(',').includes(w.name));
    for (const workload of chosen) {
      const yardsticks = { bare, nest, plain: service };
      const yardstick = yardsticks[workload.yardstick] ?? null;
      // The metrics workloads measure the service with metrics on, against the plain one.
      const measured = workload.side === 'metrics' ? metricsService : service;
      if (config.warmup > 0) {
        await runOnce(workload, measured, config.warmup);
        if (yardstick !== null) await runOnce(workload, yardstick, config.warmup);
      }
      const differing = workload.yardstick === 'bare' ? await differingAnswers(workload, measured, yardstick) : [];
      const rssBefore = rssMb(measured.pid);
      const mine = [];
      const theirs = [];
      for (let round = 0; round < config.rounds; round++) {
        mine.push(await runOnce(workload, measured, config.duration, databasePid));
        if (yardstick !== null) theirs.push(await runOnce(workload, yardstick, config.duration, databasePid));
      }
      const row = {
        database: database.kind,
        workload: workload.name,
        title: workload.title,
        connections: workload.connections ?? config.connections,
        service: merge(mine),
        yardstick: yardstick === null ? null : { name: workload.yardstick, ...merge(theirs) },
        rssBeforeMb: rssBefore,
        rssAfterMb: rssMb(measured.pid),
        ...(workload.yardstick === 'bare' ? { answersDiffering: differing } : {}),
      };
      row.ratio = row.yardstick === null ? null : Math.round((row.service.rps / row.yardstick.rps) * 100) / 100;
      if (workload.openLoop && row.yardstick !== null) {
        row.openLoop = await compareOpenLoop(workload, measured, yardstick, row.yardstick.rps, databasePid);
      }
      rows.push(row);
      log(formatRow(row));
      if (row.openLoop) log(formatOpenLoop(row));
    }
    let soak = null;
    if (args.soak) soak = await runSoak(database, service);
    return { database: database.kind, users: database.users, seedSeconds, rssPeakMb: rss.peak, rows, soak };
  } finally {
    rss.stop();
    await Promise.all([service.stop(), bare.stop(), nest.stop(), metricsService?.stop()]);
  }
}

/** The read and write mix twice for soakSeconds each: RSS after each run, to see whether it keeps growing. */
async function runSoak(database, service) {
  const mix = workloads(database.users).filter((w) => ['list-small', 'get', 'create-guest', 'put'].includes(w.name));
  let turn = 0;
  const mixed = {
    name: 'soak',
    expected: [200, 201],
    request: () => mix[turn++ % mix.length].request(),
  };
  const samples = [];
  for (let run = 1; run <= 2; run++) {
    const result = await runOnce(mixed, service, config.soakSeconds);
    samples.push({
      run,
      rps: Math.round(result.rps),
      unexpected: result.unexpected,
      errors: result.errors,
      rssMb: rssMb(service.pid),
    });
    log(`${database.kind} soak run ${run}: ${Math.round(result.rps)} req/s, RSS ${rssMb(service.pid)} MB`);
  }
  return samples;
}

/**
 * The workload at a fixed offered rate, half the yardstick's closed-loop maximum, on the service and
 * on the yardstick alternately: the latency each adds at a load both carry, without the queueing of
 * a saturated closed loop (where p99 ≈ connections ÷ throughput for any handler).
 */
async function compareOpenLoop(workload, service, yardstick, yardstickMaxRps, databasePid) {
  const rate = Math.max(1, Math.floor(yardstickMaxRps / 2));
  const mine = [];
  const theirs = [];
  for (let round = 0; round < config.rounds; round++) {
    mine.push(await runOnce(workload, service, config.duration, databasePid, rate));
    theirs.push(await runOnce(workload, yardstick, config.duration, databasePid, rate));
  }
  const ours = merge(mine);
  const other = merge(theirs);
  const side = (run) => ({ rps: run.rps, p50: run.p50, p99: run.p99, errors: run.errors, unexpected: run.unexpected });
  return {
    rate,
    service: side(ours),
    yardstick: side(other),
    p99Ratio: other.p99 > 0 ? Math.round((ours.p99 / other.p99) * 100) / 100 : null,
    // Below 95 % of the offered rate a side is saturated: its latency is queueing, not the handler's.
    sustained: ours.rps >= rate * 0.95 && other.rps >= rate * 0.95,
  };
}

function formatOpenLoop(row) {
  const { rate, service, yardstick, p99Ratio, sustained } = row.openLoop;
  return `${row.database.padEnd(6)} ${`  at ${rate} req/s offered (open loop)`.padEnd(48)} ${String(service.rps).padStart(6)} req/s p50 ${String(service.p50).padStart(6)} p99 ${String(service.p99).padStart(6)} ms  errors ${service.errors}  ${row.yardstick.name} ${yardstick.rps} req/s p50 ${yardstick.p50} p99 ${yardstick.p99} ms  p99 ratio ${p99Ratio}${sustained ? '' : '  (rate not sustained)'}`;
}

function formatRow(row) {
  const s = row.service;
  const y = row.yardstick;
  return `${row.database.padEnd(6)} ${row.title.padEnd(48)} ${String(s.rps).padStart(6)} req/s p50 ${String(s.p50).padStart(6)} p99 ${String(s.p99).padStart(6)} ms  non2xx ${s.non2xx} unexpected ${s.unexpected} errors ${s.errors}  CPU ${cpuCell(s)} µs/req  ${y === null ? '' : `${y.name} ${y.rps} req/s CPU ${cpuCell(y)} µs/req ratio ${row.ratio}`}  RSS ${row.rssBeforeMb}→${row.rssAfterMb} MB`;
}

/** CPU time per request of a side's own process and of the database server ("–" where unknown). */
function cpuCell(side) {
  return `${side.cpuUsPerRequest ?? '–'} / ${side.databaseCpuUsPerRequest ?? '–'}`;
}

function markdownTable(results) {
  const lines = [
    '| db | workload | req/s | p50 ms | p99 ms | non-2xx | unexpected | errors | CPU µs/req (process / DB server) | yardstick req/s | yardstick CPU µs/req | ratio | RSS MB before → after |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    for (const row of result.rows) {
      const s = row.service;
      const y = row.yardstick;
      lines.push(
        `| ${row.database} | ${row.title} | ${s.rps} | ${s.p50} | ${s.p99} | ${s.non2xx} | ${s.unexpected} | ${s.errors} | ${cpuCell(s)} | ${
          y === null ? '–' : `${y.rps} (${y.name})`
        } | ${y === null ? '–' : cpuCell(y)} | ${row.ratio ?? '–'} | ${row.rssBeforeMb} → ${row.rssAfterMb} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The scenarios beside the workloads (`--scenario NAME`): each a module of bench/scenarios/ with a default export. */
const SCENARIOS = ['chain', 'rlm-sql', 'classes'];

async function main() {
  if (args.scenario !== undefined && !SCENARIOS.includes(args.scenario)) {
    throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}`);
  }
  if (!args['no-build']) {
    log('building (npm run build)');
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (args.scenario !== undefined) {
    const { default: runScenario } = await import(`./scenarios/${args.scenario}.mjs`);
    await runScenario({
      smoke,
      mysqlUrl: args['mysql-url'],
      keep: args.keep,
      reuse: args.reuse,
      duration: args.duration === undefined ? undefined : Number(args.duration),
      restAccounting: args['rest-accounting'],
      skipSteps: args['skip-steps'],
      accountingOnly: args['accounting-only'],
    });
    return;
  }
  const kinds = args.db === 'both' ? ['mysql', 'sqlite'] : [args.db];
  const databases = [];
  for (const kind of kinds) {
    if (kind === 'mysql' && !(await mysqlReachable())) {
      if (args.db === 'mysql') throw new Error(`MariaDB is not reachable at ${args['mysql-url']}`);
      log(`MariaDB not reachable at ${args['mysql-url']}: SQLite only`);
      continue;
    }
    databases.push(kind);
  }
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    node: process.version,
    loadBefore: loadavg().map((n) => Math.round(n * 100) / 100),
  };
  const results = [];
  for (const kind of databases) {
    const database = kind === 'mysql' ? await createMysqlDatabase() : createSqliteDatabase();
    try {
      results.push(await benchDatabase(database));
    } finally {
      await database.drop();
    }
  }
  machine.loadAfter = loadavg().map((n) => Math.round(n * 100) / 100);
  // The targets are about venue-chain scale: a smoke run has nothing to hold to them.
  const targets = smoke ? null : checkTargets(results);
  const report = {
    date: new Date().toISOString(),
    mode: smoke ? 'smoke' : args.soak ? 'soak' : 'full',
    machine,
    config,
    results,
    targets,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', smoke ? 'smoke.json' : 'latest.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\n${markdownTable(results)}\n\n`);
  process.stdout.write(
    `machine: ${machine.cpus} cores (${machine.cpuModel}), ${machine.node}, load ${machine.loadBefore.join(' ')} → ${machine.loadAfter.join(' ')}\n`,
  );
  for (const result of results) {
    process.stdout.write(
      `${result.database}: ${result.users} users seeded in ${result.seedSeconds.toFixed(1)} s, service RSS peak ${result.rssPeakMb} MB\n`,
    );
    for (const run of result.soak ?? []) {
      process.stdout.write(
        `${result.database}: soak run ${run.run} (${config.soakSeconds} s): ${run.rps} req/s, RSS after ${run.rssMb} MB\n`,
      );
    }
  }
  if (targets !== null) process.stdout.write(`${formatTargets(targets)}\n`);
  process.stdout.write(`written: ${file}\n`);

  // Every side of every workload ran, with only the statuses it expects and no socket errors or timeouts.
  const failures = results.flatMap((result) =>
    result.rows.flatMap((row) =>
      [
        ['service', row.service],
        [row.yardstick?.name, row.yardstick],
      ]
        .filter(([, side]) => side != null && (side.requests === 0 || side.unexpected > 0 || side.errors > 0))
        .map(
          ([name, side]) =>
            `${row.database} ${row.workload} (${name}): ${side.requests} requests, ${side.unexpected} unexpected statuses ${JSON.stringify(side.statuses)}, ${side.errors} errors`,
        ),
    ),
  );
  const soakFailures = results.flatMap((result) =>
    (result.soak ?? [])
      .filter((run) => run.unexpected > 0 || run.errors > 0)
      .map(
        (run) => `${result.database} soak run ${run.run}: ${run.unexpected} unexpected statuses, ${run.errors} errors`,
      ),
  );
  failures.push(...soakFailures);
  const openLoopFailures = results.flatMap((result) =>
    result.rows
      .filter((row) => row.openLoop !== undefined)
      .flatMap((row) =>
        [
          ['service', row.openLoop.service],
          [row.yardstick.name, row.openLoop.yardstick],
        ]
          .filter(([, side]) => side.rps === 0 || side.unexpected > 0 || side.errors > 0)
          .map(
            ([name, side]) =>
              `${row.database} ${row.workload} open loop (${name}): ${side.rps} req/s, ${side.unexpected} unexpected statuses, ${side.errors} errors`,
          ),
      ),
  );
  failures.push(...openLoopFailures);
  const answerFailures = results.flatMap((result) =>
    result.rows.flatMap((row) =>
      (row.answersDiffering ?? []).map(
        (request) => `${row.database} ${row.workload}, bare answers otherwise: ${request}`,
      ),
    ),
  );
  failures.push(...answerFailures);
  if (failures.length > 0) {
    process.stderr.write(`\nFAILED:\n${failures.join('\n')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
