// npm run bench -- --scenario classes [--smoke]: guest logins through a real FreeRADIUS while other
// work competes for the service (issue #38): a batch of 1,000 vouchers, three at once, 150 console
// sign-ins a second. See bench/README.md ("Scenario `classes`").
import { hash } from '@node-rs/argon2';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs, freePort, freeUdpPorts, log, ROOT, startProcess } from '../lib/processes.mjs';
import { CODES, newTally, openLoop, percentiles, RadiusSender, record, summarise } from '../lib/radius-load.mjs';
import {
  cli,
  connectMysql,
  databaseUrlOf,
  freeRadiusWithRest,
  generateRadiusConfig,
  loggedReady,
  radiusToken,
  serviceEnv,
  startFreeRadius,
} from '../lib/service.mjs';
import { BENCH_PASSWORD, seedMysql, smallVenue, venueOf } from '../seed.mjs';

const API_TOKEN = 'hsp_bench_classes_0123456789abcdefghijklmnopqrstuvwxyz';
const NAS_SECRET = 'bench-classes-shared-secret-0123';
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
/** The login venues, each with its NAS at its own loopback address: their users log in; batches go to other venues. */
const LOGIN_NASES = [
  { venue: smallVenue(0), name: 'classes-nas-a', address: '127.0.0.1' },
  { venue: smallVenue(5), name: 'classes-nas-b', address: '127.0.0.2' },
];
/** What a login must keep under each pressure (issue #38). */
const TARGETS = { p99Ms: 100, rejects: 0, unanswered: 0 };

function scenarioConfig(smoke) {
  const full = {
    users: 20_000,
    uncachedLoginRate: 10,
    cachedLoginRate: 20,
    cachedUsers: 40,
    windowSeconds: 15,
    batchSize: 1000,
    signInsPerSecond: 150,
    signInAddresses: 150,
  };
  if (!smoke) return full;
  return { ...full, users: 2000, windowSeconds: 3, batchSize: 100, signInsPerSecond: 20, signInAddresses: 20 };
}

/** The pressures, each run for one window while the logins go on. */
const PRESSURES = [
  { name: 'idle', title: 'nothing else' },
  { name: 'batch', title: 'one batch of vouchers at another venue', batches: 1 },
  { name: 'threeBatches', title: 'three batches at once', batches: 3 },
  { name: 'signIns', title: 'console sign-ins with unknown emails', signIns: true },
];

/** POST, as the v1 API's clients and the console's browsers send it; resolves with { status, ms }. */
function post(port, path, { headers, body, localAddress }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const call = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers, localAddress, agent: false, timeout: 120_000 },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - started }));
      },
    );
    call.on('error', () => resolve({ status: null, ms: performance.now() - started }));
    call.on('timeout', () => call.destroy());
    call.end(body);
  });
}

/** Batches of `size` vouchers, one per venue given, all started at once by write tokens limited to their venue. */
async function runBatches(port, tokens, size) {
  const results = await Promise.all(
    tokens.map(({ venue, token }) =>
      post(port, '/api/v1/hotspot-user-batches', {
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ venueId: venue, count: size, validFor: 86_400 }),
      }),
    ),
  );
  return {
    statuses: results.map((result) => result.status),
    seconds: results.map((result) => Math.round(result.ms / 100) / 10),
  };
}

/** `perSecond` console sign-ins a second with unknown emails, each address of 127.0.1.x in turn, for `seconds`. */
async function runSignIns(port, perSecond, addresses, seconds) {
  const statuses = {};
  const samples = [];
  let sequence = 0;
  await openLoop(perSecond, seconds, async () => {
    sequence += 1;
    const address = `127.0.1.${1 + (sequence % addresses)}`;
    const result = await post(port, '/admin/login', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      body: `email=nobody-${sequence}%40venue.example&password=guess-${sequence}`,
      localAddress: address,
    });
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    samples.push(result.ms);
  });
  return { statuses, ...percentiles(samples) };
}

