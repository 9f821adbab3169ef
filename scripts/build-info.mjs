// Writes dist/build-info.json: the git commit the build was made from, when git knows it, so the
// service can say which build is running (hotspot --version, the start-up line, /healthz, the
// X-Service-Version header). Run after each compilation (npm run build, scripts/build-state.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function writeBuildInfo() {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', timeout: 5000 });
  const output = git.status === 0 ? git.stdout.trim() : '';
  const commit = /^[0-9a-f]{7,64}$/.test(output) ? output : null;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  writeFileSync(join(ROOT, 'dist', 'build-info.json'), `${JSON.stringify({ commit })}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) writeBuildInfo();
