import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNasAddress, secretProblem } from '../nas/nas-rules.js';

/**
 * The FreeRADIUS 3.2 configuration folder of the service: the templates in deploy/freeradius/ (the
 * one source, committed and documented there) with their @@PLACEHOLDERS@@ filled, and clients.conf
 * generated from the NAS registry. Used by `hotspot radius-config` and by the tests.
 */

export const DEFAULT_AUTH_PORT = 1812;
export const DEFAULT_ACCT_PORT = 1813;
/** MikroTik waits 300 ms per try by default: a slower answer would come after the NAS gave up. */
export const DEFAULT_REST_TIMEOUT_MS = 250;

/** Marks a folder this generator wrote, so regenerating into it is allowed and a stranger's folder is not touched. */
const MARKER_FILE = '.hotspot-radius-config';
/** Added to a packet's age and to its limit in policy.d/hotspot: the age can come out about -1000 ms. */
const STALE_AGE_OFFSET_MS = 10_000;

export interface FreeRadiusClient {
  name: string;
  ipAddress: string;
  secret: string;
  requireMessageAuthenticator: boolean;
}

export interface FreeRadiusConfigInput {
  /** The service's base URL as FreeRADIUS reaches it, e.g. http://127.0.0.1:3000. */
  apiUrl: string;
  /** An API token with the radius permission. */
  token: string;
  authPort?: number;
  acctPort?: number;
  /**
   * The absolute path the folder will have where FreeRADIUS runs (logs and the pid file live in it);
   * the output folder itself by default. Differs in containers that mount the folder elsewhere.
   */
  confDir: string;
  /** `*` (every IPv4 address, the default) or one IPv4 or IPv6 address. */
  listenAddress?: string;
  restTimeoutMs?: number;
  clients: readonly FreeRadiusClient[];
  /** WPA-Enterprise: EAP-TTLS with inner PAP, with this server certificate. Absent: PAP only. */
  eap?: EapCertificates | null;
  /**
   * The service's MySQL/MariaDB database, for FreeRADIUS to record the common Interim-Update itself
   * (policy.d/hotspot_interim_sql). Absent: every accounting packet goes to the service.
   */
  accountingDatabase?: AccountingDatabase | null;
}

/** How FreeRADIUS reaches the service's database: an account with the grants `accountingDatabaseGrants` lists. */
export interface AccountingDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

/** The PEM texts of the EAP server's certificate, its private key and, optionally, the CA chain that issued it. */
export interface EapCertificates {
  certificate: string;
  privateKey: string;
  caChain?: string | null;
}

/** Where the configuration keeps the EAP certificates (the eap module reads them from here). */
export const EAP_FILES = {
  certificate: 'certs/server.pem',
  privateKey: 'certs/server.key',
  caChain: 'certs/ca.pem',
} as const;

/** Where the configuration keeps the accounting database's module (its login and password). */
export const ACCOUNTING_DATABASE_FILE = 'mods-enabled/hotspot_sql';

/**
 * The optional parts: each one's templates in this subfolder of deploy/freeradius/ (copied without
 * the prefix), and the lines between `# @@IF_<MARKER>@@` and `# @@END_IF_<MARKER>@@` in the other
 * templates, kept only when the part is configured. Its files are removed when a folder is
 * regenerated without it.
 */
const OPTIONAL_PARTS = {
  eap: {
    templates: 'eap',
    block: /^[ \t]*# @@IF_EAP@@\n([\s\S]*?)^[ \t]*# @@END_IF_EAP@@\n/gm,
    files: ['mods-enabled/eap', 'sites-enabled/hotspot-inner', ...Object.values(EAP_FILES)],
  },
  sql: {
    templates: 'sql',
    block: /^[ \t]*# @@IF_SQL@@\n([\s\S]*?)^[ \t]*# @@END_IF_SQL@@\n/gm,
    files: [ACCOUNTING_DATABASE_FILE, 'policy.d/hotspot_interim_sql'],
  },
} as const;

type OptionalPart = keyof typeof OPTIONAL_PARTS;

/** Larger than any certificate chain or key: a bigger file is not one. */
const MAX_PEM_BYTES = 1_000_000;

/** A value the configuration cannot be generated with; the message never holds a secret or the token. */
export class FreeRadiusConfigError extends Error {
  override name = 'FreeRadiusConfigError';
}

const TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,512}$/;

