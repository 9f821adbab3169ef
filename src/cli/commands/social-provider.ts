import { Argument } from 'commander';
import { AuditModule } from '../../audit/audit.module.js';
import { OpenIdClients } from '../../social-sign-in/openid-clients.js';
import {
  SocialProviderNameTakenError,
  SocialProvidersService,
  SocialProviderValidationError,
  type SocialProvider,
  type SocialProviderChanges,
} from '../../social-sign-in/social-providers.service.js';
import { SocialSignInRepository } from '../../social-sign-in/social-sign-in.repository.js';
import { SocialSignInService } from '../../social-sign-in/social-sign-in.service.js';
import {
  CLIENT_SECRET_MAX_LENGTH,
  DEFAULT_SCOPES,
  providerNameProblem,
} from '../../social-sign-in/social-sign-in.rules.js';
import { VenuesModule } from '../../venues/venues.module.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, printable, text, valueOption, venueIdList } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot social-provider add|list|set|remove`: the OpenID providers guests may sign in to the portal with. */

export interface SocialProviderRegistry {
  providers: Pick<
    SocialProvidersService,
    'add' | 'list' | 'update' | 'remove' | 'encryptsSecrets' | 'unregisteredVenues'
  >;
  callbackUrl: string | null;
}

export const SOCIAL_PROVIDER_SERVICE: ServiceNeed<SocialProviderRegistry> = {
  imports: [AuditModule, VenuesModule],
  providers: [SocialProvidersService, SocialSignInService, SocialSignInRepository, OpenIdClients],
  resolve: (context) => ({
    providers: context.get(SocialProvidersService),
    callbackUrl: context.get(SocialSignInService).callbackUrl,
  }),
};

/** Bytes read from stdin at most for --client-secret-stdin: the longest secret in 4-byte characters, and a newline. */
const SECRET_STDIN_MAX_BYTES = CLIENT_SECRET_MAX_LENGTH * 4 + 2;

interface AddOptions {
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecretStdin?: true;
  scopes?: string;
  venues?: string[];
  json?: true;
}

interface SetOptions {
  displayName?: string;
  clientId?: string;
  clientSecretStdin?: true;
  scopes?: string;
  /** false with --no-venues. */
  venues?: string[] | false;
  json?: true;
}

function providerName(raw: string): string {
  const problem = providerNameProblem(raw);
  if (problem !== null) throw new UsageError(problem);
  return raw;
}

function idOrNameArgument(raw: string): string {
  if (raw === '' || raw.length > 64 || /\s/.test(raw))
    throw new UsageError('the argument is not a provider id or name');
  return raw;
}

