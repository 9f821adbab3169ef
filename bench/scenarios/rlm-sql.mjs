// npm run bench -- --scenario rlm-sql [--smoke] [--keep | --reuse NAME] [--no-build]
//
// FreeRADIUS with this service's configuration (A: rlm_rest to the service) side by side with
// FreeRADIUS's own SQL back end (B: Debian's stock rlm_sql on MariaDB), same machine, same UDP load
// generator, alternating A and B: Access-Requests/s and Accounting-Requests/s at saturation, and
// p50/p99 at a fixed rate both sides sustain. See bench/README.md.
import { hash, verify } from '@node-rs/argon2';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs, databaseServerPid, freePort, freeUdpPorts, log, ROOT, startProcess } from '../lib/processes.mjs';
import {
  accountingAccount,
  cli,
  connectMysql,
  databaseUrlOf,
  generateRadiusConfig,
  radiusToken,
  serviceEnv,
  startFreeRadius,
} from '../lib/service.mjs';
import {
  ACCT_STATUS,
  closedLoop,
  CODES,
  newTally,
  openLoop,
  RadiusSender,
  record,
  summarise,
} from '../lib/radius-load.mjs';
import { BENCH_PASSWORD, HOT_VENUE, seedMysql, userId } from '../seed.mjs';

/** Debian's FreeRADIUS 3.2 configuration, whose stock rlm_sql files side B uses. */
const STOCK = '/etc/freeradius/3.0';
const RLM_SQL_MYSQL = '/usr/lib/freeradius/rlm_sql_mysql.so';
const SECRET = 'bench-shared-secret-0123';
const NAS_IP = '127.0.0.1';
/** The venue of the NAS: every user who logs in or has a session is an active user of it. */
const NAS_VENUE = HOT_VENUE;
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const BOOTSTRAP_TOKEN = 'hsp_bench_0123456789abcdefghijklmnopqrstuvwxyz';

const SIZES = {
  // users: seeded (a tenth in NAS_VENUE); loginUsers log in again and again; sessions: one per user;
  // concurrency: requests in flight at saturation (closed loop). Smoke checks that everything runs,
  // with fewer in flight so that a busy CI machine stays within A's rest timeout (250 ms).
  full: {
    users: 60_000,
    loginUsers: 200,
    sessions: 5_000,
    seconds: 5,
    warmup: 1,
    rounds: 3,
    concurrency: 32,
    cryptRounds: 400,
  },
  smoke: {
    users: 1_000,
    loginUsers: 40,
    sessions: 60,
    seconds: 1,
    warmup: 0,
    rounds: 1,
    concurrency: 8,
    cryptRounds: 40,
  },
};
/**
 * In flight for A's logins without the password cache: every one waits for argon2id (one per core),
 * and at 32 in flight the wait passes the generated configuration's rest timeout (250 ms), which
 * FreeRADIUS answers with an Access-Reject. 4 keep both cores verifying.
 */
const CONCURRENCY_ARGON2 = 4;

/** Accounting-Starts in flight while the sessions are set up (not a measured class). */
const STARTS_IN_FLIGHT = 8;

export default async function rlmSql({ smoke, mysqlUrl, keep, reuse }) {
  const size = smoke ? SIZES.smoke : SIZES.full;
  if (!existsSync(RLM_SQL_MYSQL)) {
    log(`rlm-sql: skipped, ${RLM_SQL_MYSQL} is missing (install freeradius-mysql)`);
    return;
  }
  const admin = await connectMysql(mysqlUrl, { connectTimeout: 2000 }).catch(() => null);
  if (admin === null) {
    log(`rlm-sql: skipped, MariaDB is not reachable at ${mysqlUrl}`);
    return;
  }
  const loadBefore = loadavg().map(round2);
  const [[{ version: mariadbVersion }]] = await admin.query('SELECT VERSION() AS version');
  const names = { service: reuse ?? `hotspot_rlmsql_${process.pid}` };
  names.radius = `${names.service}_radius`;
  const folder = mkdtempSync(join(tmpdir(), 'hotspot-rlmsql-'));
  const stack = [];
  const cleanUp = async () => {
    for (const step of stack.reverse()) await step().catch((error) => log(`clean-up: ${error.message}`));
  };
  // The FreeRADIUS folders hold the bench's secret and token, and their logs: kept with --keep.
  stack.push(async () =>
    keep ? log(`kept the FreeRADIUS folders in ${folder}`) : rmSync(folder, { recursive: true, force: true }),
  );
  stack.push(async () => {
    if (keep || reuse !== undefined) {
      log(`kept the databases ${names.service} and ${names.radius} (run again with --reuse ${names.service})`);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS \`${names.service}\``);
      await admin.query(`DROP DATABASE IF EXISTS \`${names.radius}\``);
    }
    await admin.end();
  });
  try {
    const report = await run({ size, smoke, mysqlUrl, reuse, admin, names, folder, stack });
    report.machine.mariadb = mariadbVersion;
    report.machine.loadBefore = loadBefore;
    report.machine.loadAfter = loadavg().map(round2);
    const file = join(ROOT, 'bench/results', smoke ? 'rlm-sql-smoke.json' : 'rlm-sql.json');
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`\n${markdown(report)}\nwritten: ${file}\n`);
    if (report.failures.length > 0) {
      process.stderr.write(`\nFAILED:\n${report.failures.join('\n')}\n`);
      process.exitCode = 1;
    }
  } finally {
    await cleanUp();
  }
}

