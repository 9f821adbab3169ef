import { AuditModule } from '../../audit/audit.module.js';
import { Argument } from 'commander';
import { ApiTokenRepository } from '../../auth/api-token.repository.js';
import { ApiTokenService } from '../../auth/api-token.service.js';
import type { Permission } from '../../auth/permissions.js';
import { toTokenJson, type TokenJson } from '../../auth/token-json.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, futureDateTime, permissionList, text, valueOption, venueIdList } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot token create|list|revoke`: API tokens. */

export type TokenService = Pick<ApiTokenService, 'create' | 'list' | 'statusOf' | 'revokeReporting'>;

export const TOKEN_SERVICE: ServiceNeed<TokenService> = {
  // ApiTokenService and its queries alone, not AuthModule: its BootstrapTokenService would act on start-up.
  imports: [AuditModule],
  providers: [ApiTokenRepository, ApiTokenService],
  resolve: (context) => context.get(ApiTokenService),
};

const NAME_MAX_LENGTH = 100;
/** Long enough for any token value (BOOTSTRAP_TOKEN allows 256 characters). */
const REVOKE_ARGUMENT_MAX_LENGTH = 512;

interface CreateOptions {
  name: string;
  permissions: Permission[];
  venues?: string[];
  expiresAt?: Date;
  json?: true;
}

export const tokenCommand: CliCommand = {
  register(program, { io, runtime }) {
    const token = program
      .command('token')
      .description('Create, list and revoke API tokens.')
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  hotspot token create --name NAME --permissions read[,write][,delete] [--venues A,B] [--expires-at ISO]\n' +
          '  hotspot token create --name freeradius --permissions radius\n' +
          '  TOKEN=$(hotspot token create --name ci --permissions read)\n' +
          '  hotspot token list --json\n' +
          '  hotspot token revoke <id or token value>\n',
      );

    token
      .command('create')
      .description(
        'Create an API token. Its value is shown only this once: alone on stdout, or with --json as one JSON ' +
          'object {id, name, token, permissions, venueIds, expiresAt}.',
      )
      .addOption(
        valueOption(
          '--name <name>',
          `1-${NAME_MAX_LENGTH} characters (required)`,
          text(NAME_MAX_LENGTH),
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--permissions <list>',
          'comma-separated subset of read, write, delete (the highest one counts), or radius alone ' +
            '(the FreeRADIUS back end: /radius/ routes only) (required)',
          permissionList,
        ).makeOptionMandatory(),
      )
      .addOption(valueOption('--venues <ids>', 'comma-separated venue ids; omitted: every venue', venueIdList))
      .addOption(
        valueOption(
          '--expires-at <iso>',
          'ISO 8601 date-time with a zone, in the future, e.g. 2030-01-31T12:00:00Z; omitted: never',
          futureDateTime(() => runtime.now()),
        ),
      )
      .addOption(flagOption('--json', 'print one JSON object instead of the value alone'))
      .action((options: CreateOptions) => runtime.use(TOKEN_SERVICE, (tokens) => create(tokens, options, io)));

    token
      .command('list')
      .description('List the tokens (never their values): id, name, prefix, permissions, venues, status and times.')
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: { json?: true }) => runtime.use(TOKEN_SERVICE, (tokens) => list(tokens, options, io)));

    token
      .command('revoke')
      .description('Revoke a token. Revoking it again is no error. Exit code 1 when no token matches.')
      .addArgument(new Argument('<id-or-token>', 'the token id or the token value').argParser(revokeArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, name, revokedAt, alreadyRevoked}'))
      .action((idOrValue: string, options: { json?: true }) =>
        runtime.use(TOKEN_SERVICE, (tokens) => revoke(tokens, idOrValue, options, io)),
      );
  },
};

function revokeArgument(raw: string): string {
  // The argument may be a secret: it is not echoed.
  if (raw === '' || raw.length > REVOKE_ARGUMENT_MAX_LENGTH || /\s/.test(raw)) {
    throw new UsageError('the argument of revoke is not a token id or token value');
  }
  return raw;
}

async function create(tokens: TokenService, options: CreateOptions, io: CliIo): Promise<void> {
  const { record, value } = await tokens.create({
    name: options.name,
    permissions: options.permissions,
    venueIds: options.venues ?? null,
    expiresAt: options.expiresAt ?? null,
  });
  const created = toTokenJson(record, tokens.statusOf(record));
  if (options.json) {
    const { id, name, prefix, permissions, venueIds, expiresAt } = created;
    printJson(io, { id, name, token: value, prefix, permissions, venueIds, expiresAt });
    return;
  }
  io.stderr.write(
    `Created token ${created.id} "${created.name}": permissions ${created.permissions.join(',')}, ` +
      `venues ${created.venueIds?.join(',') ?? 'all'}, expires ${created.expiresAt ?? 'never'}; ` +
      `listed as ${created.prefix}….\n` +
      'Its value follows; it is shown only this once. Use it as: Authorization: Bearer <token>\n',
  );
  io.stdout.write(`${value}\n`);
}

async function list(tokens: TokenService, options: { json?: true }, io: CliIo): Promise<void> {
  const rows = (await tokens.list()).map((token) => toTokenJson(token, tokens.statusOf(token)));
  if (options.json) {
    printJson(io, rows);
    return;
  }
  if (rows.length === 0) {
    io.stderr.write('No tokens. Create one with: hotspot token create --name NAME --permissions read\n');
    return;
  }
  for (const line of textTable(TOKEN_TABLE_HEADER, rows.map(tokenTableRow))) io.stdout.write(`${line}\n`);
}

const TOKEN_TABLE_HEADER = [
  'ID',
  'NAME',
  'PREFIX',
  'PERMISSIONS',
  'VENUES',
  'STATUS',
  'CREATED',
  'LAST USED',
  'EXPIRES',
  'REVOKED',
];

/** How `token list` shows a token, one cell per column of TOKEN_TABLE_HEADER. */
function tokenTableRow(token: TokenJson): string[] {
  return [
    token.id,
    token.name,
    `${token.prefix}…`,
    token.permissions.join(','),
    token.venueIds?.join(',') ?? '(all)',
    token.status,
    token.createdAt,
    token.lastUsedAt ?? '-',
    token.expiresAt ?? '-',
    token.revokedAt ?? '-',
  ];
}

async function revoke(tokens: TokenService, idOrValue: string, options: { json?: true }, io: CliIo): Promise<void> {
  const revocation = await tokens.revokeReporting(idOrValue);
  if (revocation === null) throw new CommandFailure('No token matches that id or value.');
  const { id, name, revokedAt } = toTokenJson(revocation.token, tokens.statusOf(revocation.token));
  const { alreadyRevoked } = revocation;
  if (options.json) {
    printJson(io, { id, name, revokedAt, alreadyRevoked });
  } else if (alreadyRevoked) {
    io.stdout.write(`Token ${id} "${name}" was already revoked at ${revokedAt}.\n`);
  } else {
    io.stdout.write(`Revoked token ${id} "${name}" at ${revokedAt}.\n`);
  }
  if (!alreadyRevoked) {
    io.stderr.write('Running API instances refuse it within 1 s.\n');
  }
}