export const socialProviderCommand: CliCommand = {
  register(program, { io, runtime }) {
    const command = program
      .command('social-provider')
      .description(
        'Register, list, change and remove the OpenID Connect providers guests may sign in to the portal with.',
      )
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  printf %s "$SECRET" | hotspot social-provider add --name google --display-name Google \\\n' +
          '      --issuer https://accounts.google.com --client-id ID --client-secret-stdin --venues lobby,spa\n' +
          '  hotspot social-provider list --json\n' +
          '  hotspot social-provider set google --venues lobby\n' +
          '  hotspot social-provider remove google\n' +
          'Give each provider the redirect URI <PORTAL_PUBLIC_URL>/portal/social/callback (docs/social-sign-in.md).\n',
      );

    command
      .command('add')
      .description(
        'Register a provider (its issuer must answer OpenID discovery). The client secret is read from stdin, ' +
          'stored sealed under the secrets key and never shown again.',
      )
      .addOption(
        valueOption(
          '--name <name>',
          'short name, unique: 1-64 characters of a-z0-9_- (required)',
          providerName,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--display-name <text>',
          'what the portal\'s button says: "Sign in with <text>" (required)',
          text(100),
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--issuer <url>',
          'the issuer URL, https:// (http:// only on the loopback interface) (required)',
          (raw) => raw,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--client-id <id>',
          'the client id the provider gave (required)',
          (raw) => raw,
        ).makeOptionMandatory(),
      )
      .addOption(
        flagOption('--client-secret-stdin', 'read the client secret from stdin (required)').makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--scopes <list>',
          `scopes to ask for, space- or comma-separated; openid is always asked (default "${DEFAULT_SCOPES.join(' ')}")`,
          (raw) => raw,
        ),
      )
      .addOption(valueOption('--venues <ids>', 'comma-separated venues whose portal offers it', venueIdList))
      .addOption(
        flagOption(
          '--json',
          'print one JSON object {id, name, displayName, issuer, clientId, scopes, venueIds, createdAt}',
        ),
      )
      .action((options: AddOptions) =>
        runtime.use(SOCIAL_PROVIDER_SERVICE, async (registry) => add(registry, options, await readSecret(io), io)),
      );

    command
      .command('set')
      .description('Change a provider: its button text, client, scopes or venues. Exit code 1 when none matches.')
      .addArgument(new Argument('<id-or-name>', 'the provider id or name').argParser(idOrNameArgument))
      .addOption(valueOption('--display-name <text>', "what the portal's button says", text(100)))
      .addOption(valueOption('--client-id <id>', 'the client id the provider gave', (raw) => raw))
      .addOption(flagOption('--client-secret-stdin', 'read a new client secret from stdin'))
      .addOption(valueOption('--scopes <list>', 'scopes to ask for, space- or comma-separated', (raw) => raw))
      .addOption(
        valueOption('--venues <ids>', 'comma-separated venues whose portal offers it (replaces the list)', venueIdList),
      )
      .addOption(flagOption('--no-venues', 'no venue offers it any more'))
      .addOption(flagOption('--json', 'print the provider as one JSON object'))
      .action((idOrName: string, options: SetOptions) =>
        runtime.use(SOCIAL_PROVIDER_SERVICE, async (registry) =>
          set(registry, idOrName, options, options.clientSecretStdin ? await readSecret(io) : undefined, io),
        ),
      );

    command
      .command('list')
      .description('List the providers (never their client secrets) and the redirect URI to give them.')
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: { json?: true }) =>
        runtime.use(SOCIAL_PROVIDER_SERVICE, (registry) => list(registry, options, io)),
      );

    command
      .command('remove')
      .description('Remove a provider; guests signed in with it keep their users. Exit code 1 when none matches.')
      .addArgument(new Argument('<id-or-name>', 'the provider id or name').argParser(idOrNameArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, name}'))
      .action((idOrName: string, options: { json?: true }) =>
        runtime.use(SOCIAL_PROVIDER_SERVICE, (registry) => remove(registry, idOrName, options, io)),
      );
  },
};

/** The client secret on stdin, without one trailing newline; never echoed. */
async function readSecret(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin ?? []) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += bytes.length;
    if (size > SECRET_STDIN_MAX_BYTES) {
      throw new UsageError(`the client secret on stdin must be at most ${CLIENT_SECRET_MAX_LENGTH} characters`);
    }
    chunks.push(bytes);
  }
  const secret = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (secret === '') throw new UsageError('--client-secret-stdin found no secret on stdin');
  return secret;
}

function toJson(provider: SocialProvider) {
  return { ...provider, createdAt: provider.createdAt.toISOString() };
}

async function add(registry: SocialProviderRegistry, options: AddOptions, secret: string, io: CliIo): Promise<void> {
  let provider: SocialProvider;
  try {
    provider = await registry.providers.add({
      name: options.name,
      displayName: options.displayName,
      issuer: options.issuer,
      clientId: options.clientId,
      clientSecret: secret,
      scopes: options.scopes,
      venueIds: options.venues,
    });
  } catch (error) {
    if (error instanceof SocialProviderValidationError) throw new UsageError(error.message);
    if (error instanceof SocialProviderNameTakenError) throw new CommandFailure(error.message);
    throw error;
  }
  if (options.json) printJson(io, toJson(provider));
  else io.stdout.write(`Added social sign-in provider ${provider.id} "${provider.name}": ${describe(provider)}.\n`);
  await warn(registry, provider, io);
}

