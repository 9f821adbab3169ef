import { AuditModule } from '../../audit/audit.module.js';
import { VenuesModule } from '../../venues/venues.module.js';
import { ConfigService } from '@nestjs/config';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { Option } from 'commander';
import { ApiTokenRepository } from '../../auth/api-token.repository.js';
import { ApiTokenService } from '../../auth/api-token.service.js';
import { RADIUS_PERMISSION, type Permission } from '../../auth/permissions.js';
import type { TokenStatus } from '../../auth/token-rules.js';
import { NasClientsRepository } from '../../nas/nas-clients.repository.js';
import { NasService } from '../../nas/nas.service.js';
import { parseDatabaseUrl, type AppConfig } from '../../config/configuration.js';
import { NasSecretUnavailableError } from '../../nas/secret-box.js';
import {
  accountingDatabaseGrants,
  type AccountingDatabase,
  DEFAULT_ACCT_PORT,
  DEFAULT_AUTH_PORT,
  DEFAULT_REST_TIMEOUT_MS,
  existingAccountingDatabase,
  existingEapCertificates,
  FreeRadiusConfigError,
  readEapCertificates,
  renderFreeRadiusConfig,
  type EapCertificates,
  writeFreeRadiusConfig,
} from '../../radius-config/freeradius-config.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, valueOption } from '../option-values.js';

/** `hotspot radius-config`: writes the FreeRADIUS configuration folder, clients.conf from the NAS registry. */

/** What the command reads: the NASes with their secrets, and the token it is given (to check it). */
export interface RadiusConfigSources {
  listWithSecrets: NasService['listWithSecrets'];
  tokenProblem(value: string): Promise<string | null>;
  /** The service's MySQL/MariaDB database name; null on the embedded SQLite database. */
  mysqlDatabase: string | null;
}

/** The service's MySQL/MariaDB database name from its configuration; null on SQLite. */
function mysqlDatabaseOf(config: ConfigService<AppConfig, true>): string | null {
  const database = config.get('database', { infer: true });
  return database.type === 'sqlite' ? null : database.database;
}

const RADIUS_CONFIG_SOURCES: ServiceNeed<RadiusConfigSources> = {
  // ApiTokenService and its queries alone, not AuthModule (see TOKEN_SERVICE).
  imports: [AuditModule, VenuesModule],
  providers: [NasService, NasClientsRepository, ApiTokenRepository, ApiTokenService],
  resolve: (context) => {
    const nas = context.get(NasService);
    const tokens = context.get(ApiTokenService);
    return {
      mysqlDatabase: mysqlDatabaseOf(context.get(ConfigService)),
      listWithSecrets: () => nas.listWithSecrets(),
      tokenProblem: async (value) => {
        const token = await tokens.findByValue(value);
        return radiusTokenProblem(token === null ? null : { ...token, status: tokens.statusOf(token) });
      },
    };
  },
};

interface RadiusConfigOptions {
  out: string;
  apiUrl: string;
  token: string;
  authPort?: number;
  acctPort?: number;
  listenAddress?: string;
  restTimeoutMs?: number;
  confDir?: string;
  /** true: --eap; false: --no-eap; undefined: keep the folder's choice. */
  eap?: boolean;
  eapCert?: string;
  eapKey?: string;
  eapCa?: string;
  accountingDbUrl?: AccountingDatabase;
  /** false: --no-accounting-db; undefined: keep the folder's choice. */
  accountingDb?: false;
  json?: true;
}

/**
 * `mysql://user:password@host:port/database`: how FreeRADIUS reaches the service's database, read as
 * DATABASE_URL is (parseDatabaseUrl: scheme, host, escapes, database name), with an account and a password.
 */
