import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The project folder; the compiled entry points live under dist/ there. */
export const ROOT = resolve(process.cwd());

/** Newest modification time (ms) of the files under `dir` whose names match `include`. */
function newestMtime(dir: string, include: (name: string) => boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path, include));
    else if (include(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Compiles the project (`tsc -p tsconfig.build.json`) when an entry point is missing or older than a source file. */
export function ensureBuilt(entries: readonly string[]): void {
  const built = (() => {
    try {
      return Math.min(...entries.map((entry) => statSync(entry).mtimeMs));
    } catch {
      return 0;
    }
  })();
  const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.spec.ts');
  const sources = Math.max(
    newestMtime(join(ROOT, 'src'), isSource),
    newestMtime(join(ROOT, 'migrations'), isSource),
    statSync(join(ROOT, 'tsconfig.json')).mtimeMs,
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  if (built > sources) {
    writeBuildInfo();
    return;
  }
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
  writeBuildInfo();
}

/**
 * As npm run build does: the commit the build was made from, for the version the service shows. Also
 * after a commit that changed no source, so that the build, current, names the checkout's commit.
 */
function writeBuildInfo(): void {
  const info = spawnSync(process.execPath, [join(ROOT, 'scripts/build-info.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (info.status !== 0) throw new Error(`build-info failed:\n${info.stdout}${info.stderr}`);
}

/** The commit of the checkout (git rev-parse HEAD), or null outside a git checkout. */
export function checkoutCommit(): string | null {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return git.status === 0 ? git.stdout.trim() : null;
}
