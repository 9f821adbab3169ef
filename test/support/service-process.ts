import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free loopback port (the listener is closed again before the port is used). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A spawned service process with its output collected. */
export interface Service {
  child: ChildProcess;
  output: () => string;
  /** Waits until the output matches, at most `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or the signal that ended it), or rejects after `timeoutMs`. */
  exited(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>;
}

export function startService(entry: string, env: Record<string, string>, cwd: string): Service {
  const child = spawn(process.execPath, [entry], {
    cwd,
    // Only what the test sets (and PATH): nothing from the developer's environment leaks in.
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal, at: Date.now() })),
  );
  return {
    child,
    output: () => text,
    async waitForOutput(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(text)) {
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before printing ${pattern}:\n${text}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${text}`);
        await new Promise((wait) => setTimeout(wait, 20));
      }
    },
    async exited(timeoutMs) {
      const from = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_done, fail) => {
        timer = setTimeout(() => fail(new Error(`process still running after ${timeoutMs} ms:\n${text}`)), timeoutMs);
      });
      try {
        const { code, signal, at } = await Promise.race([exit, timeout]);
        return { code, signal, afterMs: at - from };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