function accountingDbUrl(raw: string): AccountingDatabase {
  // The value holds a password: never echoed (parseDatabaseUrl's messages do not quote it either).
  const usage = 'must be mysql://USER:PASSWORD@HOST:PORT/DATABASE (the account radius-sql-grants names)';
  const parsed = parseDatabaseUrl(raw);
  if ('error' in parsed) throw new UsageError(`${usage}: ${parsed.error}`);
  if (parsed.value.type === 'sqlite') throw new UsageError(usage);
  const url = new URL(parsed.value.url);
  if (!url.username || !url.password) throw new UsageError(usage);
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: parsed.value.database,
  };
}

function apiUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw;
  } catch {
    // falls through to the error below
  }
  throw new UsageError('must be an http:// or https:// URL, e.g. http://127.0.0.1:3000');
}

function token(raw: string): string {
  // The value is a secret: never echoed.
  if (!/^[A-Za-z0-9._~+/=-]{16,512}$/.test(raw))
    throw new UsageError('must be an API token (create one with --permissions radius)');
  return raw;
}

function integer(min: number, max: number): (raw: string) => number {
  return (raw) => {
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new UsageError(`must be an integer from ${min} to ${max}`);
    }
    return Number(raw);
  };
}

function listenAddress(raw: string): string {
  if (raw !== '*' && isIP(raw) === 0) throw new UsageError('must be * or an IPv4 or IPv6 address');
  return raw;
}

function absolutePath(raw: string): string {
  if (!/^\/[A-Za-z0-9_./-]*$/.test(raw)) throw new UsageError('must be an absolute path of A-Za-z0-9_./- characters');
  return raw;
}

export const radiusConfigCommand: CliCommand = {
  register(program, { io, runtime }) {
    program
      .command('radius-config')
      .description(
        'Write a complete FreeRADIUS 3.2 configuration folder that sends every decision to this service ' +
          '(rlm_rest), with clients.conf generated from the NAS registry. The folder (0700) and its files (0600) ' +
          'hold the NAS secrets and the token; nothing secret is printed. Run it with: freeradius -f -l stdout -d DIR',
      )
      .addOption(
        valueOption(
          '--out <dir>',
          'the folder to write: new, empty, or written by radius-config before (required)',
          (raw) => raw,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--api-url <url>',
          'the service as FreeRADIUS reaches it, e.g. http://127.0.0.1:3000 (required)',
          apiUrl,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--token <token>',
          'an API token with the radius permission (required)',
          token,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--auth-port <port>',
          `UDP port for Access-Requests (default ${DEFAULT_AUTH_PORT})`,
          integer(1, 65535),
        ),
      )
      .addOption(
        valueOption(
          '--acct-port <port>',
          `UDP port for Accounting-Requests (default ${DEFAULT_ACCT_PORT})`,
          integer(1, 65535),
        ),
      )
      .addOption(
        valueOption(
          '--listen-address <address>',
          'address to listen on: * (every IPv4 address, the default) or one IPv4/IPv6 address',
          listenAddress,
        ),
      )
      .addOption(
        valueOption(
          '--rest-timeout-ms <ms>',
          `longest wait for the service per call (default ${DEFAULT_REST_TIMEOUT_MS}); keep it below the NASes' RADIUS timeout`,
          integer(50, 60_000),
        ),
      )
      .addOption(
        valueOption(
          '--conf-dir <path>',
          'absolute path of the folder where FreeRADIUS runs, when it differs from --out (containers)',
          absolutePath,
        ),
      )
      .addOption(
        flagOption(
          '--eap',
          'also serve WPA-Enterprise (802.1X): EAP-TTLS with inner PAP, with --eap-cert and --eap-key. ' +
            'A folder written with --eap keeps it when regenerated without EAP options',
        ),
      )
      .addOption(new Option('--no-eap', 'remove WPA-Enterprise (EAP) from a folder written with --eap'))
      .addOption(
        valueOption(
          '--eap-cert <path>',
          'with --eap: the server certificate (PEM), copied into the folder',
          (raw) => raw,
        ),
      )
      .addOption(
        valueOption(
          '--eap-key <path>',
          'with --eap: its private key (unencrypted PEM), copied into the folder (0600)',
          (raw) => raw,
        ),
      )
      .addOption(
        valueOption(
          '--eap-ca <path>',
          'with --eap: the CA chain that issued the certificate (PEM), copied into the folder (optional)',
          (raw) => raw,
        ),
      )
      .addOption(
        valueOption(
          '--accounting-db-url <url>',
          "MySQL/MariaDB only: FreeRADIUS records the common Interim-Update in the service's database itself, " +
            'as mysql://USER:PASSWORD@HOST:PORT/DATABASE (an account with the grants radius-sql-grants prints). ' +
            'A folder written with it keeps it when regenerated without it',
          accountingDbUrl,
        ),
      )
      .addOption(
        new Option(
          '--no-accounting-db',
          'send every accounting packet to the service again (drop --accounting-db-url)',
        ),
      )
      .addOption(
        flagOption(
          '--json',
          'print one JSON object {outDir, confDir, authPort, acctPort, clients, eap, accountingDatabase}',
        ),
      )
      .action((options: RadiusConfigOptions) =>
        runtime.use(RADIUS_CONFIG_SOURCES, (sources) => generate(sources, options, io)),
      );
  },
};

