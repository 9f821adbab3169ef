// npm run bench -- --scenario chain [--smoke]: the busiest hour of a venue chain on one box, on
// MariaDB, every RADIUS packet through a real FreeRADIUS with the generated configuration. See
// bench/README.md ("Scenario `chain`").
import { hash } from '@node-rs/argon2';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodePacket,
  encodeResponse,
  RADIUS_CODES,
  verifyRequest,
} from '../../dist/src/radius-packets/radius-packet.js';
import {
  cpuMs,
  databaseServerPid,
  freePort,
  freeUdpPorts,
  log,
  ROOT,
  rssSampler,
  startProcess,
} from '../lib/processes.mjs';
import {
  accountingAccount,
  connectMysql,
  databaseUrlOf,
  freeRadiusWithRest,
  generateRadiusConfig,
  loggedReady,
  radiusToken,
  serviceEnv,
  startFreeRadius,
} from '../lib/service.mjs';
import {
  ACCT_STATUS,
  CODES,
  newTally,
  openLoop,
  percentiles,
  RadiusSender,
  record,
  summarise,
} from '../lib/radius-load.mjs';
import {
  BENCH_PASSWORD,
  chainNases,
  EXPIRING_MODULUS,
  seedChainMysql,
  seedMysql,
  smallVenue,
  userId,
  venueOf,
} from '../seed.mjs';

const API_TOKEN = 'hsp_bench_chain_0123456789abcdefghijklmnopqrstuvwxyz';
const NAS_SECRET = 'bench-chain-shared-secret-0123';
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The p99 each class must keep for a phase to hold (ms): the API's and every RADIUS class's. */
const P99_TARGET_MS = { api: 100, radius: 100 };

/** The busiest hour at 1 ×, and how long each phase lasts. Rates are per second. */
function scenarioConfig(smoke) {
  const full = {
    users: 1_000_000,
    sessions: 200_000,
    interimSeconds: 300,
    uncachedLoginRate: 20,
    cachedLoginRate: 60,
    apiRate: 100,
    cachedUsers: 600,
    warmupSeconds: 20,
    baseSeconds: 300,
    stepSeconds: 60,
    steps: [1.5, 2, 2.5, 3, 4, 5],
    // When 1 × does not hold: what the box does carry.
    stepsDown: [0.75, 0.5, 0.25],
    // Overload: this multiple for overloadSeconds, then recoveryMultiple for recoverySeconds.
    overloadMultiple: 2,
    overloadSeconds: 60,
    recoveryMultiple: 0.5,
    recoverySeconds: 30,
  };
  if (!smoke) return full;
  return {
    ...full,
    users: 2000,
    sessions: 400,
    interimSeconds: 20,
    uncachedLoginRate: 4,
    cachedLoginRate: 6,
    apiRate: 10,
    cachedUsers: 20,
    warmupSeconds: 1,
    baseSeconds: 4,
    stepSeconds: 2,
    steps: [2],
    stepsDown: [0.5],
    overloadSeconds: 3,
    recoverySeconds: 4,
  };
}

/** What the overload phase must show (issue #38): no right password rejected, goodput, recovery. */
const OVERLOAD_TARGETS = { rightPasswordRejects: 0, goodputRatio: 0.9, recoverySeconds: 10 };
const LOGIN_CLASSES = ['loginUncached', 'loginCached'];
/** The processes that serve the load (the load generator is not one of them). */
const SERVER_PROCESSES = ['service', 'database', 'freeradius'];

/** Rates of every class at `multiple` × the busiest hour. */
function ratesAt(config, multiple) {
  return {
    interim: (multiple * config.sessions) / config.interimSeconds,
    loginUncached: multiple * config.uncachedLoginRate,
    loginCached: multiple * config.cachedLoginRate,
    api: multiple * config.apiRate,
  };
}

/** As production runs one box: the worker and both sweeps in the service, Disconnects over RADIUS. */
function chainServiceEnv(databaseUrl, port, config, metricsPort) {
  return serviceEnv({
    databaseUrl,
    port,
    token: API_TOKEN,
    METRICS_PORT: String(metricsPort),
    WORKER_ENABLED: 'true',
    UNAUTH_DISPATCHER: 'radius',
    RADIUS_INTERIM_SECONDS: String(Math.max(60, config.interimSeconds)),
  });
}

/** The service's garbage-collection time so far (s, by kind) and its event-loop delay since the last scrape, from its own metrics. */
async function runtimeFigures(metricsPort) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  // Lines as `name{labels} value`; a kind of collection that has not happened yet has no line (0).
  const value = (name, label = '') => {
    const line = text.split('\n').find((entry) => entry.startsWith(`${name}{`) && entry.includes(label));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return {
    gcSeconds: Object.fromEntries(
      ['major', 'minor', 'incremental'].map((kind) => [
        kind,
        value('nodejs_gc_duration_seconds_sum', `kind="${kind}"`),
      ]),
    ),
    eventLoopDelayMs: {
      p99: Math.round(value('nodejs_eventloop_lag_p99_seconds') * 1e4) / 10,
      max: Math.round(value('nodejs_eventloop_lag_max_seconds') * 1e4) / 10,
    },
  };
}