async function run({ size, smoke, mysqlUrl, reuse, admin, names, folder, stack }) {
  const serviceUrl = databaseUrlOf(mysqlUrl, names.service);
  const users = activeNasUsers(size.users);
  if (users.length < Math.max(size.sessions, size.loginUsers)) {
    throw new Error(`${size.users} users hold ${users.length} active users of ${NAS_VENUE}: too few`);
  }
  const sessionPrefix = `rlmsql-${Date.now().toString(36)}`;
  const setup = {};
  const began = Date.now();
  const elapsed = () => ((Date.now() - began) / 1000).toFixed(1);

  // The two databases: the service's (migrated by the service itself, then seeded) and rlm_sql's.
  if (reuse === undefined) {
    await admin.query(`DROP DATABASE IF EXISTS \`${names.service}\``);
    await admin.query(`CREATE DATABASE \`${names.service}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    log('rlm-sql: migrating the service database');
    const migrating = await startService(serviceUrl, 300);
    await migrating.stop();
    log(`rlm-sql: seeding ${size.users} users (${users.length} active in ${NAS_VENUE})`);
    const seedStart = Date.now();
    const connection = await connectMysql(serviceUrl);
    try {
      await seedMysql(connection, size.users, await hash(BENCH_PASSWORD, ARGON2));
    } finally {
      await connection.end();
    }
    setup.serviceSeedSeconds = (Date.now() - seedStart) / 1000;
    const radiusStart = Date.now();
    await createRadiusDatabase(admin, mysqlUrl, names.radius, size.users);
    setup.radiusSeedSeconds = (Date.now() - radiusStart) / 1000;
  }

  // A: the NAS and a radius token through the CLI, then two services (password cache on and off),
  // each with the FreeRADIUS configuration radius-config generates for it.
  const nasName = 'rlmsql-nas';
  const started = async (what) => {
    const child = await what;
    stack.push(() => child.stop());
    return child;
  };
  // The services start while the CLI registers the NAS and creates the token.
  const [service, serviceNoCache, token] = await Promise.all([
    started(startService(serviceUrl, 300)),
    started(startService(serviceUrl, 0)),
    (async () => {
      if (reuse === undefined || !cli(serviceUrl, ['nas', 'list']).includes(nasName)) {
        cli(serviceUrl, ['nas', 'add', '--venue', NAS_VENUE, '--name', nasName, '--ip', NAS_IP, '--secret', SECRET]);
      }
      return radiusToken(serviceUrl, `rlmsql-${Date.now()}`);
    })(),
  ]);
  // Six UDP ports held at once, so no two are the same.
  const udp = await freeUdpPorts(6, NAS_IP);
  const [radiusA, radiusA0, radiusB] = [0, 2, 4].map((i) => ({ authPort: udp[i], acctPort: udp[i + 1] }));
  // A as an operator on MariaDB runs it, FreeRADIUS recording the common Interim-Update itself; A0 over REST alone.
  const accounting = await accountingAccount(admin, serviceUrl);
  stack.push(() => accounting.drop());
  for (const [out, servicePort, ports, accountingDbUrl] of [
    [join(folder, 'a'), service.port, radiusA, accounting.url],
    [join(folder, 'a0'), serviceNoCache.port, radiusA0, undefined],
  ]) {
    generateRadiusConfig(serviceUrl, { out, servicePort, token, ...ports, listenAddress: NAS_IP, accountingDbUrl });
  }
  rlmSqlRadius(join(folder, 'a'), join(folder, 'b'), mysqlUrl, names.radius, radiusB);
  log(`rlm-sql: services and configurations ready (${elapsed()} s)`);

  const probe = users[0];
  const sides = {};
  await Promise.all(
    [
      ['A', join(folder, 'a'), radiusA, service],
      ['A0', join(folder, 'a0'), radiusA0, serviceNoCache],
      ['B', join(folder, 'b'), radiusB, null],
    ].map(async ([key, dir, ports, owner]) => {
      const sender = await RadiusSender.open({
        address: NAS_IP,
        sockets: 2,
        server: { host: NAS_IP, authPort: ports.authPort, acctPort: ports.acctPort },
        secret: SECRET,
      });
      stack.push(() => sender.close());
      // Ready once a login of the probe user gets an Access-Accept.
      const accepts = async () => (await sender.send('auth', loginAttributes(probe))).code === CODES.accessAccept;
      const freeradius = await started(startFreeRadius(key, dir, accepts));
      sides[key] = { key, sender, freeradius, service: owner, ports };
    }),
  );
  log(`rlm-sql: FreeRADIUS A (cache on and off) and B answer (${elapsed()} s)`);
  const mariadb = databaseServerPid();

  // The Class the service returns in the Access-Accept (hsp:<user id>), as radclient shows it: a NAS
  // echoes it in accounting, and A's Interim-Updates carry it.
  setup.classChecked = checkClass(radiusA, probe);

  // The login users' passwords are verified once by the cached service before anything is measured.
  const loginUsers = users.slice(0, size.loginUsers);
  setup.prime = await measure('prime', sides.A, mariadb, (tally) => primeLogins(sides.A.sender, loginUsers, tally));

  // Sessions: each side gets the same sessions started (Accounting-Start), one per user, STARTS_IN_FLIGHT
  // at a time; a Start without an answer is sent again once, as a NAS retransmits (counted).
  const sessions = users.slice(0, size.sessions).map((user, i) => newSession(user, i, sessionPrefix));
  setup.starts = {};
  for (const key of ['A', 'B']) {
    let retransmitted = 0;
    const result = await measure('start', sides[key], mariadb, async (tally) => {
      let next = 0;
      const lane = async () => {
        while (next < sessions.length) {
          const attributes = startAttributes(sessions[next++], key === 'A');
          let outcome = await sides[key].sender.send('acct', attributes);
          if (outcome.code === null) {
            retransmitted += 1;
            outcome = await sides[key].sender.send('acct', attributes);
          }
          record(tally, outcome, CODES.accountingResponse);
        }
      };
      await Promise.all(Array.from({ length: STARTS_IN_FLIGHT }, lane));
    });
    setup.starts[key] = { concurrency: STARTS_IN_FLIGHT, retransmitted, ...result };
  }

  const classes = {
    login: {
      expected: CODES.accessAccept,
      kind: 'auth',
      attributes: cycle(loginUsers, loginAttributes),
    },
    accounting: { expected: CODES.accountingResponse, kind: 'acct', attributes: null },
  };
  // Each side cycles over the sessions on its own, counters growing with each Interim-Update.
  const interims = { A: interimCycle(sessions, 'A'), B: interimCycle(sessions, 'B') };
  const attributesOf = (name, key) =>
    name === 'accounting' ? interims[key === 'A0' ? 'A' : key] : classes[name].attributes;

  const saturation = async (name, key, round, seconds) => {
    const concurrency = name === 'login' && key === 'A0' ? CONCURRENCY_ARGON2 : size.concurrency;
    const next = attributesOf(name, key);
    const { kind, expected } = classes[name];
    const result = await measure(name, sides[key], mariadb, async (tally) =>
      closedLoop(concurrency, seconds, async (now) =>
        record(tally, await sides[key].sender.send(kind, next(), now), expected),
      ),
    );
    return { class: name, side: key, loop: 'closed', round, concurrency, ...result };
  };
  const fixedRate = async (name, key, round, rate, seconds) => {
    const next = attributesOf(name, key);
    const { kind, expected } = classes[name];
    const result = await measure(name, sides[key], mariadb, (tally) =>
      openLoop(rate, seconds, async (dueAt) =>
        record(tally, await sides[key].sender.send(kind, next(), dueAt), expected),
      ),
    );
    return {
      class: name,
      side: key,
      loop: 'open',
      round,
      offered: rate,
      ...result,
      sustained: result.rate >= rate * 0.95,
    };
  };

  // Warm-up (not recorded): each side's code paths, pools and caches, before round 1.
  if (size.warmup > 0) {
    for (const [name, key] of [
      ['login', 'A'],
      ['login', 'A0'],
      ['login', 'B'],
      ['accounting', 'A'],
      ['accounting', 'A0'],
      ['accounting', 'B'],
    ]) {
      await saturation(name, key, 0, size.warmup);
    }
  }

  // Saturation, A then B, round after round.
  const runs = [];
  const plan = [
    ['login', 'A'],
    ['login', 'A0'],
    ['login', 'B'],
    ['accounting', 'A'],
    ['accounting', 'A0'],
    ['accounting', 'B'],
  ];
  for (let round = 1; round <= size.rounds; round++) {
    for (const [name, key] of plan) {
      const result = await saturation(name, key, round, size.seconds);
      runs.push(result);
      log(`rlm-sql: ${describe(result)}`);
    }
  }
  const saturated = (name, key) =>
    mean(runs.filter((r) => r.loop === 'closed' && r.class === name && r.side === key).map((r) => r.rate));

  // A fixed rate both sides sustain: half the lower saturation rate of the pair.
  const rates = {
    login: Math.max(1, Math.floor(Math.min(saturated('login', 'A'), saturated('login', 'B')) / 2)),
    loginNoCache: Math.max(1, Math.floor(saturated('login', 'A0') / 2)),
    accounting: Math.max(1, Math.floor(Math.min(saturated('accounting', 'A'), saturated('accounting', 'B')) / 2)),
  };
  const openPlan = [
    ['login', 'A', rates.login, 'login'],
    ['login', 'B', rates.login, 'login'],
    ['login', 'A0', rates.loginNoCache, 'loginNoCache'],
    ['login', 'B', rates.loginNoCache, 'loginNoCache'],
    ['accounting', 'A', rates.accounting, 'accounting'],
    ['accounting', 'B', rates.accounting, 'accounting'],
  ];
  for (let round = 1; round <= size.rounds; round++) {
    for (const [name, key, rate, pair] of openPlan) {
      const result = { pair, ...(await fixedRate(name, key, round, rate, size.seconds)) };
      runs.push(result);
      log(`rlm-sql: ${describe(result)}`);
    }
  }

  const dataCheck = await checkData(mysqlUrl, names, sessions, sessionPrefix);
  const micro = await perLoginMicro(size.cryptRounds);
  // What went wrong, for reading the errors: FreeRADIUS's logged errors, the services' warnings.
  const problems = {
    freeradius: Object.fromEntries(
      [
        ['A', 'a'],
        ['A0', 'a0'],
        ['B', 'b'],
      ].map(([key, dir]) => [key, logProblems(readLog(join(folder, dir, 'log/radius.log')), /: (ERROR|WARNING): /)]),
    ),
    service: logProblems(service.output(), /\b(warn|error)\b/i),
    serviceNoCache: logProblems(serviceNoCache.output(), /\b(warn|error)\b/i),
  };

  const summary = summariseRuns(runs);
  // A's saturation rate over B's in the same round (run one after the other), then the mean over rounds.
  const roundRatios = (name, key) =>
    Array.from({ length: size.rounds }, (_, i) => {
      const of = (side) =>
        runs.find((r) => r.loop === 'closed' && r.class === name && r.side === side && r.round === i + 1);
      return of('B').rate > 0 ? of(key).rate / of('B').rate : 0;
    });
  const ratios = {
    accounting: roundRatios('accounting', 'A'),
    accountingRestOnly: roundRatios('accounting', 'A0'),
    loginWithCache: roundRatios('login', 'A'),
    loginWithoutCache: roundRatios('login', 'A0'),
  };
  const report = {
    date: new Date().toISOString(),
    mode: smoke ? 'smoke' : 'full',
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      node: process.version,
      freeradius: spawnSync('freeradius', ['-v'], { encoding: 'utf8' }).stdout.split('\n')[0],
    },
    config: {
      users: size.users,
      nasVenue: NAS_VENUE,
      activeUsersOfNasVenue: users.length,
      loginUsers: size.loginUsers,
      sessions: size.sessions,
      seconds: size.seconds,
      warmupSeconds: size.warmup,
      rounds: size.rounds,
      concurrency: size.concurrency,
      concurrencyLoginWithoutCache: CONCURRENCY_ARGON2,
      openLoopRates: rates,
      sides: {
        A: 'FreeRADIUS (radius-config --accounting-db-url: the common Interim-Update recorded by FreeRADIUS in SQL) + the service, RADIUS_PASSWORD_CACHE_SECONDS=300',
        A0: 'FreeRADIUS (radius-config: every packet over REST) + the service, RADIUS_PASSWORD_CACHE_SECONDS=0 (every login pays argon2id)',
        B: "FreeRADIUS with Debian's stock rlm_sql (rlm_sql_mysql), radcheck Crypt-Password (SHA-512 crypt)",
      },
    },
    setup,
    accountingRatioToRlmSql: round2(mean(ratios.accounting)),
    accountingRatioToRlmSqlRestOnly: round2(mean(ratios.accountingRestOnly)),
    loginRatioToRlmSql: {
      withCache: round2(mean(ratios.loginWithCache)),
      withoutCache: round2(mean(ratios.loginWithoutCache)),
    },
    ratiosByRound: Object.fromEntries(Object.entries(ratios).map(([key, list]) => [key, list.map(round2)])),
    perLoginCpuUs: {
      // One verification alone, on one core.
      ...micro,
      // Everything a login cost at saturation (service + FreeRADIUS + MariaDB), and the service's part.
      withCache: summary.login.A.cpuUsPerRequest.total,
      withoutCache: summary.login.A0.cpuUsPerRequest.total,
      rlmSql: summary.login.B.cpuUsPerRequest.total,
      serviceWithCache: summary.login.A.cpuUsPerRequest.service,
      serviceWithoutCache: summary.login.A0.cpuUsPerRequest.service,
    },
    summary,
    dataCheck,
    problems,
    runs,
    failures: [],
  };
  report.failures = failures(report);
  return report;
}

// ---------------------------------------------------------------------------------------------
// Users, sessions and their attributes

/** The seeded users of NAS_VENUE that are active (one in seven of the seed is blocked), as { n, name, id }. */
function activeNasUsers(count) {
  const users = [];
  for (let n = 1; n <= count; n++) {
    if (n % 10 === 7 && n % 7 !== 3) users.push({ n, name: `u${n}`, id: userId(n) });
  }
  return users;
}

function mac(prefix, i) {
  const hex = i.toString(16).padStart(8, '0');
  return `${prefix}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}`.toUpperCase();
}

function loginAttributes(user) {
  return {
    'User-Name': user.name,
    'User-Password': BENCH_PASSWORD,
    'NAS-IP-Address': NAS_IP,
    'NAS-Port': user.n,
    'NAS-Port-Type': 19,
    'Called-Station-Id': '02-00-00-00-00-01:bench',
    'Calling-Station-Id': mac('02:AA', user.n),
  };
}

function newSession(user, i, prefix) {
  return {
    user,
    id: `${prefix}-${i}`,
    port: i + 1,
    mac: mac('02:BB', i),
    ip: `10.64.${(i >> 8) & 255}.${i & 255}`,
    // Per side: the counters last sent.
    sent: { A: { time: 0, input: 0, output: 0 }, B: { time: 0, input: 0, output: 0 } },
  };
}

function sessionAttributes(session, withClass) {
  return {
    'User-Name': session.user.name,
    'Acct-Session-Id': session.id,
    'NAS-IP-Address': NAS_IP,
    'NAS-Port': session.port,
    'NAS-Port-Type': 19,
    'Called-Station-Id': '02-00-00-00-00-01:bench',
    'Calling-Station-Id': session.mac,
    'Framed-IP-Address': session.ip,
    // The Class the service gave this user's Access-Accept (see checkClass), echoed as a NAS does.
    ...(withClass ? { Class: Buffer.from(`hsp:${session.user.id}`, 'utf8') } : {}),
  };
}

function startAttributes(session, withClass) {
  return { ...sessionAttributes(session, withClass), 'Acct-Status-Type': ACCT_STATUS.Start };
}

/** Interim-Updates cycling over the sessions, each with larger counters than its last. */
function interimCycle(sessions, key) {
  let i = 0;
  return () => {
    const session = sessions[i++ % sessions.length];
    const sent = session.sent[key];
    sent.time += 60;
    sent.input += 12_345;
    sent.output += 67_890;
    return {
      ...sessionAttributes(session, key === 'A'),
      'Acct-Status-Type': ACCT_STATUS['Interim-Update'],
      'Acct-Session-Time': sent.time,
      'Acct-Input-Octets': sent.input,
      'Acct-Output-Octets': sent.output,
      'Acct-Input-Packets': Math.floor(sent.input / 500),
      'Acct-Output-Packets': Math.floor(sent.output / 1000),
    };
  };
}

function cycle(items, make) {
  let i = 0;
  return () => make(items[i++ % items.length]);
}

/** Logs every login user in once (argon2id on a cold cache), two at a time. */
async function primeLogins(sender, users, tally) {
  let next = 0;
  const lane = async () => {
    while (next < users.length) {
      record(tally, await sender.send('auth', loginAttributes(users[next++])), CODES.accessAccept);
    }
  };
  await Promise.all([lane(), lane()]);
}

// ---------------------------------------------------------------------------------------------
// Measuring

/**
 * Runs `load(tally)` and returns what it got (rate over the elapsed time, codes, latencies) with the
 * CPU time per answered request of each process involved: the service (A), FreeRADIUS, MariaDB and
 * the load generator (this process).
 */
async function measure(name, side, mariadb, load) {
  const pids = { service: side.service?.pid ?? null, freeradius: side.freeradius.pid, mariadb };
  const before = Object.fromEntries(Object.entries(pids).map(([key, pid]) => [key, cpuMs(pid)]));
  const generatorBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const tally = newTally(name);
  const started = performance.now();
  await load(tally);
  const seconds = (performance.now() - started) / 1000;
  const generator = process.cpuUsage(generatorBefore);
  const machineAfter = machineTicks();
  const answered = Math.max(1, tally.answered);
  const perRequest = (ms) => (ms === null ? null : Math.round((ms * 1000) / answered));
  const cpu = {};
  for (const [key, pid] of Object.entries(pids)) {
    const after = cpuMs(pid);
    cpu[key] = before[key] === null || after === null ? null : perRequest(after - before[key]);
  }
  cpu.total = (cpu.service ?? 0) + (cpu.freeradius ?? 0) + (cpu.mariadb ?? 0);
  cpu.generator = perRequest((generator.user + generator.system) / 1000);
  const summary = summarise(tally, seconds);
  delete summary.name;
  // The share of the machine's cores busy meanwhile (every process): below 1, the side waited on something else.
  const busy = 1 - (machineAfter.idle - machineBefore.idle) / Math.max(1, machineAfter.total - machineBefore.total);
  return { seconds: round2(seconds), ...summary, cpuUsPerRequest: cpu, machineBusy: round2(busy) };
}

/** The machine's CPU time so far in clock ticks, all and idle (iowait counted idle), from /proc/stat. */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: fields.reduce((sum, n) => sum + n, 0), idle: fields[3] + fields[4] };
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * B: a folder with A's radiusd.conf (thread pool, reject_delay, logging) and clients.conf (the same
 * client and secret), Debian's stock pap, always, expr and sql modules (sql on MariaDB with the
 * stock queries), the stock acct_unique policy and one site as daloRADIUS sets up the stock default.
 */
function rlmSqlRadius(aDir, dir, mysqlUrl, database, ports) {
  for (const sub of ['mods-enabled', 'policy.d', 'sites-enabled', 'mods-config/sql/main/mysql', 'log', 'run']) {
    mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  }
  const radiusd = readFileSync(join(aDir, 'radiusd.conf'), 'utf8');
  if (!/^confdir = .*$/m.test(radiusd)) throw new Error("radius-config's radiusd.conf has no confdir line");
  writeFileSync(join(dir, 'radiusd.conf'), radiusd.replace(/^confdir = .*$/m, `confdir = ${dir}`));
  writeFileSync(join(dir, 'clients.conf'), readFileSync(join(aDir, 'clients.conf')), { mode: 0o600 });
  for (const module of ['pap', 'always', 'expr']) {
    writeFileSync(join(dir, 'mods-enabled', module), readFileSync(join(STOCK, 'mods-available', module)));
  }
  writeFileSync(join(dir, 'mods-enabled/sql'), sqlModule(mysqlUrl, database), { mode: 0o600 });
  writeFileSync(
    join(dir, 'mods-config/sql/main/mysql/queries.conf'),
    readFileSync(join(STOCK, 'mods-config/sql/main/mysql/queries.conf')),
  );
  writeFileSync(join(dir, 'policy.d/accounting'), readFileSync(join(ROOT, 'deploy/freeradius/policy.d/accounting')));
  writeFileSync(
    join(dir, 'sites-enabled/default'),
    `# The stock default site as daloRADIUS uses it, reduced to PAP and SQL (written by bench/scenarios/rlm-sql.mjs).
server default {
	listen {
		type = auth
		ipaddr = ${NAS_IP}
		port = ${ports.authPort}
	}
	listen {
		type = acct
		ipaddr = ${NAS_IP}
		port = ${ports.acctPort}
	}
	authorize {
		sql
		pap
	}
	authenticate {
		Auth-Type PAP {
			pap
		}
	}
	preacct {
		acct_unique
	}
	accounting {
		sql
	}
	post-auth {
		sql
		Post-Auth-Type REJECT {
			sql
		}
	}
}
`,
  );
}

/**
 * Debian's stock mods-available/sql with the MariaDB driver and dialect, the server, its login and
 * the database, and read_clients = no. Its mysql { tls { … tls_required = yes } } block is left out:
 * the bench's MariaDB takes plain TCP on 127.0.0.1.
 */
function sqlModule(mysqlUrl, database) {
  const url = new URL(mysqlUrl);
  const quote = (value) => `"${value.replace(/["\\]/g, '\\$&')}"`;
  const stock = readFileSync(join(STOCK, 'mods-available/sql'), 'utf8');
  const replacements = [
    [/^\tdialect = "sqlite"$/m, '\tdialect = "mysql"'],
    [/^\tdriver = "rlm_sql_null"$/m, '\tdriver = "rlm_sql_mysql"'],
    [/^#\tserver = "localhost"$/m, `\tserver = ${quote(url.hostname)}`],
    [/^#\tport = 3306$/m, `\tport = ${url.port || 3306}`],
    [/^#\tlogin = "radius"$/m, `\tlogin = ${quote(decodeURIComponent(url.username || 'root'))}`],
    [/^#\tpassword = "radpass"$/m, `\tpassword = ${quote(decodeURIComponent(url.password))}`],
    [/^\tradius_db = "radius"$/m, `\tradius_db = ${quote(database)}`],
    [/^#\tread_clients = yes$/m, '\tread_clients = no'],
    [/^(\tmysql \{\n(?:\t\t#.*\n)*)\t\ttls \{\n(?:\t\t\t.*\n|\n)*?\t\t\}\n/m, '$1'],
  ];
  let text = stock;
  for (const [pattern, replacement] of replacements) {
    if (!pattern.test(text)) throw new Error(`the stock sql module has no line matching ${pattern}`);
    text = text.replace(pattern, replacement);
  }
  return text;
}

/** The service as bench/run.mjs runs it, worker off, with the password cache given. */
async function startService(url, passwordCacheSeconds) {
  const port = await freePort();
  const env = serviceEnv({
    databaseUrl: url,
    port,
    token: BOOTSTRAP_TOKEN,
    DB_POOL_SIZE: '20',
    RADIUS_PASSWORD_CACHE_SECONDS: String(passwordCacheSeconds),
  });
  return startProcess(`service (cache ${passwordCacheSeconds} s)`, ['dist/src/main.js'], port, env);
}

/** Logs `user` in to A with radclient and checks the Class of the Access-Accept is hsp:<user id>. */
function checkClass(ports, user) {
  const expected = `0x${Buffer.from(`hsp:${user.id}`, 'utf8').toString('hex')}`;
  const run = spawnSync('radclient', ['-x', '-r', '1', '-t', '3', `${NAS_IP}:${ports.authPort}`, 'auth', SECRET], {
    input: `User-Name = "${user.name}", User-Password = "${BENCH_PASSWORD}"\n`,
    encoding: 'utf8',
  });
  const found = /Class = (0x[0-9a-f]+)/i.exec(run.stdout)?.[1]?.toLowerCase() ?? null;
  if (found !== expected) {
    throw new Error(
      `A's Access-Accept for ${user.name} carries Class ${found}, not ${expected}:\n${run.stdout}${run.stderr}`,
    );
  }
  return true;
}

function readLog(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The lines of `text` matching `pattern`: how many, and the distinct messages (dates, request numbers
 * and ids folded) with their counts, at most 10. The service's output is its last 4,000 characters.
 */
function logProblems(text, pattern) {
  const lines = text.split('\n').filter((line) => pattern.test(line));
  const messages = {};
  for (const line of lines) {
    const message = line
      .replace(/^\w{3} \w{3} +\d+ [\d:]+ \d{4} : /, '')
      .replace(/\(\d+\)/g, '(N)')
      .replace(/\d+/g, 'N')
      .slice(0, 200);
    messages[message] = (messages[message] ?? 0) + 1;
  }
  return { lines: lines.length, messages: Object.fromEntries(Object.entries(messages).slice(0, 10)) };
}

// ---------------------------------------------------------------------------------------------
// Databases

/** rlm_sql's database: Debian's stock schema, and every seeded username in radcheck with one SHA-512 crypt hash. */
async function createRadiusDatabase(admin, mysqlUrl, name, users) {
  const crypt = spawnSync('openssl', ['passwd', '-6', BENCH_PASSWORD], { encoding: 'utf8' });
  const cryptHash = crypt.stdout.trim();
  if (crypt.status !== 0 || !cryptHash.startsWith('$6$')) throw new Error(`openssl passwd -6 failed: ${crypt.stderr}`);
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.query(`CREATE DATABASE \`${name}\``);
  const connection = await connectMysql(databaseUrlOf(mysqlUrl, name), {
    multipleStatements: true,
  });
  try {
    await connection.query(readFileSync(join(STOCK, 'mods-config/sql/main/mysql/schema.sql'), 'utf8'));
    const chunk = 5_000;
    for (let first = 1; first <= users; first += chunk) {
      const rows = [];
      for (let n = first; n < Math.min(users + 1, first + chunk); n++) {
        rows.push([`u${n}`, 'Crypt-Password', ':=', cryptHash]);
      }
      await connection.query('INSERT INTO radcheck (username, attribute, op, value) VALUES ?', [rows]);
    }
    await connection.query('ANALYZE TABLE radcheck');
  } finally {
    await connection.end();
  }
}

/**
 * The sessions as each side stored them: one row per session (A: `sessions`, B: `radacct`), with
 * the counters of its last Interim-Update.
 */
async function checkData(mysqlUrl, names, sessions, prefix) {
  const connection = await connectMysql(mysqlUrl);
  try {
    const sides = {
      A: `SELECT acct_session_id AS id, input_octets AS input, output_octets AS output, session_time AS time
          FROM \`${names.service}\`.sessions WHERE acct_session_id LIKE ?`,
      B: `SELECT acctsessionid AS id, acctinputoctets AS input, acctoutputoctets AS output, acctsessiontime AS time
          FROM \`${names.radius}\`.radacct WHERE acctsessionid LIKE ?`,
    };
    const check = {};
    const byId = new Map(sessions.map((session) => [session.id, session]));
    for (const [key, sql] of Object.entries(sides)) {
      const [rows] = await connection.query(sql, [`${prefix}-%`]);
      const matching = rows.filter((row) => {
        const sent = byId.get(row.id)?.sent[key];
        return (
          sent !== undefined &&
          Number(row.input) === sent.input &&
          Number(row.output) === sent.output &&
          Number(row.time) === sent.time
        );
      }).length;
      check[key] = { sessions: sessions.length, rows: rows.length, withFinalCounters: matching };
    }
    return check;
  } finally {
    await connection.end();
  }
}

// ---------------------------------------------------------------------------------------------
// argon2id against crypt, alone

/**
 * CPU time of one argon2id verification (@node-rs/argon2, the service's parameters) and of one
 * SHA-512 crypt(3) (libc's, through perl, as FreeRADIUS's pap calls it), each on one core.
 */
async function perLoginMicro(cryptRounds) {
  const stored = await hash(BENCH_PASSWORD, ARGON2);
  const verifications = Math.max(5, Math.round(cryptRounds / 20));
  await verify(stored, BENCH_PASSWORD);
  const before = process.cpuUsage();
  for (let i = 0; i < verifications; i++) await verify(stored, BENCH_PASSWORD);
  const used = process.cpuUsage(before);
  const argon2id = Math.round((used.user + used.system) / verifications);
  const perl = spawnSync(
    'perl',
    [
      '-e',
      'my ($p, $n) = @ARGV; my $h = crypt($p, q($6$benchsaltbenchsa$)); my @t = times; crypt($p, $h) for 1 .. $n; my @u = times; print(($u[0] + $u[1] - $t[0] - $t[1]) / $n * 1e6);',
      BENCH_PASSWORD,
      String(cryptRounds),
    ],
    { encoding: 'utf8' },
  );
  const crypt = perl.status === 0 ? Math.round(Number(perl.stdout)) : null;
  return {
    argon2idVerify: argon2id,
    sha512CryptVerify: crypt,
    argon2idToCrypt: crypt ? Math.round((argon2id / crypt) * 10) / 10 : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Results

const mean = (values) => (values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length);
const round2 = (n) => Math.round(n * 100) / 100;

/** Per class and side: saturation rate (mean over rounds), open-loop p50/p99 (mean), CPU per request, errors. */
function summariseRuns(runs) {
  const summary = { login: {}, accounting: {} };
  for (const name of Object.keys(summary)) {
    for (const key of ['A', 'A0', 'B']) {
      const closed = runs.filter((r) => r.class === name && r.side === key && r.loop === 'closed');
      if (closed.length === 0) continue;
      const open = runs.filter((r) => r.class === name && r.side === key && r.loop === 'open');
      const cpuMean = (field) => {
        const values = closed.map((r) => r.cpuUsPerRequest[field]).filter((v) => v !== null);
        return values.length === 0 ? null : Math.round(mean(values));
      };
      const byPair = {};
      for (const run of open) (byPair[run.pair] ??= []).push(run);
      summary[name][key] = {
        saturationRate: Math.round(mean(closed.map((r) => r.rate))),
        saturationRates: closed.map((r) => r.rate),
        cpuUsPerRequest: Object.fromEntries(
          ['service', 'freeradius', 'mariadb', 'total', 'generator'].map((f) => [f, cpuMean(f)]),
        ),
        openLoop: Object.fromEntries(
          Object.entries(byPair).map(([pair, list]) => [
            pair,
            {
              offered: list[0].offered,
              rate: round2(mean(list.map((r) => r.rate))),
              p50: round2(mean(list.map((r) => r.p50 ?? 0))),
              p99: round2(mean(list.map((r) => r.p99 ?? 0))),
              sustained: list.every((r) => r.sustained),
            },
          ]),
        ),
        machineBusy: round2(mean(closed.map((r) => r.machineBusy))),
        errors: [...closed, ...open].reduce((sum, r) => sum + r.errors, 0),
      };
    }
  }
  return summary;
}

function failures(report) {
  const list = [];
  const all = [
    ...report.runs.map((r) => [`${r.class} ${r.side} round ${r.round} (${r.loop} loop)`, r]),
    ['prime (A logins)', report.setup.prime],
    ['Accounting-Start A', report.setup.starts.A],
    ['Accounting-Start B', report.setup.starts.B],
  ];
  for (const [label, r] of all) {
    if (r.sent === 0 || r.errors > 0)
      list.push(`${label}: ${r.sent} sent, ${r.errors} errors ${JSON.stringify(r.codes)}`);
  }
  for (const [key, check] of Object.entries(report.dataCheck)) {
    if (check.rows !== check.sessions || check.withFinalCounters !== check.sessions) {
      list.push(
        `data ${key}: ${check.rows} rows of ${check.sessions} sessions, ${check.withFinalCounters} with the final counters`,
      );
    }
  }
  return list;
}

function describe(r) {
  const how = r.loop === 'closed' ? `${r.concurrency} in flight` : `${r.offered}/s offered`;
  const cpu = r.cpuUsPerRequest;
  return `${r.class.padEnd(10)} ${r.side.padEnd(2)} round ${r.round} ${r.loop.padEnd(6)} (${how}): ${r.rate}/s p50 ${r.p50} p99 ${r.p99} ms, errors ${r.errors}, CPU µs/req service ${cpu.service ?? '–'} FreeRADIUS ${cpu.freeradius} MariaDB ${cpu.mariadb ?? '–'}, cores busy ${Math.round(r.machineBusy * 100)} %`;
}

function markdown(report) {
  const names = {
    login: { A: 'A: service, password cache', A0: 'A: service, no cache (argon2id)', B: 'B: rlm_sql (crypt)' },
    accounting: { A: 'A: Interim-Updates in SQL', A0: 'A: over REST alone', B: 'B: rlm_sql' },
  };
  const lines = [
    '| class | side | saturation req/s (rounds) | cores busy | open loop: rate, p50 / p99 ms | CPU µs/req: service / FreeRADIUS / MariaDB = total | errors |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [cls, sides] of Object.entries(report.summary)) {
    for (const [key, s] of Object.entries(sides)) {
      const open = Object.values(s.openLoop)
        .map((o) => `${o.offered}/s: ${o.p50} / ${o.p99}${o.sustained ? '' : ' (not sustained)'}`)
        .join('; ');
      const c = s.cpuUsPerRequest;
      lines.push(
        `| ${cls} | ${names[cls][key]} | ${s.saturationRate} (${s.saturationRates.join(', ')}) | ${Math.round(s.machineBusy * 100)} % | ${open} | ${c.service ?? '–'} / ${c.freeradius} / ${c.mariadb ?? '–'} = ${c.total} | ${s.errors} |`,
      );
    }
  }
  const m = report.perLoginCpuUs;
  lines.push(
    '',
    `accountingRatioToRlmSql: ${report.accountingRatioToRlmSql} (target ≥ 0.8); every packet over REST: ${report.accountingRatioToRlmSqlRestOnly}`,
    `loginRatioToRlmSql: with the password cache ${report.loginRatioToRlmSql.withCache}, without ${report.loginRatioToRlmSql.withoutCache}`,
    `one verification alone: argon2id ${m.argon2idVerify} µs, SHA-512 crypt ${m.sha512CryptVerify ?? '–'} µs (×${m.argon2idToCrypt ?? '–'})`,
    `data: ${Object.entries(report.dataCheck)
      .map(
        ([key, c]) => `${key} ${c.rows}/${c.sessions} sessions stored, ${c.withFinalCounters} with the final counters`,
      )
      .join('; ')}`,
    `logged: FreeRADIUS errors and warnings ${Object.entries(report.problems.freeradius)
      .map(([key, p]) => `${key} ${p.lines}`)
      .join(
        ', ',
      )}; service warnings and errors ${report.problems.service.lines} (cache) and ${report.problems.serviceNoCache.lines} (no cache)`,
    `machine: ${report.machine.cpus} cores (${report.machine.cpuModel}), load ${report.machine.loadBefore.join(' ')} → ${report.machine.loadAfter.join(' ')}`,
  );
  return lines.join('\n');
}
