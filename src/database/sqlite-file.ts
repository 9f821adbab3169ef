import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates a missing SQLite file readable and writable by the service's user alone (0600), and any
 * missing folder on its path 0700, before SQLite opens it: SQLite gives the -wal, -shm and -journal
 * files it creates the main file's mode. An existing file or folder keeps the mode it has, so an
 * operator's choice (say 0640 for a backup group) stands. An empty file is a valid new database.
 */
export function prepareSqliteFile(path: string): void {
  if (path === ':memory:') return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