/**
 * Why FreeRADIUS could not use the token (every call would be refused: logins rejected, accounting
 * lost), or null. Its value is never part of the message.
 */
function radiusTokenProblem(token: { status: TokenStatus; permissions: readonly Permission[] } | null): string | null {
  if (token === null) return 'The --token value is not a token of this database.';
  if (token.status !== 'active') return `The --token value is a token that is ${token.status}.`;
  if (!token.permissions.includes(RADIUS_PERMISSION)) {
    return 'The --token value is a token without the radius permission (create one with --permissions radius).';
  }
  return null;
}

/**
 * The EAP certificates to configure: the given files with --eap, none with --no-eap, else those the
 * folder holds from an earlier --eap (so regenerating keeps EAP).
 */
function eapChoice(options: RadiusConfigOptions, outDir: string): EapCertificates | null {
  const paths = options.eapCert !== undefined || options.eapKey !== undefined || options.eapCa !== undefined;
  if (options.eap === false) {
    if (paths) throw new UsageError('--no-eap takes no --eap-cert, --eap-key or --eap-ca');
    return null;
  }
  if (options.eap === true) {
    if (options.eapCert === undefined || options.eapKey === undefined) {
      throw new UsageError('--eap needs --eap-cert and --eap-key');
    }
    return readEapCertificates({ certificate: options.eapCert, privateKey: options.eapKey, caChain: options.eapCa });
  }
  if (paths) throw new UsageError('--eap-cert, --eap-key and --eap-ca go with --eap');
  return existingEapCertificates(outDir);
}

/**
 * The accounting database to configure: the given one, none with --no-accounting-db, else the one
 * the folder holds from an earlier --accounting-db-url. Only on the service's own MySQL/MariaDB database.
 */
function accountingDatabaseChoice(
  options: RadiusConfigOptions,
  outDir: string,
  mysqlDatabase: string | null,
): AccountingDatabase | null {
  if (options.accountingDb === false) {
    if (options.accountingDbUrl !== undefined) throw new UsageError('--no-accounting-db takes no --accounting-db-url');
    return null;
  }
  const chosen = options.accountingDbUrl ?? existingAccountingDatabase(outDir);
  if (chosen === null) return null;
  if (mysqlDatabase === null) {
    throw new UsageError(
      '--accounting-db-url needs the service on MySQL/MariaDB (DATABASE_URL); on SQLite leave it out',
    );
  }
  if (chosen.database !== mysqlDatabase) {
    throw new UsageError(`--accounting-db-url must name the service's database, ${mysqlDatabase}`);
  }
  return chosen;
}