/** The deploy/freeradius/ folder: found from this module upwards (src/ under ts, dist/src/ once built). */
function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = join(dir, 'deploy', 'freeradius');
    if (existsSync(join(candidate, 'radiusd.conf'))) return candidate;
    dir = dirname(dir);
  }
  throw new FreeRadiusConfigError('The FreeRADIUS templates (deploy/freeradius/) were not found beside the program.');
}

/** Every template file, as paths relative to the templates folder. */
function templateFiles(root: string, under = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(root, under), { withFileTypes: true })) {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!Object.values(OPTIONAL_PARTS).some((part) => part.templates === path))
        files.push(...templateFiles(root, path));
    } else if (entry.isFile() && entry.name !== 'README.md') files.push(path);
  }
  return files.sort();
}

/** The configuration's files (relative path → content). Throws FreeRadiusConfigError on a bad value. */
export function renderFreeRadiusConfig(
  input: FreeRadiusConfigInput,
  templates: string = templatesDir(),
): Map<string, string> {
  const values = placeholderValues(input);
  const eap = input.eap ? checkEapCertificates(input.eap) : null;
  const database = input.accountingDatabase ? accountingDatabaseValues(input.accountingDatabase) : null;
  const parts: Record<OptionalPart, boolean> = { eap: eap !== null, sql: database !== null };
  const sources = templateFiles(templates).map((path) => ({ path, from: path }));
  for (const part of optionalParts().filter((name) => parts[name])) {
    const folder = OPTIONAL_PARTS[part].templates;
    for (const path of templateFiles(join(templates, folder))) sources.push({ path, from: `${folder}/${path}` });
  }
  if (eap !== null) values.EAP_CA_FILE = basename(eap.caChain === null ? EAP_FILES.certificate : EAP_FILES.caChain);
  if (database !== null) Object.assign(values, database);
  const files = new Map<string, string>();
  for (const { path, from } of sources) {
    const text = optionalParts()
      .reduce(
        (kept, part) => kept.replace(OPTIONAL_PARTS[part].block, (_whole, block: string) => (parts[part] ? block : '')),
        readFileSync(join(templates, from), 'utf8'),
      )
      .replace(/@@([A-Z_]+)@@/g, (whole, name: string) => {
        const value = values[name];
        if (value === undefined) throw new FreeRadiusConfigError(`Unknown placeholder ${whole} in template ${from}.`);
        return value;
      });
    files.set(path, text);
  }
  if (eap !== null) {
    files.set(EAP_FILES.certificate, eap.certificate);
    files.set(EAP_FILES.privateKey, eap.privateKey);
    if (eap.caChain !== null) files.set(EAP_FILES.caChain, eap.caChain);
  }
  return files;
}

function optionalParts(): OptionalPart[] {
  return Object.keys(OPTIONAL_PARTS) as OptionalPart[];
}

/** A database name, an account name or a host the module's double-quoted strings hold as they are. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** The module's placeholders; FreeRADIUS reads the password single-quoted, literally. */
function accountingDatabaseValues(database: AccountingDatabase): Record<string, string> {
  const { host, port, user, password } = database;
  if (!PLAIN_NAME.test(host) && isIP(host) === 0) {
    throw new FreeRadiusConfigError('The accounting database host must be a host name or an IP address.');
  }
  if (!PLAIN_NAME.test(user) || !PLAIN_NAME.test(database.database)) {
    throw new FreeRadiusConfigError(
      'The accounting database user and database name must be 1-64 characters of A-Za-z0-9_.-.',
    );
  }
  // Printable ASCII but for the backslash, which FreeRADIUS would read as an escape.
  if (!/^[\x20-\x5b\x5d-\x7e]{1,128}$/.test(password)) {
    throw new FreeRadiusConfigError(
      'The accounting database password must be 1-128 printable ASCII characters other than \\.',
    );
  }
  return {
    SQL_HOST: host,
    SQL_PORT: String(checkPort('accounting database port', port)),
    SQL_LOGIN: user,
    SQL_PASSWORD: quoted(password),
    SQL_DATABASE: database.database,
  };
}

/**
 * The EAP certificates as they will be written, after the checks FreeRADIUS or a device would
 * otherwise fail on at the first login: PEM certificates, an unencrypted private key that belongs to
 * the server certificate, a certificate still valid, issued by the CA chain when one is given. The
 * messages never quote the files.
 */
