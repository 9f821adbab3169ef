// What the instruction counts (accounting.mjs, dashboard.mjs) share: a built checkout's CLI, and
// waiting for its service to answer and to stop.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The CLI of the built checkout `dir`, run in `cwd` with `env`; its output trimmed. */
export function checkoutCli(dir, cwd, env) {
  return (...args) =>
    execFileSync(process.execPath, [join(dir, 'dist/src/cli/main.js'), ...args], { cwd, env, encoding: 'utf8' }).trim();
}

/** Waits until the service on `port` answers its health check (a service under valgrind starts slowly). */
export async function untilHealthy(port) {
  for (let i = 0; i < 2400; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error('not ready');
}

export async function stopChild(child) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
