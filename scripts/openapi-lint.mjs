// `npm run openapi:lint`: the OpenAPI document exactly as the service serves it (/api/docs-json, set up
// by the app's own setUpOpenApi), checked by Redocly's `lint` with the rules of redocly.yaml.
// Runs the compiled code: `npm run build` after changing sources (the script says so when needed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.TZ = 'UTC';

const { createApp } = await import(join(ROOT, 'dist/src/app.setup.js'));
const { loadConfig } = await import(join(ROOT, 'dist/src/config/configuration.js'));

// A throwaway in-memory database, nothing in the background, quiet logs.
const app = await createApp(
  loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    BOOTSTRAP_TOKEN: `lint_${'x'.repeat(40)}`,
    LOG_LEVEL: 'error',
    WORKER_ENABLED: 'false',
    EXPIRY_SWEEP_INTERVAL: '0',
  }),
);
let document;
try {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address();
  const response = await fetch(`http://127.0.0.1:${port}/api/docs-json`);
  if (!response.ok) throw new Error(`/api/docs-json answered ${response.status}`);
  document = await response.text();
} finally {
  await app.close();
}

const dir = mkdtempSync(join(tmpdir(), 'hotspot-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  // Indented, so that the line numbers in the report point somewhere readable.
  writeFileSync(file, `${JSON.stringify(JSON.parse(document), null, 2)}\n`);
  const redocly = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--config', join(ROOT, 'redocly.yaml'), file],
    { cwd: ROOT, stdio: 'inherit' },
  );
  process.exitCode = redocly.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
