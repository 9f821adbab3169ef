// Instructions one console dashboard page (GET /admin) costs a build of the service, counted by
// valgrind's callgrind over the whole process on SQLite (the service and its database are one process).
//
//   node bench/instructions/dashboard.mjs <checkout> <label>
//
// <checkout> is a built working tree of this project (npm run build: it runs dist/), main's or an older
// commit's (git worktree add). It makes a database in a temp folder with USERS users (100,000), all in
// the bench's hot venue, and an operator of that venue (read permission) through the CLI, signed in
// through the console's forms (its one-time password changed first, with the form's token when the
// build has one). Then it runs the service under callgrind with V8's --single-threaded, so garbage
// collection and compilation run on the main thread instead of worker threads whose share varies from
// run to run: WARMUP pages (400), 10 s idle (the background's rate), then PAGES pages (2,000) one after
// another, each checked to be the dashboard. Prints one JSON line; the figure is irPerPage, over all
// threads. Timers run by the clock add more per page when valgrind runs slower, so compare builds run
// side by side (at the same time); irPerPageLessIdle takes off an idle rate measured before the pages,
// which varies too much to rely on (docs/performance.md).
// KEEP=1 keeps the temp folder, whose cg.out.<pid>.1 is the callgrind profile of the counted pages
// (callgrind_annotate). NOVG=1 runs the same steps without valgrind (counts 0), to check the set-up.
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { signInToConsole } from '../lib/console-session.mjs';
import { freePort } from '../lib/processes.mjs';
import { BENCH_PASSWORD, HOT_VENUE, seedSqlite } from '../seed.mjs';
import { checkoutCli, sleep, stopChild, untilHealthy } from './harness.mjs';

const [dir, label] = [process.argv[2], process.argv[3]];
const require = createRequire(join(dir, 'package.json'));
const Database = require('better-sqlite3');
const { hash } = require('@node-rs/argon2');
const work = mkdtempSync(join(tmpdir(), `dash-${label}-`));
const PORT = await freePort();
const USERS = Number(process.env.USERS ?? 100000);
const WARMUP = Number(process.env.WARMUP ?? 400);
const PAGES = Number(process.env.PAGES ?? 2000);
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(work, 'db.sqlite')}`,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  SECRETS_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  WORKER_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
  // Load shedding measures latency, which valgrind multiplies: off, as in the bench.
  SHED_PAGES_DELAY_MS: '0',
  SHED_WRITES_DELAY_MS: '0',
  // The page is measured, not the enrolment of a second factor.
  OPERATORS_REQUIRE_2FA: 'false',
};
const cli = checkoutCli(dir, work, env);
const base = `http://127.0.0.1:${PORT}`;

function start(valgrind) {
  const node = [process.execPath, '--single-threaded', join(dir, 'dist/src/main.js')];
  const [command, args] = valgrind
    ? [
        'valgrind',
        [
          '--tool=callgrind',
          '--smc-check=all-non-file',
          `--callgrind-out-file=${work}/cg.out.%p`,
          `--log-file=${work}/valgrind.log`,
          ...node,
        ],
      ]
    : [node[0], node.slice(1)];
  return spawn(command, args, { cwd: work, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

// Migrated by a first start, then seeded.
let service = start(false);
await untilHealthy(PORT);
await stopChild(service);
const db = new Database(join(work, 'db.sqlite'));
seedSqlite(db, USERS, await hash(BENCH_PASSWORD), { allHot: true });
db.close();
const email = 'dashboard@bench.example';
const created = JSON.parse(
  cli(
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
  ),
);

service = start(!process.env.NOVG);
await untilHealthy(PORT);
// The form's token is sent when the build's password form has one (builds before #41's had none).
const cookie = await signInToConsole(base, email, created.oneTimePassword, { formToken: 'optional' });

// Every seventh seeded user is blocked (bench/seed.mjs), the rest active.
const active = USERS - Math.floor((USERS + 4) / 7);
const marker = `data-figure="users-active">${active}<`;
async function page() {
  const r = await fetch(`${base}/admin?venueId=${HOT_VENUE}`, { headers: { cookie } });
  const body = await r.text();
  if (r.status !== 200 || !body.includes(marker))
    throw new Error(`not the dashboard: ${r.status} ${body.slice(0, 300)}`);
}
const cgEnv = { ...process.env, HOST: '127.0.0.1' };
const callgrind = (...args) =>
  execFileSync('callgrind_control', [...args, String(service.pid)], { encoding: 'utf8', env: cgEnv });
/** Instructions so far: all threads, and the first (main) thread. */
function instructions() {
  if (process.env.NOVG) return { all: 0, main: 0 };
  const threads = [...callgrind('-e', 'Ir').matchAll(/^\s*Th\s*\d+:?\s*([\d,]+)/gm)].map((m) =>
    Number(m[1].replace(/,/g, '')),
  );
  if (threads.length === 0) throw new Error('no counts from callgrind_control');
  return { all: threads.reduce((sum, n) => sum + n, 0), main: threads[0] };
}
for (let i = 0; i < WARMUP; i++) await page(); // JIT and caches
if (!process.env.NOVG) callgrind('--zero'); // the profile kept (KEEP=1) is of what follows
const idleFrom = instructions();
const idleStart = Date.now();
await sleep(10000);
const idleTo = instructions();
const idleMs = Date.now() - idleStart;
const idlePerMs = { all: (idleTo.all - idleFrom.all) / idleMs, main: (idleTo.main - idleFrom.main) / idleMs };
const from = instructions();
const started = Date.now();
for (let i = 0; i < PAGES; i++) await page();
const elapsed = Date.now() - started;
const to = instructions();
if (!process.env.NOVG && process.env.KEEP) callgrind('--dump');
const per = (key) => Math.round((to[key] - from[key] - idlePerMs[key] * elapsed) / PAGES);
console.log(
  JSON.stringify({
    label,
    users: USERS,
    pages: PAGES,
    elapsedMs: elapsed,
    threads: process.env.NOVG ? 0 : callgrind('-e', 'Ir').match(/^\s*Th\s*\d+/gm).length,
    idleIrPerMs: Math.round(idlePerMs.all),
    irPerPage: Math.round((to.all - from.all) / PAGES),
    irPerPageLessIdle: per('all'),
    mainIrPerPageLessIdle: per('main'),
  }),
);
await stopChild(service);
if (process.env.KEEP) console.error(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
