import { parseArgs } from 'node:util';
import type { CreateTokenInput } from '../auth/api-token.service.js';
import type { ApiTokenEntity } from '../auth/entities/api-token.entity.js';
import { isPermission, PERMISSIONS, type Permission } from '../auth/permissions.js';
import { parseIsoDateTimeWithZone } from '../common/validation/iso-date-time.js';
import { VENUE_ID_PATTERN } from '../common/validation/validators.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type CliIo } from './cli-context.js';

/**
 * `npm run -s token -- create|list|revoke|help`: the logic, free of process globals so tests run it
 * in-process against a real database. src/cli/token.ts wires it to the process.
 */

export const TOKEN_USAGE = `Usage: npm run -s token -- <command> [options]
   or: node dist/src/cli/token.js <command> [options]

Commands:
  create --name NAME --permissions read[,write][,delete] [--venues A,B] [--expires-at ISO] [--json]
      Creates an API token. Its value is shown only this once: alone on stdout, or with --json
      as one JSON object {id, name, token, permissions, venueIds, expiresAt}.
      --name         1-100 characters
      --permissions  comma-separated subset of read, write, delete (the highest one counts)
      --venues       comma-separated venue ids (1-64 of A-Za-z0-9_.:-); omitted: every venue
      --expires-at   ISO 8601 date-time with a zone, in the future, e.g. 2030-01-31T12:00:00Z
  list [--json]
      Lists the tokens (never their values): id, name, prefix, permissions, venues, status and
      the created, last used, expires and revoked times.
  revoke <id or token value> [--json]
      Revokes a token. Exit code 1 when no token matches.
  help
      Shows this text.

Results go to stdout, log lines to stderr. Exit codes: 0 done, 1 failed or not found, 2 bad usage.
Use "npm run -s" (or node directly): without -s, npm prints its own "> …" banner on stdout.
`;

const NAME_MAX_LENGTH = 100;
/** Long enough for any token value (BOOTSTRAP_TOKEN allows 256 characters). */
const REVOKE_ARGUMENT_MAX_LENGTH = 512;

export type TokenCommand =
  | { kind: 'help' }
  | { kind: 'create'; input: CreateTokenInput; json: boolean }
  | { kind: 'list'; json: boolean }
  | { kind: 'revoke'; idOrValue: string; json: boolean };

export interface TokenCommandServices {
  tokens: {
    create(input: CreateTokenInput): Promise<{ record: ApiTokenEntity; value: string }>;
    list(): Promise<ApiTokenEntity[]>;
    revoke(idOrValue: string): Promise<ApiTokenEntity | null>;
  };
  clock: { now(): Date };
}

/** Parses and validates the arguments (without the node and script paths). Throws UsageError. */
export function parseTokenArgs(argv: readonly string[], now: Date): TokenCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new UsageError(`A command is needed.\n\n${TOKEN_USAGE}`);
    case 'help':
    case '--help':
    case '-h':
      return { kind: 'help' };
    case 'create':
      return parseCreate(rest, now);
    case 'list': {
      const parsed = parseOptions(rest, { json: { type: 'boolean' } });
      refusePositionals(parsed.positionals, 'list');
      return { kind: 'list', json: flag(parsed, 'json') };
    }
    case 'revoke': {
      const parsed = parseOptions(rest, { json: { type: 'boolean' } });
      const { positionals } = parsed;
      if (positionals.length !== 1) {
        throw new UsageError('revoke needs exactly one argument: the token id or the token value');
      }
      const idOrValue = positionals[0];
      if (idOrValue === '' || idOrValue.length > REVOKE_ARGUMENT_MAX_LENGTH || /\s/.test(idOrValue)) {
        throw new UsageError('revoke: the argument is not a token id or token value');
      }
      return { kind: 'revoke', idOrValue, json: flag(parsed, 'json') };
    }
    default:
      throw new UsageError(`Unknown command "${printable(command)}". Commands: create, list, revoke, help.`);
  }
}