/**
 * The NASes' RFC 5176 listeners: one socket per NAS address on the same CoA port, each verifying
 * a Disconnect-Request with the secret and ACKing it; `received` maps User-Name to arrival time.
 */
async function startNasSimulators(nases, port) {
  const received = new Map();
  let requests = 0;
  let unverified = 0;
  const sockets = [];
  for (const nas of nases) {
    const socket = createSocket('udp4');
    socket.on('message', (data, from) => {
      requests += 1;
      const packet = decodePacket(data);
      if (packet === null || !verifyRequest(data, NAS_SECRET)) {
        unverified += 1;
        return;
      }
      const userName = packet.attributes.find((attribute) => attribute.type === 1)?.value.toString('utf8');
      if (userName !== undefined && !received.has(userName)) received.set(userName, performance.now());
      const ack = packet.code === RADIUS_CODES.coaRequest ? RADIUS_CODES.coaAck : RADIUS_CODES.disconnectAck;
      socket.send(encodeResponse(ack, packet, [], NAS_SECRET), from.port, from.address);
    });
    await new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, nas.ip, resolve);
    });
    sockets.push(socket);
  }
  return {
    received,
    counts: () => ({ requests, unverified }),
    close: () => Promise.all(sockets.map((socket) => new Promise((resolve) => socket.close(resolve)))),
  };
}

/** The CPU time (ms) of each process so far, and the bench's own. */
function cpuSnapshot(pids) {
  const own = process.cpuUsage();
  return {
    ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)])),
    loadGenerator: (own.user + own.system) / 1000,
  };
}

/** CPU used between two snapshots, as cores busy on average over `seconds`. */
function coresBusy(before, after, seconds) {
  return Object.fromEntries(
    Object.keys(after).map((name) => [
      name,
      before[name] === null || after[name] === null
        ? null
        : Math.round(((after[name] - before[name]) / 1000 / seconds) * 100) / 100,
    ]),
  );
}

/**
 * Everything a phase sends, built once from the seeded shape: each class picks its next request
 * from pools no other class touches (see bench/README.md).
 */
function trafficOf(config, online, nases, senders) {
  // Each user's NAS (its venue's) and the sender bound to that NAS's address.
  const nasOfVenue = new Map(nases.map((nas) => [nas.venue, nas]));
  const nasOf = (n) => nasOfVenue.get(venueOf(n));
  const smallVenues = nases.length - 1;

  // The API blocks or expires online users from the end of the list; their sessions then leave the Interim-Update cycle.
  const reserved = Math.min(Math.floor(online.length / 4), 40_000);
  const apiOnline = online.slice(online.length - reserved).reverse();
  const offline = new Set();
  let interimIndex = 0;
  let interimRound = 0;
  const interim = (dueAt) => {
    let n;
    for (let tries = 0; tries < online.length; tries += 1) {
      n = online[interimIndex];
      interimIndex += 1;
      if (interimIndex === online.length) {
        interimIndex = 0;
        interimRound += 1;
      }
      if (!offline.has(n)) break;
    }
    const round = interimRound + 1;
    const nas = nasOf(n);
    return senders.get(nas.venue).send(
      'acct',
      {
        'Acct-Status-Type': ACCT_STATUS['Interim-Update'],
        'User-Name': `u${n}`,
        'Acct-Session-Id': `s${n}`,
        'NAS-IP-Address': nas.ip,
        'Calling-Station-Id': macOf(n),
        'Framed-IP-Address': `10.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`,
        Class: Buffer.from(`hsp:${userId(n)}`, 'utf8'),
        'Acct-Session-Time': round * config.interimSeconds,
        'Acct-Input-Octets': round * 1_000_000,
        'Acct-Output-Octets': round * 5_000_000,
        'Event-Timestamp': Math.floor(Date.now() / 1000),
      },
      dueAt,
    );
  };

  const usersPerStride = Math.floor(config.users / 5);
  const loginUser = (residue, k) => {
    // Spread over the venues: the k-th user ≡ residue (mod 5), scattered by a multiplier prime to the count.
    for (let step = k; ; step += 1) {
      const n = 5 * ((step * 7919) % usersPerStride) + residue;
      if (n >= 1 && n <= config.users && n % 7 !== 3 && n % EXPIRING_MODULUS !== 0) return n;
    }
  };
  const login = (n, dueAt) => {
    const nas = nasOf(n);
    return senders.get(nas.venue).send(
      'auth',
      {
        'User-Name': `u${n}`,
        'User-Password': BENCH_PASSWORD,
        'NAS-IP-Address': nas.ip,
        'Calling-Station-Id': macOf(n),
        'Called-Station-Id': 'AA-BB-CC-DD-EE-FF:Guest',
        'NAS-Port-Type': 19,
      },
      dueAt,
    );
  };
  const cachedUsers = Array.from({ length: config.cachedUsers }, (_, k) => loginUser(3, k * 13));
  let uncachedNext = 0;
  let cachedNext = 0;

  const api = apiTraffic(config, apiOnline, offline, smallVenues);
  return {
    interim,
    loginUncached: (dueAt) => login(loginUser(1, uncachedNext++), dueAt),
    loginCached: (dueAt) => login(cachedUsers[cachedNext++ % cachedUsers.length], dueAt),
    cachedUsers,
    api,
  };
}