/** What an operator should hear after a change: a secret in clear, unknown venues, no redirect URI. */
async function warn(registry: SocialProviderRegistry, provider: SocialProvider, io: CliIo): Promise<void> {
  if (!registry.providers.encryptsSecrets) {
    io.stderr.write('Warning: no secrets key is set, so the client secret is stored in clear in the database.\n');
  }
  for (const venueId of await registry.providers.unregisteredVenues(provider.venueIds)) {
    io.stderr.write(
      `Warning: the venue "${venueId}" is not registered; register it with: hotspot venue set ${venueId}\n`,
    );
  }
  io.stderr.write(
    registry.callbackUrl === null
      ? 'Warning: PORTAL_PUBLIC_URL is not set, so the portal offers no social sign-in until it is.\n'
      : `Give the provider this redirect URI: ${registry.callbackUrl}\n`,
  );
}

function describe(provider: SocialProvider): string {
  const venues = provider.venueIds.length === 0 ? 'no venue yet' : `venues ${provider.venueIds.join(', ')}`;
  return `issuer ${provider.issuer}, client ${provider.clientId}, scopes ${provider.scopes.join(' ')}, ${venues}`;
}

async function set(
  registry: SocialProviderRegistry,
  idOrName: string,
  options: SetOptions,
  secret: string | undefined,
  io: CliIo,
): Promise<void> {
  const changes: SocialProviderChanges = {
    displayName: options.displayName,
    clientId: options.clientId,
    clientSecret: secret,
    scopes: options.scopes,
    venueIds: options.venues === false ? [] : options.venues,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new UsageError(
      'nothing to change: give --display-name, --client-id, --client-secret-stdin, --scopes, --venues or --no-venues',
    );
  }
  let changed: SocialProvider | null;
  try {
    changed = await registry.providers.update(idOrName, changes);
  } catch (error) {
    if (error instanceof SocialProviderValidationError) throw new UsageError(error.message);
    throw error;
  }
  if (changed === null)
    throw new CommandFailure(`No social sign-in provider has the id or name "${printable(idOrName)}".`);
  if (options.json) printJson(io, toJson(changed));
  else io.stdout.write(`Changed social sign-in provider ${changed.id} "${changed.name}": ${describe(changed)}.\n`);
  if (changes.venueIds !== undefined || secret !== undefined) await warn(registry, changed, io);
}

const TABLE_HEADER = ['ID', 'NAME', 'DISPLAY NAME', 'ISSUER', 'CLIENT ID', 'SCOPES', 'VENUES', 'CREATED'];

async function list(registry: SocialProviderRegistry, options: { json?: true }, io: CliIo): Promise<void> {
  const providers = await registry.providers.list();
  if (options.json) {
    printJson(io, providers.map(toJson));
    return;
  }
  if (providers.length === 0) {
    io.stderr.write(
      'No social sign-in providers. Register one with: hotspot social-provider add --name N --display-name D ' +
        '--issuer URL --client-id ID --client-secret-stdin\n',
    );
    return;
  }
  const cells = providers.map((provider) => [
    provider.id,
    provider.name,
    provider.displayName,
    provider.issuer,
    provider.clientId,
    provider.scopes.join(' '),
    provider.venueIds.length === 0 ? '-' : provider.venueIds.join(','),
    provider.createdAt.toISOString(),
  ]);
  for (const line of textTable(TABLE_HEADER, cells)) io.stdout.write(`${line}\n`);
  io.stderr.write(
    registry.callbackUrl === null
      ? 'PORTAL_PUBLIC_URL is not set: the portal offers no social sign-in.\n'
      : `Redirect URI for every provider: ${registry.callbackUrl}\n`,
  );
}

async function remove(
  registry: SocialProviderRegistry,
  idOrName: string,
  options: { json?: true },
  io: CliIo,
): Promise<void> {
  const removed = await registry.providers.remove(idOrName);
  if (removed === null)
    throw new CommandFailure(`No social sign-in provider has the id or name "${printable(idOrName)}".`);
  if (options.json) printJson(io, { id: removed.id, name: removed.name });
  else io.stdout.write(`Removed social sign-in provider ${removed.id} "${removed.name}".\n`);
}