function parseCreate(args: string[], now: Date): TokenCommand {
  const parsed = parseOptions(args, {
    name: { type: 'string' },
    permissions: { type: 'string' },
    venues: { type: 'string' },
    'expires-at': { type: 'string' },
    json: { type: 'boolean' },
  });
  refusePositionals(parsed.positionals, 'create');
  const name = stringOption(parsed, 'name');
  const permissions = stringOption(parsed, 'permissions');
  const venues = stringOption(parsed, 'venues');
  const expiresAt = stringOption(parsed, 'expires-at');
  if (name === undefined) throw new UsageError('create needs --name');
  if (permissions === undefined) throw new UsageError('create needs --permissions (read, write, delete)');
  return {
    kind: 'create',
    input: {
      name: parseName(name),
      permissions: parsePermissions(permissions),
      venueIds: venues === undefined ? null : parseVenues(venues),
      expiresAt: expiresAt === undefined ? null : parseExpiresAt(expiresAt, now),
    },
    json: flag(parsed, 'json'),
  };
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

interface ParsedOptions {
  values: Record<string, Array<string | boolean> | undefined>;
  positionals: string[];
}

function parseOptions(args: string[], options: OptionSpec): ParsedOptions {
  try {
    return parseArgs({
      args,
      // Every option may be given at most once; `multiple` lets single() say so instead of "last wins".
      options: Object.fromEntries(
        Object.entries(options).map(([key, spec]) => [key, { ...spec, multiple: true }]),
      ) as Record<string, { type: 'string' | 'boolean'; multiple: true }>,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function single(parsed: ParsedOptions, option: string): string | boolean | undefined {
  const values = parsed.values[option];
  if (values === undefined) return undefined;
  if (values.length > 1) throw new UsageError(`--${option} may be given only once`);
  return values[0];
}

function stringOption(parsed: ParsedOptions, option: string): string | undefined {
  const value = single(parsed, option);
  return typeof value === 'string' ? value : undefined;
}

function flag(parsed: ParsedOptions, option: string): boolean {
  return single(parsed, option) === true;
}

function refusePositionals(positionals: string[], command: string): void {
  if (positionals.length > 0) {
    throw new UsageError(`${command} takes no argument "${printable(positionals[0])}"`);
  }
}

export function parseName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length < 1 || length > NAME_MAX_LENGTH) {
    throw new UsageError(`--name must be 1-${NAME_MAX_LENGTH} characters`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new UsageError('--name must not contain control characters');
  return name;
}

export function parsePermissions(raw: string): Permission[] {
  const items = raw.split(',').map((item) => item.trim());
  const unknown = items.filter((item) => !isPermission(item));
  if (raw.trim() === '' || unknown.length > 0) {
    throw new UsageError(
      `--permissions must be a comma-separated list of ${PERMISSIONS.join(', ')}` +
        (unknown.length > 0 && raw.trim() !== '' ? ` (not: ${unknown.map((u) => `"${printable(u)}"`).join(', ')})` : ''),
    );
  }
  return PERMISSIONS.filter((permission) => items.includes(permission));
}

export function parseVenues(raw: string): string[] {
  const items = raw.split(',').map((item) => item.trim());
  const bad = items.filter((item) => !VENUE_ID_PATTERN.test(item));
  if (bad.length > 0) {
    throw new UsageError(
      '--venues must be a comma-separated list of venue ids, each 1-64 characters of A-Za-z0-9_.:-' +
        (raw.trim() === '' ? '' : ` (not: ${bad.map((b) => `"${printable(b)}"`).join(', ')})`),
    );
  }
  return [...new Set(items)];
}

/** An ISO 8601 date-time with a zone that names a real instant (no 30 February) in the future. */
export function parseExpiresAt(raw: string, now: Date): Date {
  const instant = parseIsoDateTimeWithZone(raw.trim());
  if (instant === null) {
    throw new UsageError('--expires-at must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z');
  }
  if (instant.getTime() <= now.getTime()) throw new UsageError('--expires-at must lie in the future');
  return instant;
}

/** Parses, then runs a token command. Returns the process exit code. */
export async function runTokenCommand(
  argv: readonly string[],
  io: CliIo,
  services: TokenCommandServices,
): Promise<number> {
  let command: TokenCommand;
  try {
    command = parseTokenArgs(argv, services.clock.now());
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return EXIT_USAGE;
  }
  return executeTokenCommand(command, io, services);
}

export async function executeTokenCommand(
  command: TokenCommand,
  io: CliIo,
  services: TokenCommandServices,
): Promise<number> {
  switch (command.kind) {
    case 'help':
      io.stdout.write(TOKEN_USAGE);
      return EXIT_OK;
    case 'create':
      return create(command.input, command.json, io, services);
    case 'list':
      return list(command.json, io, services);
    case 'revoke':
      return revoke(command.idOrValue, command.json, io, services);
  }
}

async function create(input: CreateTokenInput, json: boolean, io: CliIo, services: TokenCommandServices) {
  const { record, value } = await services.tokens.create(input);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({
        id: record.id,
        name: record.name,
        token: value,
        permissions: record.permissions,
        venueIds: record.venueIds,
        expiresAt: iso(record.expiresAt),
      })}\n`,
    );
    return EXIT_OK;
  }
  io.stderr.write(
    `Created token ${record.id} "${record.name}": permissions ${record.permissions.join(',')}, ` +
      `venues ${record.venueIds?.join(',') ?? 'all'}, expires ${iso(record.expiresAt) ?? 'never'}.\n` +
      `Its value follows; it is shown only this once. Use it as: Authorization: Bearer <token>\n`,
  );
  io.stdout.write(`${value}\n`);
  return EXIT_OK;
}

export type TokenStatus = 'active' | 'revoked' | 'expired';

function statusOf(token: ApiTokenEntity, now: Date): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt !== null && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

async function list(json: boolean, io: CliIo, services: TokenCommandServices) {
  const tokens = await services.tokens.list();
  const now = services.clock.now();
  const rows = tokens.map((token) => ({
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    permissions: token.permissions,
    venueIds: token.venueIds,
    status: statusOf(token, now),
    createdAt: iso(token.createdAt),
    lastUsedAt: iso(token.lastUsedAt),
    expiresAt: iso(token.expiresAt),
    revokedAt: iso(token.revokedAt),
  }));
  if (json) {
    io.stdout.write(`${JSON.stringify(rows)}\n`);
    return EXIT_OK;
  }
  if (rows.length === 0) {
    io.stderr.write('No tokens. Create one with: npm run -s token -- create --name NAME --permissions read\n');
    return EXIT_OK;
  }
  const table = [
    ['ID', 'NAME', 'PREFIX', 'PERMISSIONS', 'VENUES', 'STATUS', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED'],
    ...rows.map((row) => [
      row.id,
      row.name,
      `${row.prefix}…`,
      row.permissions.join(','),
      row.venueIds?.join(',') ?? '(all)',
      row.status,
      row.createdAt ?? '-',
      row.lastUsedAt ?? '-',
      row.expiresAt ?? '-',
      row.revokedAt ?? '-',
    ]),
  ];
  const widths = table[0].map((_, column) => Math.max(...table.map((line) => [...line[column]].length)));
  for (const line of table) {
    io.stdout.write(
      `${line
        .map((cell, column) => cell + ' '.repeat(widths[column] - [...cell].length))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
  return EXIT_OK;
}

async function revoke(idOrValue: string, json: boolean, io: CliIo, services: TokenCommandServices) {
  const before = services.clock.now();
  const token = await services.tokens.revoke(idOrValue);
  if (token === null) {
    // The argument may be a secret: it is not echoed.
    io.stderr.write('No token matches that id or value.\n');
    return EXIT_FAILURE;
  }
  const revokedAt = token.revokedAt ?? before;
  const already = revokedAt.getTime() < before.getTime();
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ id: token.id, name: token.name, revokedAt: iso(revokedAt), alreadyRevoked: already })}\n`,
    );
  } else if (already) {
    io.stdout.write(`Token ${token.id} "${token.name}" was already revoked at ${iso(revokedAt)}.\n`);
  } else {
    io.stdout.write(`Revoked token ${token.id} "${token.name}" at ${iso(revokedAt)}.\n`);
  }
  if (!already) {
    io.stderr.write(
      'Running API instances refuse it once their token cache entry lapses (TOKEN_CACHE_TTL_SECONDS, default 10 s).\n',
    );
  }
  return EXIT_OK;
}

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** Echoes user input safely: no control characters, bounded length. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return cleaned.length > 40 ? `${cleaned.slice(0, 40)}…` : cleaned;
}