function macOf(n) {
  const hex = n.toString(16).toUpperCase().padStart(10, '0');
  return `02:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}:${hex.slice(8, 10)}`;
}

/**
 * The v1 API's share: 70 % reads (list page 1 of a venue, the hot one one time in ten; get one),
 * 30 % writes (create a guest, PUT a name, block or expire an online user, whose session the worker
 * then disconnects). Each call resolves with { kind, status, ms }.
 */
function apiTraffic(config, apiOnline, offline, smallVenues) {
  const base = `/api/v1/hotspot-users`;
  let sequence = 0;
  let onlineNext = 0;
  const disconnectsDue = new Map();
  const pick = () => {
    sequence += 1;
    const slot = sequence % 20;
    const n = 1 + Math.floor(Math.random() * config.users);
    if (slot < 7) {
      const venue = slot === 0 ? 'hot' : smallVenue(Math.floor(Math.random() * smallVenues));
      return { kind: 'list', method: 'GET', path: `${base}?venueId=${venue}`, expected: 200 };
    }
    if (slot < 14) return { kind: 'get', method: 'GET', path: `${base}/${userId(n)}`, expected: 200 };
    if (slot < 15 || slot === 19) {
      return {
        kind: 'create',
        method: 'POST',
        path: base,
        body: { name: `Chain guest ${sequence}`, loginMethod: 'guest', venueIds: [smallVenue(sequence % smallVenues)] },
        expected: 201,
      };
    }
    if (slot < 17) {
      // Not a user that expires on its own during the run: an expired user cannot be edited (409).
      let target = 5 * Math.floor(Math.random() * Math.floor(config.users / 5)) + 4;
      if (target % EXPIRING_MODULUS === 0) target -= 5;
      return {
        kind: 'put',
        method: 'PUT',
        path: `${base}/${userId(Math.max(4, target))}`,
        body: { name: `Renamed ${sequence}` },
        expected: 200,
      };
    }
    const target = apiOnline[onlineNext++ % apiOnline.length];
    offline.add(target);
    // A block is a PUT with the status (v1 has no block route); an expire has its own.
    const block = slot === 17;
    return {
      kind: block ? 'block' : 'expire',
      method: block ? 'PUT' : 'POST',
      path: `${base}/${userId(target)}${block ? '' : '/expire'}`,
      body: block ? { status: 'blocked' } : undefined,
      expected: 200,
      disconnects: `u${target}`,
    };
  };
  return {
    disconnectsDue,
    async fire(port, dueAt) {
      const request = pick();
      try {
        const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
          method: request.method,
          headers: {
            Authorization: `Bearer ${API_TOKEN}`,
            ...(request.body ? { 'Content-Type': 'application/json' } : {}),
          },
          body: request.body ? JSON.stringify(request.body) : undefined,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        const ms = performance.now() - dueAt;
        if (request.disconnects !== undefined && response.status === request.expected) {
          disconnectsDue.set(request.disconnects, performance.now());
        }
        return {
          kind: request.kind,
          code: response.status === request.expected ? 200 : response.status,
          status: response.status,
          ms,
        };
      } catch {
        return { kind: request.kind, code: null, ms: performance.now() - dueAt };
      }
    },
  };
}

