import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import type { CliRuntime } from '../../src/cli/command.js';
import { Clock } from '../../src/common/clock.js';
import type { CliRun } from '../../src/testing/cli.js';
import { ROOT } from './build.js';

export { runCli, type CliRun } from '../../src/testing/cli.js';

/** The compiled `hotspot` executable (package.json "bin"). */
export const CLI_MAIN = join(ROOT, 'dist/src/cli/main.js');

/**
 * The services of an application context that is already running (a test app's), instead of a
 * context booted per command: main() runs as the executable runs it, on the test app's database.
 */
export function contextRuntime(context: Pick<INestApplicationContext, 'get'>): CliRuntime {
  return {
    now: () => context.get(Clock).now(),
    use: (need, work) => work(need.resolve(context)),
  };
}

/**
 * `node dist/src/cli/main.js …argv` as a separate process with only `env` (and PATH) as its
 * environment, run in `cwd` so no .env of the project is read. Build first (ensureBuilt).
 */
export function spawnCli(env: Record<string, string>, cwd: string, ...argv: string[]): Promise<CliRun> {
  return spawnCliWithInput(env, cwd, undefined, ...argv);
}

/** As spawnCli, with `input` written to the command's stdin (none: stdin is closed). */
export function spawnCliWithInput(
  env: Record<string, string>,
  cwd: string,
  input: string | undefined,
  ...argv: string[]
): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI_MAIN, ...argv], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}
