import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which build is running: the package's version and, when known, the git commit it was built from. */
export interface ServiceVersion {
  version: string;
  /** Full commit hash; null when unknown (no git at build time, or not set by the image build). */
  commit: string | null;
}

/** On every HTTP answer: the one-line version (versionLine). */
export const SERVICE_VERSION_HEADER = 'X-Service-Version';

/** Written into dist/ by scripts/build-info.mjs when the sources are compiled. */
export const BUILD_INFO_FILE = 'build-info.json';
const COMMIT_PATTERN = /^[0-9a-f]{7,64}$/;
/** How much of the commit the one-line form shows (as git's abbreviations do, with room to grow). */
const SHORT_COMMIT_LENGTH = 12;

let cached: ServiceVersion | null = null;

/**
 * Read once per process: the version from package.json, the commit from SERVICE_COMMIT (the image
 * build sets it) or else from the build-info file beside a compiled build. Sources run in place
 * (tests) have no commit unless SERVICE_COMMIT says so: a build-info file there may be older.
 */
export function serviceVersion(env: NodeJS.ProcessEnv = process.env): ServiceVersion {
  if (cached !== null && env === process.env) return cached;
  const root = packageRoot();
  const version = readPackageVersion(root);
  const fromEnv = env.SERVICE_COMMIT?.trim().toLowerCase();
  const commit = fromEnv !== undefined && COMMIT_PATTERN.test(fromEnv) ? fromEnv : builtCommit(root);
  const result = { version, commit };
  if (env === process.env) cached = result;
  return result;
}

/** One line: `0.1.0+1a2b3c4d5e6f` (semver build metadata), or `0.1.0` without a commit. */
export function versionLine({ version, commit }: ServiceVersion): string {
  return commit === null ? version : `${version}+${commit.slice(0, SHORT_COMMIT_LENGTH)}`;
}

/** The folder of the service's package.json, found from this module upwards (src/ or dist/src/). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return dir;
}

function readPackageVersion(root: string): string {
  try {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' && version !== '' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

function builtCommit(root: string): string | null {
  const compiled = fileURLToPath(import.meta.url).startsWith(join(root, 'dist'));
  if (!compiled) return null;
  try {
    const { commit } = JSON.parse(readFileSync(join(root, 'dist', BUILD_INFO_FILE), 'utf8')) as { commit?: unknown };
    return typeof commit === 'string' && COMMIT_PATTERN.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
