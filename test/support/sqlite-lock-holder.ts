import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Another process holding a SQLite file's write lock, as a CLI command, a worker or a backup can. */
export interface LockHolder {
  /** When the child had the lock (its clock, Date.now()). */
  heldAt: number;
  /** Settles with the moment just before the child let the lock go. */
  released: Promise<number>;
  /** Lets the lock go now, before `holdMs` are over; settles as `released` does. */
  release(): Promise<number>;
}

// A separate process with its own better-sqlite3 connection, so the lock is held across processes
// as in production; it prints when it holds the lock and when it lets it go.
const SCRIPT = `
const Database = require('better-sqlite3');
const [path, holdMs] = process.argv.slice(1);
const db = new Database(path);
db.exec('BEGIN IMMEDIATE');
console.log('held ' + Date.now());
const release = () => {
  if (!db.open) return;
  clearTimeout(timer);
  const at = Date.now();
  db.exec('COMMIT');
  db.close();
  console.log('released ' + at);
  process.stdin.destroy();
};
const timer = setTimeout(release, Number(holdMs));
process.stdin.on('data', release);
`;

/** Starts a child process that holds the write lock of the SQLite file at `path` for `holdMs`, or until released. */
export function holdWriteLock(path: string, holdMs: number): Promise<LockHolder> {
  const child = spawn(process.execPath, ['-e', SCRIPT, path, String(holdMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<never>((_resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`lock holder exited with ${code} before it was done`)));
    child.on('error', reject);
  });
  const line = (prefix: string) =>
    Promise.race([
      new Promise<number>((resolve) => {
        lines.on('line', (text) => {
          if (text.startsWith(`${prefix} `)) resolve(Number(text.slice(prefix.length + 1)));
        });
      }),
      exited,
    ]);
  const released = line('released');
  released.catch(() => undefined);
  const release = () => {
    child.stdin.end('release\n');
    return released;
  };
  return line('held').then((heldAt) => ({ heldAt, released, release }));
}
