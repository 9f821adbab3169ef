import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import type { DatabaseConfig } from '../../config/configuration.js';
import { besideSqliteDatabase } from '../../config/secrets-key-file.js';

/** The file a first start on the embedded database writes its generated credentials to. */
export const FIRST_START_CREDENTIALS_FILE = 'first-start-credentials.txt';

/** Where the credentials of a first start go: beside the SQLite file; null for a database in memory or on a server. */
export function firstStartCredentialsPath(database: DatabaseConfig): string | null {
  return besideSqliteDatabase(database, FIRST_START_CREDENTIALS_FILE);
}

/**
 * Writes `text` to a new file at `path` that only this user can read (0600): an older file there is
 * replaced, never reused, so its permissions cannot be looser.
 */
export function writePrivateFile(path: string, text: string): void {
  rmSync(path, { force: true });
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** How a first start hands its generated credentials over: never through the log. */
export type CredentialsDelivery =
  /** Printed on the terminal (and kept in the file, when there is one). */
  | { print: 'stdout'; file: string | null }
  /** Output is not a terminal (a process manager's log): only in the file, which a log line names. */
  | { print: 'none'; file: string }
  /** Not a terminal and no file can hold them (database in memory): on stderr, apart from the log. */
  | { print: 'stderr'; file: null };

export function credentialsDelivery(terminal: boolean, file: string | null): CredentialsDelivery {
  if (terminal) return { print: 'stdout', file };
  return file === null ? { print: 'stderr', file: null } : { print: 'none', file };
}

/** The log line of a start whose output is not a terminal: where the credentials are, not what they are. */
export function credentialsFileMessage(file: string): string {
  return (
    `First start: the generated credentials (API token, console administrator's one-time password) were written ` +
    `to ${file}, readable by this user only; read them there and delete the file`
  );
}
