import { resolve } from 'node:path';
import type { DatabaseConfig } from '../../config/configuration.js';

/** The database in use, for people: the SQLite file's full path, or the server and database without credentials. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.type === 'sqlite') {
    return database.path === ':memory:' ? 'SQLite in memory' : `SQLite file ${resolve(database.path)}`;
  }
  const url = new URL(database.url);
  const kind = database.type === 'mariadb' ? 'MariaDB' : 'MySQL';
  return `${kind} database ${database.database} on ${url.host}`;
}

/** DATABASE_URL as the operator wrote it (mysql:// or mariadb://) with the password replaced by `****`. */
export function maskedDatabaseUrl(database: Exclude<DatabaseConfig, { type: 'sqlite' }>): string {
  const url = new URL(database.url);
  if (url.password !== '') url.password = '****';
  return url.toString().replace(/^mysql:/, `${database.type}:`);
}

/** A word for a POSIX shell, quoted when it holds anything but safe characters. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The warning of a start on a server database without any token: the exact command that creates one. */
export function missingTokenMessage(database: Exclude<DatabaseConfig, { type: 'sqlite' }>): string {
  const command =
    `DATABASE_URL=${shellWord(maskedDatabaseUrl(database))} ` +
    'node dist/src/cli/main.js token create --name admin --permissions read,write,delete';
  const password = new URL(database.url).password === '' ? '' : ' (with the real password in place of ****)';
  return `No API token exists. Create one from the service's folder${password}: ${command}; or start with BOOTSTRAP_TOKEN set`;
}

/**
 * Shown once on stdout after the service listens, when start-up generated the first token: the value
 * (never logged), where the data lives, and a request to try it with.
 */
export function generatedTokenBanner(options: {
  token: string;
  apiUrl: string;
  docsUrl: string;
  database: string;
}): string {
  const rule = '-'.repeat(78);
  return [
    '',
    rule,
    'No API token existed, so one was created (delete permission, all venues). It is shown only once:',
    '',
    `    ${options.token}`,
    '',
    `Database: ${options.database}`,
    `API:      ${options.apiUrl}`,
    `Docs:     ${options.docsUrl} (Authorize with the token)`,
    '',
    'Try it:',
    `    curl -H "Authorization: Bearer ${options.token}" ${options.apiUrl}`,
    rule,
    '',
    '',
  ].join('\n');
}

/**
 * Shown once on stdout after the service listens, when start-up created the console's first
 * administrator: where to sign in, and the one-time password (never logged).
 */
export function firstAdminBanner(options: { consoleUrl: string; email: string; oneTimePassword: string }): string {
  const rule = '-'.repeat(78);
  return [
    '',
    rule,
    'No console operator existed, so an administrator was created. Sign in at:',
    '',
    `    ${options.consoleUrl}`,
    `    Email:    ${options.email}`,
    `    Password: ${options.oneTimePassword}`,
    '',
    'The password is shown only once and must be changed at the first sign-in.',
    rule,
    '',
    '',
  ].join('\n');
}