function checkEapCertificates(given: EapCertificates): Required<EapCertificates> & { caChain: string | null } {
  // The file may hold the chain after the server's own certificate (a "full chain").
  const [server, ...intermediates] = pemCertificates(given.certificate, 'The EAP server certificate');
  const now = Date.now();
  if (Date.parse(server.validTo) < now) {
    throw new FreeRadiusConfigError(
      `The EAP server certificate expired on ${new Date(server.validTo).toISOString()}: devices would refuse it.`,
    );
  }
  if (Date.parse(server.validFrom) > now) {
    throw new FreeRadiusConfigError('The EAP server certificate is not valid yet: devices would refuse it.');
  }
  if (!/^-----BEGIN (RSA |EC )?PRIVATE KEY-----/m.test(given.privateKey)) {
    throw new FreeRadiusConfigError(
      'The EAP private key must be an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----).',
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: given.privateKey, format: 'pem' });
  } catch {
    throw new FreeRadiusConfigError('The EAP private key is not a readable unencrypted PEM private key.');
  }
  if (!server.checkPrivateKey(key)) {
    throw new FreeRadiusConfigError('The EAP private key does not belong to the EAP server certificate.');
  }
  const caChain = given.caChain ?? null;
  if (caChain !== null) {
    const authorities = pemCertificates(caChain, 'The EAP CA chain');
    if (!chainsTo(server, [...intermediates, ...authorities], authorities)) {
      throw new FreeRadiusConfigError('The EAP server certificate was not issued by a certificate of the CA chain.');
    }
  }
  return { certificate: given.certificate, privateKey: given.privateKey, caChain };
}

/** Whether `certificate` was signed, through certificates of `pool`, by one of `anchors`. */
function chainsTo(certificate: X509Certificate, pool: X509Certificate[], anchors: X509Certificate[]): boolean {
  let current = certificate;
  for (let depth = 0; depth < 10; depth += 1) {
    const issuer = pool.find((candidate) => current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (issuer === undefined) return false;
    if (anchors.includes(issuer)) return true;
    current = issuer;
  }
  return false;
}

/** Every certificate of a PEM text (at least one), or an error naming `what`. */
function pemCertificates(text: string, what: string): X509Certificate[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0)
    throw new FreeRadiusConfigError(`${what} must be a PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw new FreeRadiusConfigError(`${what} holds a PEM block that is not a readable certificate.`);
    }
  });
}

/**
 * Reads the EAP certificate files given by path. Errors name the file and why it cannot be used,
 * never its content.
 */
export function readEapCertificates(paths: {
  certificate: string;
  privateKey: string;
  caChain?: string | null;
}): EapCertificates {
  return {
    certificate: readPem(paths.certificate, 'EAP server certificate'),
    privateKey: readPem(paths.privateKey, 'EAP private key'),
    caChain: paths.caChain ? readPem(paths.caChain, 'EAP CA chain') : null,
  };
}

/**
 * The accounting database a folder written before holds (its module file), or null when it has none:
 * a regeneration without accounting database options keeps it this way.
 */
export function existingAccountingDatabase(outDir: string): AccountingDatabase | null {
  const root = resolve(outDir);
  const path = join(root, ACCOUNTING_DATABASE_FILE);
  if (!existsSync(join(root, MARKER_FILE)) || !existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  const value = (name: string) => new RegExp(`^\\t${name} = (.*)$`, 'm').exec(text)?.[1] ?? null;
  const [host, port, user, password, database] = ['server', 'port', 'login', 'password', 'radius_db'].map(value);
  if (host === null || port === null || user === null || password === null || database === null) return null;
  return {
    host: host.replace(/^"|"$/g, ''),
    port: Number(port),
    user: user.replace(/^"|"$/g, ''),
    password: password.replace(/^'|'$/g, '').replace(/\\'/g, "'"),
    database: database.replace(/^"|"$/g, ''),
  };
}

/**
 * What the accounting database's account may do, as GRANT statements for `database`: read the
 * columns the statement tests, change a session's counters, address, time and usage fold flag
 * (usage_pending) and a device's status and last sighting. Nothing else: no password hash, no other table, no insert or delete.
 */
export function accountingDatabaseGrants(database: string, user: string, host: string): string[] {
  if (!PLAIN_NAME.test(user) || !(host === '%' || PLAIN_NAME.test(host) || isIP(host) !== 0)) {
    throw new FreeRadiusConfigError(
      'The account must be 1-64 characters of A-Za-z0-9_.- at a host name, an IP address or %.',
    );
  }
  if (!/^[A-Za-z0-9_$-]{1,64}$/.test(database))
    throw new FreeRadiusConfigError('The database name cannot be quoted here.');
  const to = `TO '${user}'@'${host}'`;
  const on = (table: string) => `ON \`${database}\`.\`${table}\``;
  const counters = 'ip_address, last_accounting_at, input_octets, output_octets, session_time, usage_pending';
  return [
    `GRANT SELECT (id, status, expires_at) ${on('hotspot_users')} ${to}`,
    `GRANT SELECT (id, name) ${on('nas_clients')} ${to}`,
    `GRANT SELECT (nas_client_id, accounting_unique_id, user_id, status, ${counters}), UPDATE (${counters}) ${on('sessions')} ${to}`,
    `GRANT SELECT (user_id, mac_address, status, last_seen_at), UPDATE (status, last_seen_at) ${on('devices')} ${to}`,
  ];
}

/**
 * The EAP certificates a folder written before holds (its EAP choice), or null when it has none: a
 * regeneration without EAP options keeps EAP this way.
 */
export function existingEapCertificates(outDir: string): EapCertificates | null {
  const root = resolve(outDir);
  if (!existsSync(join(root, MARKER_FILE)) || !existsSync(join(root, EAP_FILES.certificate))) return null;
  const ca = join(root, EAP_FILES.caChain);
  return readEapCertificates({
    certificate: join(root, EAP_FILES.certificate),
    privateKey: join(root, EAP_FILES.privateKey),
    caChain: existsSync(ca) ? ca : null,
  });
}

function readPem(path: string, what: string): string {
  let text: string;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new FreeRadiusConfigError(`The ${what} ${path} is not a file.`);
    if (stat.size > MAX_PEM_BYTES) throw new FreeRadiusConfigError(`The ${what} ${path} is too large to be one.`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof FreeRadiusConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied)'
          : 'cannot be read';
    throw new FreeRadiusConfigError(`The ${what} ${path} ${why}.`);
  }
  if (!text.includes('-----BEGIN ')) throw new FreeRadiusConfigError(`The ${what} ${path} is not a PEM file.`);
  return text;
}