/** One phase: every class at `multiple` × for `seconds`, together; per-class figures, CPU and RSS. */
async function runPhase({ config, multiple, seconds, traffic, service, pids, simulators, measured = true }) {
  const rates = ratesAt(config, multiple);
  const tallies = {
    interim: newTally('Interim-Update'),
    loginUncached: newTally('PAP login, not cached'),
    loginCached: newTally('PAP login, cached'),
    api: newTally('v1 API'),
  };
  const apiByKind = {};
  const serviceRss = rssSampler(service.pid);
  const radiusRss = rssSampler(pids.freeradius);
  const disconnectedBefore = simulators.received.size;
  const runtimeBefore = await runtimeFigures(service.metricsPort);
  const before = cpuSnapshot(pids);
  const started = performance.now();
  await Promise.all([
    openLoop(rates.interim, seconds, async (dueAt) =>
      record(tallies.interim, await traffic.interim(dueAt), CODES.accountingResponse),
    ),
    openLoop(rates.loginUncached, seconds, async (dueAt) =>
      record(tallies.loginUncached, await traffic.loginUncached(dueAt), CODES.accessAccept),
    ),
    openLoop(rates.loginCached, seconds, async (dueAt) =>
      record(tallies.loginCached, await traffic.loginCached(dueAt), CODES.accessAccept),
    ),
    openLoop(rates.api, seconds, async (dueAt) => {
      const outcome = await traffic.api.fire(service.port, dueAt);
      record(tallies.api, outcome, 200);
      apiByKind[outcome.kind] ??= newTally(outcome.kind);
      record(apiByKind[outcome.kind], outcome, 200);
    }),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  const after = cpuSnapshot(pids);
  const runtimeAfter = await runtimeFigures(service.metricsPort);
  serviceRss.stop();
  radiusRss.stop();
  if (!measured) return null;
  const classes = Object.fromEntries(
    Object.entries(tallies).map(([name, tally]) => [
      name,
      { offered: Math.round(rates[name] * 10) / 10, ...summarise(tally, elapsed) },
    ]),
  );
  // A class offered nothing (--accounting-only) neither holds nor fails a phase.
  const offeredClasses = Object.entries(classes).filter(([, figures]) => figures.offered > 0);
  const held =
    offeredClasses.every(([, figures]) => figures.errors === 0 && figures.sent > 0) &&
    offeredClasses.every(
      ([name, figures]) => figures.p99 <= (name === 'api' ? P99_TARGET_MS.api : P99_TARGET_MS.radius),
    ) &&
    offeredClasses.every(([, figures]) => figures.rate >= 0.95 * figures.offered);
  const cores = coresBusy(before, after, elapsed);
  return {
    multiple,
    seconds: Math.round(elapsed * 10) / 10,
    held,
    classes,
    apiByKind: Object.fromEntries(Object.entries(apiByKind).map(([kind, tally]) => [kind, summarise(tally, elapsed)])),
    disconnectsAcked: simulators.received.size - disconnectedBefore,
    coresBusy: cores,
    // Service, MariaDB and FreeRADIUS together, per Interim-Update answered: with --accounting-only, what accounting costs.
    cpuMsPerInterim:
      tallies.interim.answered === 0 || SERVER_PROCESSES.some((name) => cores[name] === null)
        ? null
        : Math.round(
            (SERVER_PROCESSES.reduce((sum, name) => sum + after[name] - before[name], 0) / tallies.interim.answered) *
              1000,
          ) / 1000,
    rssPeakMb: { service: serviceRss.peak, freeradius: radiusRss.peak },
    // The service's time in garbage collection per second of the phase, and its event loop's delay over the phase.
    gcShare: Object.fromEntries(
      Object.entries(runtimeAfter.gcSeconds).map(([kind, total]) => [
        kind,
        Math.round(((total - runtimeBefore.gcSeconds[kind]) / elapsed) * 1000) / 1000,
      ]),
    ),
    eventLoopDelayMs: runtimeAfter.eventLoopDelayMs,
  };
}

/** Logins accepted per second in a measured phase (every login of the scenario uses the right password). */
function acceptedLoginRate(phase) {
  return (
    LOGIN_CLASSES.reduce((sum, name) => sum + (phase.classes[name].codes[CODES.accessAccept] ?? 0), 0) / phase.seconds
  );
}

/**
 * The overload phase: every class at `overloadMultiple` × for `overloadSeconds`, then at
 * `recoveryMultiple` × for `recoverySeconds`, back to back (the second starts firing when the first
 * stops, not when its last answer came). Each request is filed under the second it was due in, from
 * the start of the phase; a request without an answer counts as slower than any target.
 */
async function runOverload({ config, traffic, service, pids, heldLoginRate }) {
  const windows = [];
  const windowOf = (dueAt, started) => {
    const index = Math.max(0, Math.floor((dueAt - started) / 1000));
    windows[index] ??= Object.fromEntries(
      ['interim', ...LOGIN_CLASSES, 'api'].map((name) => [name, { sent: 0, answered: 0, rejects: 0, samples: [] }]),
    );
    return windows[index];
  };
  const file = (name, dueAt, started, outcome, expected) => {
    const window = windowOf(dueAt, started)[name];
    window.sent += 1;
    if (outcome.code === null) {
      window.samples.push(Number.POSITIVE_INFINITY);
      return;
    }
    window.answered += 1;
    if (name !== 'api' && outcome.code === CODES.accessReject) window.rejects += 1;
    window.samples.push(outcome.code === expected ? outcome.ms : Number.POSITIVE_INFINITY);
  };
  const before = cpuSnapshot(pids);
  const started = performance.now();
  const stage = async (multiple, seconds, offsetSeconds) => {
    if (offsetSeconds > 0) await new Promise((resolve) => setTimeout(resolve, offsetSeconds * 1000));
    const rates = ratesAt(config, multiple);
    await Promise.all([
      openLoop(rates.interim, seconds, async (dueAt) =>
        file('interim', dueAt, started, await traffic.interim(dueAt), CODES.accountingResponse),
      ),
      openLoop(rates.loginUncached, seconds, async (dueAt) =>
        file('loginUncached', dueAt, started, await traffic.loginUncached(dueAt), CODES.accessAccept),
      ),
      openLoop(rates.loginCached, seconds, async (dueAt) =>
        file('loginCached', dueAt, started, await traffic.loginCached(dueAt), CODES.accessAccept),
      ),
      openLoop(rates.api, seconds, async (dueAt) => {
        const outcome = await traffic.api.fire(service.port, dueAt);
        file('api', dueAt, started, outcome.code === 200 ? outcome : { ...outcome, code: null }, 200);
      }),
    ]);
  };
  await Promise.all([
    stage(config.overloadMultiple, config.overloadSeconds, 0),
    stage(config.recoveryMultiple, config.recoverySeconds, config.overloadSeconds),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  const coresDuring = coresBusy(before, cpuSnapshot(pids), elapsed);
  const timeline = Array.from({ length: windows.length }, (_, second) => {
    const window = windows[second] ?? {};
    return Object.fromEntries(
      Object.entries(window).map(([name, figures]) => [
        name,
        {
          sent: figures.sent,
          answered: figures.answered,
          rejects: figures.rejects,
          p99: percentiles(figures.samples).p99,
        },
      ]),
    );
  });
  const overloadWindows = timeline.slice(0, config.overloadSeconds);
  const recoveryWindows = timeline.slice(config.overloadSeconds, config.overloadSeconds + config.recoverySeconds);
  const acceptedDuringOverload = overloadWindows.reduce(
    (sum, window) =>
      sum +
      LOGIN_CLASSES.reduce((inner, name) => inner + ((window[name]?.answered ?? 0) - (window[name]?.rejects ?? 0)), 0),
    0,
  );
  const overloadLoginRate = acceptedDuringOverload / config.overloadSeconds;
  // Seconds after the drop until every class's p99 stayed at or under the target (null: not within the run).
  const slow = recoveryWindows.map((window) =>
    Object.values(window).some((figures) => figures.sent > 0 && !(figures.p99 <= P99_TARGET_MS.radius)),
  );
  const lastSlow = slow.lastIndexOf(true);
  const recoverySeconds = lastSlow === -1 ? 0 : lastSlow === slow.length - 1 ? null : lastSlow + 1;
  const rightPasswordRejects = timeline.reduce(
    (sum, window) => sum + LOGIN_CLASSES.reduce((inner, name) => inner + (window[name]?.rejects ?? 0), 0),
    0,
  );
  const goodputRatio = heldLoginRate > 0 ? Math.round((overloadLoginRate / heldLoginRate) * 100) / 100 : null;
  return {
    multiple: config.overloadMultiple,
    seconds: config.overloadSeconds,
    recoveryMultiple: config.recoveryMultiple,
    recoveryWindowSeconds: config.recoverySeconds,
    rightPasswordRejects,
    heldLoginRate: Math.round(heldLoginRate * 10) / 10,
    overloadLoginRate: Math.round(overloadLoginRate * 10) / 10,
    goodputRatio,
    recoverySeconds,
    met:
      rightPasswordRejects === OVERLOAD_TARGETS.rightPasswordRejects &&
      goodputRatio !== null &&
      goodputRatio >= OVERLOAD_TARGETS.goodputRatio &&
      recoverySeconds !== null &&
      recoverySeconds <= OVERLOAD_TARGETS.recoverySeconds,
    coresBusy: coresDuring,
    shed: await shedFigures(service.metricsPort),
    timeline,
  };
}

/** What the service's admission and work classes did, from its metrics: requests shed, deadlines missed, work refused. */
async function shedFigures(metricsPort) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const series = (name) =>
    Object.fromEntries(
      text
        .split('\n')
        .filter((line) => line.startsWith(`${name}{`))
        .map((line) => [
          line.slice(name.length + 1, line.indexOf('}')).replace(/,?role="service"/, ''),
          Number(line.slice(line.lastIndexOf(' ') + 1)),
        ]),
    );
  const radiusCalls = Object.fromEntries(
    Object.entries(series('hotspot_http_request_duration_seconds_count')).filter(([labels]) =>
      labels.includes('/radius/'),
    ),
  );
  return {
    admissionShed: series('hotspot_admission_shed_total'),
    deadlineExpired: series('hotspot_deadline_expired_total'),
    workRejected: series('hotspot_work_rejected_total'),
    // Since the service started: every REST call FreeRADIUS made, by route and status class.
    radiusCalls,
  };
}

function formatOverload(overload) {
  const line = (window, second) =>
    `| ${second} | ${['interim', ...LOGIN_CLASSES, 'api']
      .map((name) => `${window[name]?.answered ?? 0}/${window[name]?.sent ?? 0} ${window[name]?.p99 ?? '–'}`)
      .join(' | ')} |`;
  return [
    `overload: ${overload.multiple} × for ${overload.seconds} s, then ${overload.recoveryMultiple} × — right passwords rejected ${overload.rightPasswordRejects}, logins accepted ${overload.overloadLoginRate}/s against ${overload.heldLoginRate}/s held (goodput ${overload.goodputRatio}), p99 back under ${P99_TARGET_MS.radius} ms ${overload.recoverySeconds === null ? 'not within the run' : `${overload.recoverySeconds} s after the drop`}: ${overload.met ? 'met' : 'NOT met'}`,
    `shed: ${JSON.stringify(overload.shed)}`,
    '',
    '| s | Interim-Update answered/sent p99 | login uncached | login cached | API |',
    '| --- | --- | --- | --- | --- |',
    ...overload.timeline.map(line),
  ].join('\n');
}

/** How long after the API's answer each blocked or expired user's Disconnect-Request reached its NAS (ms). */
function disconnectDelays(traffic, simulators) {
  const delays = [];
  for (const [userName, answeredAt] of traffic.api.disconnectsDue) {
    const arrived = simulators.received.get(userName);
    if (arrived !== undefined) delays.push(Math.max(0, arrived - answeredAt));
  }
  return delays;
}

async function jobOutcomes(connection) {
  const [rows] = await connection.query('SELECT status, COUNT(*) AS count FROM unauth_jobs GROUP BY status');
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

function formatPhase(phase) {
  const lines = [
    `| ${phase.multiple} × | class | offered/s | achieved/s | p50 ms | p99 ms | errors |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const figures of Object.values(phase.classes)) {
    lines.push(
      `| | ${figures.name} | ${figures.offered} | ${figures.rate} | ${figures.p50} | ${figures.p99} | ${figures.errors} |`,
    );
  }
  const cores = Object.entries(phase.coresBusy)
    .map(([name, value]) => `${name} ${value ?? '–'}`)
    .join(', ');
  lines.push(
    '',
    `${phase.held ? 'held' : 'NOT held'}; cores busy: ${cores}; CPU per Interim-Update ${phase.cpuMsPerInterim ?? '–'} ms; RSS peak: service ${phase.rssPeakMb.service} MB, FreeRADIUS ${phase.rssPeakMb.freeradius} MB; Disconnects ACKed: ${phase.disconnectsAcked}; service GC ${JSON.stringify(phase.gcShare)} s/s, event-loop delay p99 ${phase.eventLoopDelayMs.p99} ms, max ${phase.eventLoopDelayMs.max} ms`,
  );
  return lines.join('\n');
}

export default async function runChain({
  smoke,
  mysqlUrl,
  keep,
  reuse,
  duration,
  restAccounting,
  skipSteps,
  accountingOnly,
}) {
  const config = {
    ...scenarioConfig(smoke),
    ...(duration === undefined ? {} : { baseSeconds: duration }),
    // 1 × and the overload phase only (the steps take a minute each).
    ...(skipSteps || accountingOnly ? { steps: [], stepsDown: [] } : {}),
    // The Interim-Updates alone, at 1 ×: the CPU per Interim-Update is then what accounting costs.
    ...(accountingOnly ? { uncachedLoginRate: 0, cachedLoginRate: 0, apiRate: 0, cachedUsers: 0 } : {}),
  };
  // Its sessions and expiries are seeded relative to the run: a kept database cannot serve again.
  if (reuse !== undefined) throw new Error('--reuse does not apply to the chain scenario');
  if (!freeRadiusWithRest()) {
    if (!smoke)
      throw new Error(
        'the chain scenario needs FreeRADIUS 3.2 with rlm_rest (apt-get install freeradius freeradius-rest)',
      );
    log('chain: FreeRADIUS with rlm_rest is not installed: skipped');
    return;
  }
  const admin = await connectMysql(mysqlUrl, { connectTimeout: 2000 }).catch(() => null);
  if (admin === null) {
    if (!smoke) throw new Error(`the chain scenario needs MariaDB: not reachable at ${mysqlUrl}`);
    log(`chain: MariaDB not reachable at ${mysqlUrl}: skipped`);
    return;
  }
  const name = `hotspot_chain_${process.pid}`;
  const databaseUrl = databaseUrlOf(mysqlUrl, name);
  const folder = mkdtempSync(join(tmpdir(), 'hotspot-chain-'));
  const stops = [];
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version, loadBefore: loadavg() };
  let failed = false;
  try {
    const coaPort = await freePort();
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    log(`chain: migrating ${name}`);
    const migratePort = await freePort();
    const migrating = await startProcess('service', ['dist/src/main.js'], migratePort, {
      ...chainServiceEnv(databaseUrl, migratePort, config, await freePort()),
      WORKER_ENABLED: 'false',
    });
    await migrating.stop();
    log(`chain: seeding ${config.users} users, ${nasCount(config)} NASes and ${config.sessions} sessions`);
    const seedStart = Date.now();
    const seeding = await connectMysql(databaseUrl);
    let seeded;
    try {
      await seedMysql(seeding, config.users, await hash(BENCH_PASSWORD, ARGON2));
      seeded = await seedChainMysql(seeding, {
        users: config.users,
        sessions: config.sessions,
        secret: NAS_SECRET,
        coaPort,
        interimSeconds: config.interimSeconds,
        expiryWindowSeconds: config.baseSeconds + config.steps.length * config.stepSeconds,
      });
    } finally {
      await seeding.end();
    }
    const seedSeconds = (Date.now() - seedStart) / 1000;
    log(`chain: seeded in ${seedSeconds.toFixed(1)} s`);

    const bufferPool = await sizeBufferPool(admin, name, smoke);
    stops.push(() => bufferPool.restore());
    const token = radiusToken(databaseUrl, `chain-radius-${Date.now()}`);
    const port = await freePort();
    // Metrics on, as production runs it; the scenario reads the service's GC time and event-loop delay from them.
    const metricsPort = await freePort();
    const started = await startProcess(
      'service',
      ['dist/src/main.js'],
      port,
      chainServiceEnv(databaseUrl, port, config, metricsPort),
    );
    const service = { ...started, metricsPort };
    stops.push(() => started.stop());
    const [authPort, acctPort] = await freeUdpPorts(2);
    const raddb = join(folder, 'raddb');
    // As an operator on MariaDB runs it: FreeRADIUS records the common Interim-Update itself, unless --rest-accounting.
    const accounting = restAccounting ? null : await accountingAccount(admin, databaseUrl);
    if (accounting !== null) stops.push(() => accounting.drop());
    generateRadiusConfig(databaseUrl, {
      accountingDbUrl: accounting?.url,
      out: raddb,
      servicePort: port,
      token,
      authPort,
      acctPort,
      listenAddress: '127.0.0.1',
    });
    const radius = await startFreeRadius('(generated)', raddb, loggedReady(raddb));
    stops.push(() => radius.stop());
    const simulators = await startNasSimulators(seeded.nases, coaPort);
    stops.push(() => simulators.close());
    const senders = new Map();
    for (const nas of seeded.nases) {
      senders.set(
        nas.venue,
        await RadiusSender.open({
          address: nas.ip,
          server: { host: '127.0.0.1', authPort, acctPort },
          secret: NAS_SECRET,
        }),
      );
    }
    stops.push(() => Promise.all([...senders.values()].map((sender) => sender.close())));

    const pids = { service: service.pid, database: databaseServerPid(), freeradius: radius.pid };
    const traffic = trafficOf(config, seeded.online, seeded.nases, senders);
    const connection = await connectMysql(databaseUrl);
    stops.push(() => connection.end());

    // Warm-up: the cached users log in once (their passwords verified, so later logins are cache hits), then a short unmeasured run.
    log(`chain: warming up (${config.cachedUsers} logins, then ${config.warmupSeconds} s at 0.5 ×)`);
    await Promise.all(traffic.cachedUsers.map((_, k) => traffic.loginCached(performance.now() + k)));
    await runPhase({
      config,
      multiple: 0.5,
      seconds: config.warmupSeconds,
      traffic,
      service,
      pids,
      simulators,
      measured: false,
    });

    const phases = [];
    log(`chain: 1 × for ${config.baseSeconds} s`);
    phases.push(
      await runPhase({ config, multiple: 1, seconds: config.baseSeconds, traffic, service, pids, simulators }),
    );
    process.stdout.write(`\n${formatPhase(phases[0])}\n`);
    // Up in steps while each holds; when 1 × does not, down until one does.
    for (const multiple of phases[0].held ? config.steps : config.stepsDown) {
      log(`chain: ${multiple} × for ${config.stepSeconds} s`);
      const phase = await runPhase({
        config,
        multiple,
        seconds: config.stepSeconds,
        traffic,
        service,
        pids,
        simulators,
      });
      phases.push(phase);
      process.stdout.write(`\n${formatPhase(phase)}\n`);
      if (phase.held !== phases[0].held) break;
    }
    const heldPhases = phases.filter((phase) => phase.held);
    // The highest login rate the box held; when no phase held, the highest it achieved.
    const heldLoginRate = Math.max(0, ...(heldPhases.length > 0 ? heldPhases : phases).map(acceptedLoginRate));
    if (!accountingOnly) {
      log(
        `chain: overload, ${config.overloadMultiple} × for ${config.overloadSeconds} s then ${config.recoveryMultiple} × for ${config.recoverySeconds} s`,
      );
    }
    const overload = accountingOnly ? null : await runOverload({ config, traffic, service, pids, heldLoginRate });
    if (overload !== null) process.stdout.write(`\n${formatOverload(overload)}\n`);
    // The last Disconnects of the run: bounded wait for the worker to deliver them.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && simulators.received.size < traffic.api.disconnectsDue.size) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const delays = disconnectDelays(traffic, simulators);
    // The largest multiple held; 0 when none was.
    const headroom = phases
      .filter((phase) => phase.held)
      .reduce((largest, phase) => Math.max(largest, phase.multiple), 0);
    const [[sessionCounts]] = await connection.query(
      "SELECT SUM(status = 'active') AS active, SUM(status <> 'active') AS ended, SUM(input_octets > 0) AS updated FROM sessions",
    );
    const report = {
      date: new Date().toISOString(),
      mode: smoke ? 'smoke' : 'full',
      machine: { ...machine, loadAfter: loadavg() },
      config: { ...config, accounting: accounting === null ? 'rest' : 'freeradius-sql', accountingOnly },
      plan: seeded.plan,
      seedSeconds,
      database: bufferPool.figures,
      nases: seeded.nases.length,
      targets: { p99Ms: P99_TARGET_MS, headroom: 1.5, overload: OVERLOAD_TARGETS },
      phases,
      headroom,
      overload,
      disconnects: {
        requested: traffic.api.disconnectsDue.size,
        acked: delays.length,
        delayMs: percentiles(delays),
        nasRequests: simulators.counts(),
        jobs: await jobOutcomes(connection),
      },
      sessionsAtEnd: {
        active: Number(sessionCounts.active),
        ended: Number(sessionCounts.ended),
        updated: Number(sessionCounts.updated),
        total: Number(sessionCounts.active) + Number(sessionCounts.ended),
      },
    };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    const file = join(
      ROOT,
      'bench/results',
      `chain${restAccounting ? '-rest-accounting' : ''}${accountingOnly ? '-accounting-only' : ''}${smoke ? '-smoke' : ''}.json`,
    );
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(
      `\nheadroom: ${headroom} × (target ≥ 1.5 ×); Disconnects: ${delays.length} of ${traffic.api.disconnectsDue.size} ACKed, delay p50 ${report.disconnects.delayMs.p50} ms, p99 ${report.disconnects.delayMs.p99} ms\nwritten: ${file}\n`,
    );
    const base = phases[0];
    const problems = Object.values(base.classes)
      .filter((figures) => figures.offered > 0 && (figures.sent === 0 || figures.errors > 0))
      .map(
        (figures) => `${figures.name}: ${figures.sent} sent, ${figures.errors} errors ${JSON.stringify(figures.codes)}`,
      );
    if (report.disconnects.requested > 0 && delays.length === 0) problems.push('no Disconnect-Request reached a NAS');
    // Overload may cost answers (a NAS retries those), never a guest told a right password is wrong.
    if (overload !== null && overload.rightPasswordRejects > 0) {
      problems.push(`overload: ${overload.rightPasswordRejects} right passwords answered Access-Reject`);
    }
    // Interim-Updates that matched no seeded session would have opened new ones: the seeded keys must be FreeRADIUS's.
    if (report.sessionsAtEnd.updated === 0 || report.sessionsAtEnd.total !== config.sessions) {
      problems.push(`Interim-Updates did not land on the seeded sessions: ${JSON.stringify(report.sessionsAtEnd)}`);
    }
    // A smoke run's rates are far below any limit: an error there is a broken path. In a full run
    // errors under load are what the run measures (the phase is then not held).
    if (problems.length > 0 && smoke) {
      failed = true;
      process.stderr.write(`\nFAILED at 1 ×:\n${problems.join('\n')}\n`);
    } else if (problems.length > 0) {
      process.stdout.write(`\nat 1 ×:\n${problems.join('\n')}\n`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(folder, { recursive: true, force: true });
    if (keep) log(`chain: kept the database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
  }
  if (failed) process.exitCode = 1;
}

/**
 * MariaDB as an operator would size it for this data: InnoDB's buffer pool (128 MB by default) at
 * least the database's data and indexes, rounded up to a whole GB, for the run (SET GLOBAL; the
 * previous size is restored at the end). A smaller pool turns every Interim-Update into disk reads.
 * Left as it is in smoke runs.
 */
async function sizeBufferPool(admin, name, smoke) {
  const [[{ size: previous }]] = await admin.query('SELECT @@innodb_buffer_pool_size AS size');
  const [[{ bytes }]] = await admin.query(
    'SELECT SUM(data_length + index_length) AS bytes FROM information_schema.tables WHERE table_schema = ?',
    [name],
  );
  const gigabyte = 1024 ** 3;
  const wanted = Math.ceil(Number(bytes) / gigabyte) * gigabyte;
  const raise = !smoke && Number(previous) < wanted;
  if (raise) {
    log(
      `chain: InnoDB buffer pool ${Number(previous) / 1024 ** 2} MB → ${wanted / 1024 ** 2} MB for the run (data and indexes: ${Math.round(Number(bytes) / 1024 ** 2)} MB)`,
    );
    await admin.query('SET GLOBAL innodb_buffer_pool_size = ?', [wanted]);
  }
  return {
    figures: {
      dataAndIndexMb: Math.round(Number(bytes) / 1024 ** 2),
      bufferPoolMb: (raise ? wanted : Number(previous)) / 1024 ** 2,
    },
    async restore() {
      if (raise) await admin.query('SET GLOBAL innodb_buffer_pool_size = ?', [Number(previous)]);
    },
  };
}

function nasCount(config) {
  return chainNases(config.users).length;
}