async function generate(sources: RadiusConfigSources, options: RadiusConfigOptions, io: CliIo): Promise<void> {
  const outDir = resolve(options.out);
  const confDir = options.confDir ?? outDir;
  const problem = await sources.tokenProblem(options.token);
  if (problem !== null) throw new CommandFailure(problem);
  let written: string;
  let clients: string[];
  let eap: EapCertificates | null;
  let accountingDatabase: AccountingDatabase | null;
  try {
    eap = eapChoice(options, outDir);
    accountingDatabase = accountingDatabaseChoice(options, outDir, sources.mysqlDatabase);
    const nases = await sources.listWithSecrets();
    clients = nases.map((client) => client.name);
    const files = renderFreeRadiusConfig({
      apiUrl: options.apiUrl,
      token: options.token,
      authPort: options.authPort,
      acctPort: options.acctPort,
      listenAddress: options.listenAddress,
      restTimeoutMs: options.restTimeoutMs,
      confDir,
      clients: nases,
      eap,
      accountingDatabase,
    });
    written = await writeFreeRadiusConfig(outDir, files);
  } catch (error) {
    if (error instanceof NasSecretUnavailableError || error instanceof FreeRadiusConfigError) {
      throw new CommandFailure(error.message);
    }
    throw error;
  }
  const authPort = options.authPort ?? DEFAULT_AUTH_PORT;
  const acctPort = options.acctPort ?? DEFAULT_ACCT_PORT;
  if (options.json) {
    printJson(io, {
      outDir: written,
      confDir,
      authPort,
      acctPort,
      clients,
      eap: eap !== null,
      accountingDatabase: accountingDatabase !== null,
    });
    return;
  }
  io.stdout.write(`${written}\n`);
  io.stderr.write(
    `Wrote the FreeRADIUS configuration for ${clients.length} NAS(es) (auth port ${authPort}, accounting port ${acctPort}` +
      `${eap === null ? '' : ', WPA-Enterprise with EAP-TTLS/PAP'}` +
      `${accountingDatabase === null ? '' : ', Interim-Updates recorded in the database by FreeRADIUS'}). ` +
      `It holds the NAS secrets, the token${accountingDatabase === null ? '' : ' and the database password'}: keep it private.\nRun: freeradius -f -l stdout -d ${confDir}\n`,
  );
}

const SERVICE_DATABASE: ServiceNeed<string | null> = {
  resolve: (context) => mysqlDatabaseOf(context.get(ConfigService)),
};

/** `hotspot radius-sql-grants`: what the account of --accounting-db-url may do, as SQL to run as an administrator. */
export const radiusSqlGrantsCommand: CliCommand = {
  register(program, { io, runtime }) {
    program
      .command('radius-sql-grants')
      .description(
        'Print the GRANT statements for the MariaDB/MySQL account FreeRADIUS records Interim-Updates with ' +
          "(radius-config --accounting-db-url): it reads a few columns and changes a session's counters and a " +
          "device's last sighting, nothing else. Create the account first, then run the output as an administrator",
      )
      .addOption(
        valueOption(
          '--user <name>',
          'the account name, e.g. hotspot_radius (required)',
          (raw) => raw,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--host <host>',
          "the account's host: where FreeRADIUS connects from (default localhost)",
          (raw) => raw,
        ),
      )
      .addOption(flagOption('--json', 'print one JSON object {database, user, host, grants} instead of SQL'))
      .action((options: { user: string; host?: string; json?: true }) =>
        runtime.use(SERVICE_DATABASE, (database) => {
          if (database === null) {
            return Promise.reject(
              new UsageError('the service runs on SQLite: FreeRADIUS records nothing itself there'),
            );
          }
          const host = options.host ?? 'localhost';
          let grants: string[];
          try {
            grants = accountingDatabaseGrants(database, options.user, host);
          } catch (error) {
            return Promise.reject(error instanceof FreeRadiusConfigError ? new UsageError(error.message) : error);
          }
          if (options.json) printJson(io, { database, user: options.user, host, grants });
          else io.stdout.write(grants.map((grant) => `${grant};\n`).join(''));
          return Promise.resolve();
        }),
      );
  },
};
