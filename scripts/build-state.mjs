// Whether dist/ holds a build of the current sources, compared by modification times (a few ms).
//
//   node scripts/build-state.mjs --build       compiles when the build is missing or older than a source
//                                               (`prepare`, so npm install / npm ci build; `prestart`)
//   node --import ./scripts/build-state.mjs dist/src/cli/main.js …
//                                               stops with a message instead of running a missing or
//                                               stale build (the command line and worker npm scripts)
//
// Without src/ (a built copy, or the Docker build stage before the sources are copied) it does nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBuildInfo } from './build-info.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = ['dist/src/main.js', 'dist/src/worker.js', 'dist/src/cli/main.js'].map((entry) => join(ROOT, entry));

/** The newest file that tsconfig.build.json compiles, or a configuration it reads: [path, mtime]. */
function newestSource() {
  let newest = ['', 0];
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        // Test helpers are not part of the build.
        if (path !== join(ROOT, 'src/testing')) visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        const mtime = statSync(path).mtimeMs;
        if (mtime > newest[1]) newest = [path, mtime];
      }
    }
  };
  visit(join(ROOT, 'src'));
  visit(join(ROOT, 'migrations'));
  for (const config of ['tsconfig.json', 'tsconfig.build.json']) {
    const mtime = statSync(join(ROOT, config)).mtimeMs;
    if (mtime > newest[1]) newest = [join(ROOT, config), mtime];
  }
  return newest;
}

/** null when `entries` are built from the current sources, else why not. */
function staleness(entries) {
  if (!existsSync(join(ROOT, 'src'))) return null;
  const missing = entries.find((entry) => !existsSync(entry));
  if (missing !== undefined) return `there is no build (${relative(ROOT, missing)} is missing)`;
  const built = Math.min(...entries.map((entry) => statSync(entry).mtimeMs));
  const [source, changed] = newestSource();
  return changed > built ? `${relative(ROOT, source)} changed after the last build` : null;
}

const runAsScript = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (runAsScript) {
  if (process.argv[2] !== '--build') {
    process.stderr.write('usage: node scripts/build-state.mjs --build\n');
    process.exit(2);
  }
  const reason = staleness(ENTRIES);
  if (reason !== null) {
    process.stderr.write(`Compiling the TypeScript sources to dist/ (${reason})…\n`);
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    if (tsc.status === 0) writeBuildInfo();
    process.exit(tsc.status ?? 1);
  }
} else {
  // A script outside dist/ (openapi-lint.mjs) loads the whole build: check every entry, not the script.
  const entry = process.argv[1] === undefined ? undefined : resolve(process.argv[1]);
  const built = entry !== undefined && entry.startsWith(join(ROOT, 'dist') + sep);
  const reason = staleness(built ? [entry] : ENTRIES);
  if (reason !== null) {
    process.stderr.write(
      `This command runs the compiled code in dist/, but ${reason}.\n` +
        'Run `npm run build` first (npm install does it too), then try again.\n',
    );
    process.exit(1);
  }
}
