import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseSecretsKey, SECRETS_KEY_BYTES } from './secrets-key.js';

/** The key file's name beside an SQLite database, when neither SECRETS_KEY nor SECRETS_KEY_FILE is set. */
export const DEFAULT_SECRETS_KEY_FILE = 'secrets.key';

/**
 * Where the key lives when SECRETS_KEY is not set: SECRETS_KEY_FILE, else (outside production) a file
 * beside the SQLite database, so that a default installation seals its secrets; null for a database in
 * memory or on a server without either variable (secrets are then stored in clear, with a warning).
 */
export function secretsKeyFilePath(options: {
  secretsKey: Buffer | undefined;
  secretsKeyFile: string | undefined;
  database: { type: string; path?: string };
}): string | null {
  if (options.secretsKey !== undefined) return null;
  if (options.secretsKeyFile !== undefined) return resolve(options.secretsKeyFile);
  return besideSqliteDatabase(options.database, DEFAULT_SECRETS_KEY_FILE);
}

/** The path of `name` in the folder of an SQLite database file; null for a database in memory or on a server. */
export function besideSqliteDatabase(database: { type: string; path?: string }, name: string): string | null {
  if (database.type !== 'sqlite' || database.path === undefined || database.path === ':memory:') return null;
  return join(dirname(resolve(database.path)), name);
}

/** A key file that cannot be used: the message names the file and the fix, never the key. */
export class SecretsKeyFileError extends Error {
  override name = 'SecretsKeyFileError';
}

/** The text of a key file: the key in hexadecimal and a newline. */
export function keyFileText(key: Buffer): string {
  return `${key.toString('hex')}\n`;
}

/** A new random key for SECRETS_KEY or a key file. */
export function newSecretsKey(): Buffer {
  return randomBytes(SECRETS_KEY_BYTES);
}

/**
 * Writes `key` to a new file at `path`, readable by its owner only (0600; the folder made 0700 if
 * missing). Never replaces a file: false when one exists (another process won the race).
 */
export function createKeyFile(path: string, key: Buffer): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole under a temporary name, then linked into place: a reader never sees half a key.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, keyFileText(key), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The key in the file at `path`; it must be the owner's alone (no group or other access). */
export function readKeyFile(path: string): Buffer {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SecretsKeyFileError(
      `${path} can be read by others (mode ${mode.toString(8).padStart(4, '0')}): make it the owner's alone (chmod 600 ${path})`,
    );
  }
  const parsed = parseSecretsKey(readFileSync(path, 'utf8').trim());
  if ('error' in parsed) throw new SecretsKeyFileError(`${path}: the key ${parsed.error}`);
  return parsed.value;
}

/** The key of the file at `path`, made (32 random bytes) on the first start that finds none. */
export function readOrCreateKeyFile(path: string): Buffer {
  try {
    return readKeyFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  createKeyFile(path, newSecretsKey());
  return readKeyFile(path);
}
