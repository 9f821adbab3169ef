// One-off measurement of POST /api/v1/hotspot-user-batches with count 1000 on MariaDB, as built for
// production (npm run build first). Not part of `npm run bench`: its figure is recorded in
// docs/performance.md ("Batches"). Usage: node bench/batch-create.mjs [--mysql-url URL] [--runs N]
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import mysql from 'mysql2/promise';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    'mysql-url': { type: 'string', default: 'mysql://root@127.0.0.1:3306' },
    runs: { type: 'string', default: '5' },
  },
});
const TOKEN = 'hsp_bench-batches-token-0123456789abcdefghijklmnop';
const DATABASE = `bench_batches_${process.pid}`;

const port = await new Promise((resolve, reject) => {
  const server = createServer();
  server.on('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port: free } = server.address();
    server.close(() => resolve(free));
  });
});
const admin = await mysql.createConnection({ uri: args['mysql-url'] });
await admin.query(`CREATE DATABASE \`${DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
const child = spawn(process.execPath, ['dist/src/main.js'], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATABASE_URL: `${args['mysql-url'].replace(/\/$/, '')}/${DATABASE}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '0',
    WORKER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    BOOTSTRAP_TOKEN: TOKEN,
    SECRETS_KEY: 'e'.repeat(64),
    NODE_ENV: 'production',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  for (let tries = 0; ; tries += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {
      if (tries > 600) throw new Error('the service did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const load = loadavg()[0].toFixed(2);
  const times = [];
  for (let run = 0; run < Number(args.runs); run += 1) {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/hotspot-user-batches`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ venueId: 'bench-venue', count: 1000, expiresAt: '2031-01-01T00:00:00Z' }),
    });
    const elapsed = performance.now() - started;
    if (response.status !== 201) throw new Error(`answered ${response.status}: ${await response.text()}`);
    times.push(elapsed);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      cores: availableParallelism(),
      node: process.version,
      loadBefore: Number(load),
      loadAfter: Number(loadavg()[0].toFixed(2)),
      count: 1000,
      runsMs: times.map((ms) => Math.round(ms)),
      medianMs: Math.round(sorted[Math.floor(sorted.length / 2)]),
    }),
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  await admin.query(`DROP DATABASE \`${DATABASE}\``);
  await admin.end();
}