function placeholderValues(input: FreeRadiusConfigInput): Record<string, string> {
  const apiUrl = checkApiUrl(input.apiUrl);
  if (!TOKEN_PATTERN.test(input.token)) {
    throw new FreeRadiusConfigError(
      'The token must be an API token: 16-512 characters of letters, digits and ._~+/=-.',
    );
  }
  const authPort = checkPort('auth port', input.authPort ?? DEFAULT_AUTH_PORT);
  const acctPort = checkPort('accounting port', input.acctPort ?? DEFAULT_ACCT_PORT);
  if (authPort === acctPort) throw new FreeRadiusConfigError('The auth and accounting ports must differ.');
  const timeoutMs = input.restTimeoutMs ?? DEFAULT_REST_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 50 || timeoutMs > 60_000) {
    throw new FreeRadiusConfigError('The REST timeout must be 50-60000 ms.');
  }
  const listen = input.listenAddress ?? '*';
  let listenLine: string;
  if (listen === '*') listenLine = 'ipaddr = *';
  else if (isIP(listen) === 4) listenLine = `ipaddr = ${listen}`;
  else if (isIP(listen) === 6) listenLine = `ipv6addr = ${listen.toLowerCase()}`;
  else throw new FreeRadiusConfigError('The listen address must be * or an IPv4 or IPv6 address.');
  if (!/^\/[A-Za-z0-9_./-]*$/.test(input.confDir)) {
    throw new FreeRadiusConfigError('The configuration folder must be an absolute path of A-Za-z0-9_./- characters.');
  }
  return {
    CONF_DIR: input.confDir.replace(/(.)\/+$/, '$1'),
    API_URL: apiUrl,
    TOKEN: input.token,
    AUTH_PORT: String(authPort),
    ACCT_PORT: String(acctPort),
    LISTEN_ADDRESS: listenLine,
    REST_TIMEOUT: (timeoutMs / 1000).toFixed(3),
    REST_TIMEOUT_MS: String(timeoutMs),
    // How long a login and an accounting packet may wait inside FreeRADIUS, plus the 10 s the policy
    // adds to both sides so that a negative age (a clock read a second early) is never taken for a huge one.
    STALE_LOGIN_LIMIT: String(2 * timeoutMs + STALE_AGE_OFFSET_MS),
    STALE_ACCOUNTING_LIMIT: String(timeoutMs + STALE_AGE_OFFSET_MS),
    CLIENTS: clientsSection(input.clients),
  };
}

function checkApiUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FreeRadiusConfigError('The API URL must be an http:// or https:// URL.');
  }
  // Characters FreeRADIUS would expand or that would end the quoted string are refused.
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  ) {
    throw new FreeRadiusConfigError(
      'The API URL must be an http:// or https:// URL without credentials, query or fragment.',
    );
  }
  const text = url.toString().replace(/\/+$/, '');
  if (/["'\\%${}\s]/.test(text))
    throw new FreeRadiusConfigError('The API URL holds characters FreeRADIUS would expand.');
  return text;
}

function checkPort(what: string, port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new FreeRadiusConfigError(`The ${what} must be 1-65535.`);
  return port;
}

/** One client section per NAS. Values were validated when the NAS was added; they are checked again here. */
function clientsSection(clients: readonly FreeRadiusClient[]): string {
  if (clients.length === 0) return '# No NAS is registered: FreeRADIUS answers nobody.\n';
  const holders = new Map<string, string>();
  return clients
    .map((client) => {
      const address = parseNasAddress(client.ipAddress);
      if ('error' in address || !/^[A-Za-z0-9_.-]{1,64}$/.test(client.name) || secretProblem(client.secret) !== null) {
        throw new FreeRadiusConfigError(
          `NAS "${client.name}" has a value clients.conf cannot hold; remove and add it again.`,
        );
      }
      // FreeRADIUS would refuse to start ("duplicate client").
      const holder = holders.get(address.text);
      if (holder !== undefined) {
        throw new FreeRadiusConfigError(
          `NAS "${holder}" and NAS "${client.name}" have the same address ${address.text}; remove one of them.`,
        );
      }
      holders.set(address.text, client.name);
      return [
        `client ${client.name} {`,
        `\t${address.family === 4 ? 'ipaddr' : 'ipv6addr'} = ${address.text}`,
        `\tsecret = ${quoted(client.secret)}`,
        `\trequire_message_authenticator = ${client.requireMessageAuthenticator ? 'yes' : 'no'}`,
        `\tshortname = ${client.name}`,
        '}',
        '',
      ].join('\n');
    })
    .join('\n');
}

/**
 * A secret as a clients.conf string: single quotes take it literally (double quotes would expand
 * ${…}), a single quote inside is escaped. `"`, `\` and control characters never reach here.
 */
function quoted(secret: string): string {
  return `'${secret.replace(/'/g, "\\'")}'`;
}

/**
 * Writes the files into `outDir`: folder 0700, files 0600 (they hold the secrets and the token),
 * plus the log/ and run/ folders radiusd.conf points to. The folder must be new, empty, or one this
 * generator wrote before. Nothing is written through a symbolic link inside it: a linked subfolder
 * is refused, and each file is written beside its target and renamed over it, which replaces a
 * link there instead of writing the secrets wherever it points (and FreeRADIUS never reads half a
 * file).
 */
export async function writeFreeRadiusConfig(outDir: string, files: Map<string, string>): Promise<string> {
  const root = resolve(outDir);
  if (existsSync(root)) {
    if (!statSync(root).isDirectory()) throw new FreeRadiusConfigError(`${root} exists and is not a folder.`);
    const entries = await readdir(root);
    if (entries.length > 0 && !entries.includes(MARKER_FILE)) {
      throw new FreeRadiusConfigError(
        `${root} is not empty and was not written by radius-config: choose a new folder.`,
      );
    }
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  for (const sub of ['log', 'run']) await ownFolder(root, sub);
  const all = new Map(files).set(MARKER_FILE, 'Written by `hotspot radius-config`; regenerate rather than edit.\n');
  // A configuration without EAP (or SQL) drops the files a previous run wrote for it (rm never follows a link).
  for (const path of optionalParts().flatMap((part) => OPTIONAL_PARTS[part].files)) {
    if (!files.has(path) && lstatSync(join(root, dirname(path)), { throwIfNoEntry: false })?.isDirectory()) {
      await rm(join(root, path), { force: true });
    }
  }
  for (const [path, content] of all) {
    const target = join(root, path);
    if (dirname(path) !== '.') await ownFolder(root, dirname(path));
    const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    // 'wx' creates the file or fails, never following a link; chmod sets 0600 whatever the umask.
    await writeFile(temporary, content, { mode: 0o600, flag: 'wx' });
    await chmod(temporary, 0o600);
    await rename(temporary, target);
  }
  return root;
}

/** Creates the folder `path` inside `root` (0700), or accepts it as it is, unless a part of it is a symbolic link. */
async function ownFolder(root: string, path: string): Promise<void> {
  let folder = root;
  for (const part of path.split('/')) {
    folder = join(folder, part);
    await mkdir(folder, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    if (!lstatSync(folder).isDirectory()) {
      throw new FreeRadiusConfigError(`${folder} is a symbolic link or not a folder: choose a new folder.`);
    }
  }
}
