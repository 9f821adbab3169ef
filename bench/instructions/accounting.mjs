// Instructions one RADIUS Interim-Update costs a build of the service, counted by valgrind's callgrind
// (so the figure does not depend on what else the machine is doing). SQLite: the service and its
// database are one process, so the count holds both, the usage fold included.
//
//   node bench/instructions/accounting.mjs <checkout> <plan: 0|1> <label>
//
// <checkout> is a built working tree of this project (npm run build: it runs dist/), main's or an older
// commit's (git worktree add). It makes a database in a temp folder, a NAS and SESSIONS users (on one
// plan with 1), starts a session for each, then runs the service under callgrind: two rounds of one
// Interim-Update a session to warm up, 10 s idle (the background's rate), then ROUNDS counted rounds,
// each waiting until the usage fold has taken every flagged session. Prints one JSON line; the figure
// is irPerInterimLessIdle (the idle rate times the counted time taken off). Needs valgrind; NOVG=1 runs
// the same steps without it (counts 0), to check the set-up quickly.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { freePort } from '../lib/processes.mjs';
import { checkoutCli, sleep, stopChild, untilHealthy } from './harness.mjs';

const [dir, withPlan, label] = [process.argv[2], process.argv[3] === '1', process.argv[4]];
const require = createRequire(join(dir, 'package.json'));
const Database = require('better-sqlite3');
const work = mkdtempSync(join(tmpdir(), `acct-${label}-`));
const PORT = await freePort();
const SESSIONS = Number(process.env.SESSIONS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(work, 'db.sqlite')}`,
  PORT: String(PORT),
  LOG_LEVEL: 'error',
  USAGE_SWEEP_INTERVAL: '1',
  HOST: '127.0.0.1',
};
const cli = checkoutCli(dir, work, env);

function start(valgrind) {
  const [command, args] = valgrind
    ? [
        'valgrind',
        ['--tool=callgrind', `--callgrind-out-file=${work}/cg.out`, process.execPath, join(dir, 'dist/src/main.js')],
      ]
    : [process.execPath, [join(dir, 'dist/src/main.js')]];
  const child = spawn(command, args, { cwd: work, env, stdio: ['ignore', 'ignore', 'ignore'] });
  return child;
}
const admin = cli('token', 'create', '--name', 'admin', '--permissions', 'read,write,delete');
const radius = cli('token', 'create', '--name', 'radius', '--permissions', 'radius');
cli('nas', 'add', '--venue', 'v1', '--name', 'nas1', '--ip', '127.0.0.1', '--secret', 'a-shared-secret-of-some-length');
let service = start(false);
await untilHealthy(PORT);
async function api(method, path, body) {
  const r = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path} ${r.status} ${await r.text()}`);
  return (await r.json()).data;
}
let planId = null;
if (withPlan) {
  const plan = await api('POST', '/api/v1/plans', {
    name: 'Probe',
    venueIds: ['v1'],
    downloadRate: 5000000,
    quotaBytes: 1e12,
    quotaPeriod: 'day',
    dailyTimeSeconds: 86400,
  });
  planId = plan._id;
}
for (let i = 0; i < SESSIONS; i++) {
  await api('POST', '/api/v1/hotspot-users', {
    name: `Guest ${i}`,
    loginMethod: 'username_password',
    username: `u${i}`,
    password: 'probe-pass-1',
    venueIds: ['v1'],
    ...(planId === null ? {} : { planId }),
  });
}
const attr = (value) => ({ type: typeof value === 'number' ? 'integer' : 'string', value: [value] });
async function packet(i, status, octets) {
  const body = {
    'User-Name': attr(`u${i}`),
    'Acct-Status-Type': attr(status),
    'Acct-Session-Id': attr(`s${i}`),
    'Acct-Unique-Session-Id': attr(`probe-${i}`),
    'Calling-Station-Id': attr(
      `02-00-00-00-${(i >> 8).toString(16).padStart(2, '0')}-${(i & 255).toString(16).padStart(2, '0')}`,
    ),
    'Framed-IP-Address': attr(`10.5.${i >> 8}.${i & 255}`),
    'Acct-Input-Octets': attr(octets),
    'Acct-Output-Octets': attr(octets * 3),
    'Acct-Session-Time': attr(Math.floor(octets / 1000)),
  };
  const r = await fetch(`http://127.0.0.1:${PORT}/radius/accounting`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${radius}`,
      'content-type': 'application/json',
      'x-radius-client': 'nas1',
      'x-radius-client-ip': '127.0.0.1',
      'x-freeradius-section': 'accounting',
    },
    body: JSON.stringify(body),
  });
  if (r.status !== 204) throw new Error(`accounting ${r.status} ${await r.text()}`);
}
for (let i = 0; i < SESSIONS; i++) await packet(i, 'Start', 0);
await stopChild(service);

const db = new Database(join(work, 'db.sqlite'), { readonly: true, fileMustExist: true });
const hasPending =
  db.prepare("SELECT name FROM pragma_table_info('sessions') WHERE name = 'usage_pending'").get() !== undefined;
const pending = () =>
  hasPending ? db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE usage_pending = 1').get().n : 0;

service = start(!process.env.NOVG);
await untilHealthy(PORT);
const cgEnv = { ...process.env, HOST: '127.0.0.1' };
function instructions() {
  if (process.env.NOVG) return 0;
  const text = execFileSync('callgrind_control', ['-e', 'Ir', String(service.pid)], { encoding: 'utf8', env: cgEnv });
  return (
    [...text.matchAll(/^\s*Th\s*\d+:?\s*([\d,]+)/gm)].reduce((sum, m) => sum + Number(m[1].replace(/,/g, '')), 0) ||
    Number((/Ir:?\s*([\d,]+)/.exec(text)?.[1] ?? '0').replace(/,/g, ''))
  );
}
let octets = 1000;
async function round() {
  octets += 100000;
  for (let i = 0; i < SESSIONS; i++) await packet(i, 'Interim-Update', octets);
  for (let t = 0; t < 600 && pending() > 0; t++) await sleep(200);
}
await round(); // warm-up: JIT and caches
await round();
const idleFrom = instructions();
const idleStart = Date.now();
await sleep(10000);
const idlePerMs = (instructions() - idleFrom) / (Date.now() - idleStart);
const from = instructions();
const started = Date.now();
for (let r = 0; r < ROUNDS; r++) await round();
const elapsed = Date.now() - started;
const total = instructions() - from;
const interims = ROUNDS * SESSIONS;
console.log(
  JSON.stringify({
    label,
    interims,
    elapsedMs: elapsed,
    totalIr: total,
    idleIrPerMs: Math.round(idlePerMs),
    irPerInterim: Math.round(total / interims),
    irPerInterimLessIdle: Math.round((total - idlePerMs * elapsed) / interims),
    pendingAfter: pending(),
  }),
);
await stopChild(service);
rmSync(work, { recursive: true, force: true });