export default async function runClasses({ smoke, mysqlUrl, keep, reuse, duration }) {
  const config = { ...scenarioConfig(smoke), ...(duration === undefined ? {} : { windowSeconds: duration }) };
  if (reuse !== undefined) throw new Error('--reuse does not apply to the classes scenario');
  if (!freeRadiusWithRest()) {
    if (!smoke) throw new Error('the classes scenario needs FreeRADIUS 3.2 with rlm_rest');
    log('classes: FreeRADIUS with rlm_rest is not installed: skipped');
    return;
  }
  const admin = await connectMysql(mysqlUrl, { connectTimeout: 2000 }).catch(() => null);
  if (admin === null) {
    if (!smoke) throw new Error(`the classes scenario needs MariaDB: not reachable at ${mysqlUrl}`);
    log(`classes: MariaDB not reachable at ${mysqlUrl}: skipped`);
    return;
  }
  const name = `hotspot_classes_${process.pid}`;
  const databaseUrl = databaseUrlOf(mysqlUrl, name);
  const folder = mkdtempSync(join(tmpdir(), 'hotspot-classes-'));
  const stops = [];
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version, loadBefore: loadavg() };
  let failed = false;
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const env = (port, metricsPort) =>
      serviceEnv({
        databaseUrl,
        port,
        token: API_TOKEN,
        METRICS_PORT: String(metricsPort),
        // As production runs: sign-ins are limited per address (30 a minute), and none here goes over.
        RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '30',
      });
    log(`classes: migrating ${name}`);
    const migratePort = await freePort();
    const migrating = await startProcess(
      'service',
      ['dist/src/main.js'],
      migratePort,
      env(migratePort, await freePort()),
    );
    await migrating.stop();
    log(`classes: seeding ${config.users} users`);
    const seeding = await connectMysql(databaseUrl);
    try {
      await seedMysql(seeding, config.users, await hash(BENCH_PASSWORD, ARGON2));
    } finally {
      await seeding.end();
    }
    for (const nas of LOGIN_NASES) {
      cli(databaseUrl, [
        'nas',
        'add',
        '--venue',
        nas.venue,
        '--name',
        nas.name,
        '--ip',
        nas.address,
        '--secret',
        NAS_SECRET,
      ]);
    }
    const token = radiusToken(databaseUrl, `classes-radius-${Date.now()}`);
    const port = await freePort();
    const metricsPort = await freePort();
    const service = await startProcess('service', ['dist/src/main.js'], port, env(port, metricsPort));
    stops.push(() => service.stop());
    const batchTokens = Array.from({ length: 3 }, (_, index) => {
      const venue = smallVenue(index + 1);
      const value = cli(databaseUrl, [
        'token',
        'create',
        '--name',
        `classes-${venue}`,
        '--permissions',
        'write',
        '--venues',
        venue,
      ])
        .trim()
        .split('\n')
        .at(-1);
      return { venue, token: value };
    });
    const [authPort, acctPort] = await freeUdpPorts(2);
    const raddb = join(folder, 'raddb');
    generateRadiusConfig(databaseUrl, {
      out: raddb,
      servicePort: port,
      token,
      authPort,
      acctPort,
      listenAddress: '127.0.0.1',
    });
    const radius = await startFreeRadius('(generated)', raddb, loggedReady(raddb));
    stops.push(() => radius.stop());
    const senders = new Map();
    for (const nas of LOGIN_NASES) {
      const sender = await RadiusSender.open({
        address: nas.address,
        sockets: 4,
        server: { host: '127.0.0.1', authPort, acctPort },
        secret: NAS_SECRET,
      });
      senders.set(nas.venue, sender);
      stops.push(() => sender.close());
    }

    // The login venues' active users: the first few log in again and again (their passwords cached), the rest once each.
    const venueUsers = [];
    for (let n = 1; n <= config.users; n += 1) if (senders.has(venueOf(n)) && n % 7 !== 3) venueUsers.push(n);
    const cachedUsers = venueUsers.slice(0, config.cachedUsers);
    const fresh = venueUsers.slice(config.cachedUsers);
    const needed = Math.ceil(config.uncachedLoginRate * config.windowSeconds * 1.5) * PRESSURES.length;
    if (fresh.length < needed) throw new Error(`classes: ${fresh.length} fresh users, ${needed} needed`);
    const login = (n, dueAt) =>
      senders
        .get(venueOf(n))
        .send('auth', { 'User-Name': `u${n}`, 'User-Password': BENCH_PASSWORD, 'NAS-IP-Address': '127.0.0.1' }, dueAt);
    for (const n of cachedUsers) await login(n, performance.now());
    let freshNext = 0;
    let cachedNext = 0;

    const results = [];
    let logOffset = readFileSync(radius.logPath, 'utf8').length;
    for (const pressure of PRESSURES) {
      log(`classes: ${pressure.title}, logins at ${config.uncachedLoginRate} + ${config.cachedLoginRate}/s`);
      const tallies = { loginUncached: newTally('PAP login, not cached'), loginCached: newTally('PAP login, cached') };
      const cpuBefore = cpuMs(service.pid);
      const started = performance.now();
      const work =
        pressure.batches !== undefined
          ? runBatches(port, batchTokens.slice(0, pressure.batches), config.batchSize)
          : pressure.signIns
            ? runSignIns(port, config.signInsPerSecond, config.signInAddresses, config.windowSeconds)
            : Promise.resolve(null);
      let workDone = false;
      const pressureResult = work.then((value) => {
        workDone = true;
        return value;
      });
      // Logins for the window, and on for as long as the batches take, one window at a time.
      let windows = 0;
      do {
        windows += 1;
        await Promise.all([
          openLoop(config.uncachedLoginRate, config.windowSeconds, async (dueAt) =>
            record(tallies.loginUncached, await login(fresh[freshNext++ % fresh.length], dueAt), CODES.accessAccept),
          ),
          openLoop(config.cachedLoginRate, config.windowSeconds, async (dueAt) =>
            record(
              tallies.loginCached,
              await login(cachedUsers[cachedNext++ % cachedUsers.length], dueAt),
              CODES.accessAccept,
            ),
          ),
        ]);
      } while (!workDone && windows < 10);
      const elapsed = (performance.now() - started) / 1000;
      const competing = await pressureResult;
      const classes = Object.fromEntries(
        Object.entries(tallies).map(([key, tally]) => {
          const summary = summarise(tally, elapsed);
          return [
            key,
            {
              ...summary,
              accepted: tally.codes[CODES.accessAccept] ?? 0,
              rejects: tally.codes[CODES.accessReject] ?? 0,
              unanswered: tally.sent - tally.answered,
            },
          ];
        }),
      );
      const met = Object.values(classes).every(
        (figures) =>
          figures.sent > 0 &&
          figures.p99 !== null &&
          figures.p99 <= TARGETS.p99Ms &&
          figures.rejects === TARGETS.rejects &&
          figures.unanswered === TARGETS.unanswered,
      );
      // What FreeRADIUS logged meanwhile (a timeout of its REST call, say), for the logins that got no answer.
      const logged = readFileSync(radius.logPath, 'utf8');
      const freeradiusErrors = logged
        .slice(logOffset)
        .split('\n')
        .filter((line) => /ERROR|WARNING/.test(line));
      logOffset = logged.length;
      const result = {
        pressure: pressure.name,
        title: pressure.title,
        seconds: Math.round(elapsed * 10) / 10,
        serviceCoresBusy: Math.round(((cpuMs(service.pid) - cpuBefore) / 1000 / elapsed) * 100) / 100,
        classes,
        competing,
        freeradiusErrors: freeradiusErrors.length,
        met,
      };
      if (freeradiusErrors.length > 0) log(`FreeRADIUS meanwhile:\n${freeradiusErrors.slice(-5).join('\n')}`);
      results.push(result);
      process.stdout.write(`\n${formatResult(result)}\n`);
    }
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const report = {
      date: new Date().toISOString(),
      mode: smoke ? 'smoke' : 'full',
      machine: { ...machine, loadAfter: loadavg() },
      config,
      targets: TARGETS,
      pressures: results,
      workClasses: metrics
        .split('\n')
        .filter((line) =>
          /^hotspot_(work_(slots|started_total|rejected_total|wait_seconds_total)|deadline_expired_total|admission_shed_total)\{/.test(
            line,
          ),
        ),
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    const file = join(ROOT, 'bench/results', `classes${smoke ? '-smoke' : ''}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`\nwritten: ${file}\n`);
    // A right password is never refused, whatever the load: a reject is a broken path in any run.
    const rejected = results.flatMap((result) =>
      Object.values(result.classes)
        .filter((figures) => figures.rejects > 0)
        .map((figures) => `${result.title}: ${figures.name}: ${figures.rejects} right passwords rejected`),
    );
    // Logins that got no answer at all are a broken path too; a p99 over its target on a few dozen
    // samples of a smoke run is noise, and a full run reports it rather than failing.
    const silent = results.flatMap((result) =>
      Object.values(result.classes)
        .filter((figures) => figures.accepted === 0)
        .map((figures) => `${result.title}: ${figures.name}: no login accepted`),
    );
    const unmet = results.filter((result) => !result.met).map((result) => `${result.title}: targets not met`);
    if (rejected.length > 0 || silent.length > 0) {
      failed = true;
      process.stderr.write(`\nFAILED:\n${[...rejected, ...silent].join('\n')}\n`);
    } else if (unmet.length > 0) {
      process.stdout.write(`\n${unmet.join('\n')}\n`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(folder, { recursive: true, force: true });
    if (keep) log(`classes: kept the database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
  }
  if (failed) process.exitCode = 1;
}

function formatResult(result) {
  const lines = [
    `| ${result.title} | class | sent | accepted | rejected | unanswered | p50 ms | p99 ms | max ms |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const figures of Object.values(result.classes)) {
    lines.push(
      `| | ${figures.name} | ${figures.sent} | ${figures.accepted} | ${figures.rejects} | ${figures.unanswered} | ${figures.p50} | ${figures.p99} | ${figures.max} |`,
    );
  }
  lines.push(
    '',
    `${result.met ? 'met' : 'NOT met'}; ${result.seconds} s; service ${result.serviceCoresBusy} cores; competing work: ${JSON.stringify(result.competing)}`,
  );
  return lines.join('\n');
}
