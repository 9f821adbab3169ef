import { AuditModule } from '../../audit/audit.module.js';
import { VenuesModule } from '../../venues/venues.module.js';
import { Argument, Option } from 'commander';
import { NasClientsRepository } from '../../nas/nas-clients.repository.js';
import { toNasJson, type NasJson } from '../../nas/nas-json.js';
import {
  DEFAULT_COA_PORT,
  NAS_VENDORS,
  nasNameProblem,
  parseNasAddress,
  secretProblem,
  type NasVendor,
} from '../../nas/nas-rules.js';
import {
  NasAddressTakenError,
  NasAmbiguousError,
  NasNameTakenError,
  NasService,
  NasValidationError,
  type NasChanges,
  type NasClient,
} from '../../nas/nas.service.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { choiceOption, flagOption, printable, valueOption, venueId } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot nas add|list|set|remove`: the NAS registry (the RADIUS clients FreeRADIUS accepts). */

export type NasRegistry = Pick<
  NasService,
  'add' | 'list' | 'update' | 'remove' | 'encryptsSecrets' | 'isVenueRegistered'
>;

export const NAS_SERVICE: ServiceNeed<NasRegistry> = {
  // NasService alone, not NasModule: its start-up check is the service's business, not a command's.
  imports: [AuditModule, VenuesModule],
  providers: [NasService, NasClientsRepository],
  resolve: (context) => context.get(NasService),
};

const REGENERATE_HINT =
  'FreeRADIUS reads its clients at start-up: regenerate its configuration (hotspot radius-config …) and restart it.\n';

interface AddOptions {
  venue: string;
  name: string;
  ip: string;
  secret: string;
  coaPort?: number;
  vendor?: NasVendor;
  requireMessageAuthenticator?: true;
  /** false with --no-coa. */
  coa?: boolean;
  allowShortSecret?: true;
  json?: true;
}

interface SetOptions {
  coaPort?: number;
  vendor?: NasVendor;
  requireMessageAuthenticator?: boolean;
  coa?: boolean;
  json?: true;
}

const NO_COA_HELP = 'it takes Disconnect-Requests but no CoA-Requests: expiry changes then send it no CoA';

function checked(problem: (raw: string) => string | null): (raw: string) => string {
  return (raw) => {
    const message = problem(raw);
    if (message !== null) throw new UsageError(message);
    return raw;
  };
}

function nasAddress(raw: string): string {
  const parsed = parseNasAddress(raw.trim());
  if ('error' in parsed) throw new UsageError(parsed.error);
  return parsed.text;
}

function port(raw: string): number {
  if (!/^\d{1,5}$/.test(raw.trim()) || Number(raw) > 65535) {
    throw new UsageError('must be an integer from 0 to 65535 (0: the NAS has no Disconnect/CoA listener)');
  }
  return Number(raw);
}

export const nasCommand: CliCommand = {
  register(program, { io, runtime }) {
    const nas = program
      .command('nas')
      .description(
        'Register, list, change and remove NASes: the access points and gateways FreeRADIUS accepts requests from.',
      )
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  hotspot nas add --venue lobby --name lobby-ap --ip 192.0.2.10 --secret S [--coa-port 3799] [--vendor mikrotik]\n' +
          '  hotspot nas add --venue campus --name campus-gw --ip 10.20.0.0/16 --secret S --require-message-authenticator\n' +
          '  hotspot nas list --json\n' +
          '  hotspot nas set lobby-ap --no-coa\n' +
          '  hotspot nas remove lobby-ap\n',
      );

    nas
      .command('add')
      .description(
        'Register a NAS. Its secret is stored encrypted when SECRETS_KEY is set (in clear otherwise) and is never shown again.',
      )
      .addOption(valueOption('--venue <id>', 'the venue the NAS serves (required)', venueId).makeOptionMandatory())
      .addOption(
        valueOption(
          '--name <name>',
          'FreeRADIUS client shortname, unique: 1-64 characters of A-Za-z0-9_.- (required)',
          checked(nasNameProblem),
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--ip <address>',
          'the source address of its requests, or a network: 192.0.2.10, 192.0.2.0/24, 2001:db8::/64 (required)',
          nasAddress,
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--secret <secret>',
          'RADIUS shared secret: 16-128 printable characters without " or \\ (required)',
          checked(secretProblem),
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--coa-port <port>',
          `its Disconnect/CoA port (RFC 5176); 0: none (default ${DEFAULT_COA_PORT})`,
          port,
        ),
      )
      .addOption(choiceOption('--vendor <vendor>', 'vendor hint (default other)', NAS_VENDORS))
      .addOption(
        flagOption('--require-message-authenticator', 'drop its Access-Requests that lack a Message-Authenticator'),
      )
      .addOption(
        flagOption(
          '--allow-short-secret',
          'accept a secret under 16 octets, for a NAS that cannot take a longer one (RFC 2865 asks for 16)',
        ),
      )
      // Alone, a --no- option defaults to true, which flagOption would read as given twice.
      .addOption(new Option('--no-coa', NO_COA_HELP))
      .addOption(
        flagOption(
          '--json',
          'print one JSON object {id, venueId, name, ipAddress, coaPort, vendor, requireMessageAuthenticator, acceptsCoa, createdAt}',
        ),
      )
      .action((options: AddOptions) => runtime.use(NAS_SERVICE, (registry) => add(registry, options, io)));

    nas
      .command('set')
      .description(
        'Change a registered NAS: its CoA port, vendor, Message-Authenticator rule, or whether it accepts CoA. ' +
          'Exit code 1 when none matches.',
      )
      .addArgument(new Argument('<id-or-name>', 'the NAS id or name').argParser(idOrNameArgument))
      .addOption(valueOption('--coa-port <port>', 'its Disconnect/CoA port (RFC 5176); 0: none', port))
      .addOption(choiceOption('--vendor <vendor>', 'vendor hint', NAS_VENDORS))
      .addOption(
        flagOption('--require-message-authenticator', 'drop its Access-Requests that lack a Message-Authenticator'),
      )
      .addOption(flagOption('--no-require-message-authenticator', 'accept its Access-Requests without one'))
      .addOption(flagOption('--coa', 'it accepts CoA-Requests (clears the mark a refused CoA-Request set)'))
      .addOption(flagOption('--no-coa', NO_COA_HELP))
      .addOption(flagOption('--json', 'print the NAS as one JSON object'))
      .action((idOrName: string, options: SetOptions) =>
        runtime.use(NAS_SERVICE, (registry) => set(registry, idOrName, options, io)),
      );

    nas
      .command('list')
      .description('List the NASes (never their secrets).')
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: { json?: true }) => runtime.use(NAS_SERVICE, (registry) => list(registry, options, io)));

    nas
      .command('remove')
      .description('Remove a NAS. Exit code 1 when none matches.')
      .addArgument(new Argument('<id-or-name>', 'the NAS id or name').argParser(idOrNameArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, name}'))
      .action((idOrName: string, options: { json?: true }) =>
        runtime.use(NAS_SERVICE, (registry) => remove(registry, idOrName, options, io)),
      );
  },
};

function idOrNameArgument(raw: string): string {
  if (raw === '' || raw.length > 64 || /\s/.test(raw)) throw new UsageError('the argument is not a NAS id or name');
  return raw;
}

async function add(registry: NasRegistry, options: AddOptions, io: CliIo): Promise<void> {
  let nas: NasClient;
  try {
    nas = await registry.add({
      venueId: options.venue,
      name: options.name,
      ipAddress: options.ip,
      secret: options.secret,
      coaPort: options.coaPort,
      vendor: options.vendor,
      requireMessageAuthenticator: options.requireMessageAuthenticator === true,
      acceptsCoa: options.coa !== false,
      allowShortSecret: options.allowShortSecret === true,
    });
  } catch (error) {
    if (error instanceof NasValidationError) throw new UsageError(error.message);
    if (error instanceof NasNameTakenError || error instanceof NasAddressTakenError) {
      throw new CommandFailure(error.message);
    }
    throw error;
  }
  const json = toNasJson(nas);
  if (options.json) printJson(io, json);
  else io.stdout.write(`Added NAS ${json.id} "${json.name}": ${describe(json)}.\n`);
  if (!registry.encryptsSecrets) {
    io.stderr.write('Warning: SECRETS_KEY is not set, so the shared secret is stored in clear in the database.\n');
  }
  // A typo in --venue would otherwise make a new, empty venue without a word.
  if (!(await registry.isVenueRegistered(json.venueId))) {
    io.stderr.write(
      `Warning: the venue "${json.venueId}" is not registered; register it with: hotspot venue set ${json.venueId}\n`,
    );
  }
  io.stderr.write(REGENERATE_HINT);
}

function describe(nas: NasJson): string {
  return (
    `venue ${nas.venueId}, address ${nas.ipAddress}, ` +
    `${nas.coaPort === 0 ? 'no CoA listener' : `CoA port ${nas.coaPort}`}, vendor ${nas.vendor}, ` +
    `Message-Authenticator ${nas.requireMessageAuthenticator ? 'required' : 'not required'}, ` +
    `${nas.acceptsCoa ? 'accepts CoA' : 'does not accept CoA'}`
  );
}

async function set(registry: NasRegistry, idOrName: string, options: SetOptions, io: CliIo): Promise<void> {
  const changes: NasChanges = {
    coaPort: options.coaPort,
    vendor: options.vendor,
    requireMessageAuthenticator: options.requireMessageAuthenticator,
    acceptsCoa: options.coa,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new UsageError(
      'nothing to change: give --coa-port, --vendor, --[no-]require-message-authenticator or --[no-]coa',
    );
  }
  let changed: NasClient | null;
  try {
    changed = await registry.update(idOrName, changes);
  } catch (error) {
    if (error instanceof NasValidationError) throw new UsageError(error.message);
    if (error instanceof NasAmbiguousError) throw new CommandFailure(ambiguity(error, 'changed'));
    throw error;
  }
  if (changed === null) throw new CommandFailure(`No NAS has the id or name "${printable(idOrName)}".`);
  const json = toNasJson(changed);
  if (options.json) printJson(io, json);
  else io.stdout.write(`Changed NAS ${json.id} "${json.name}": ${describe(json)}.\n`);
  if (changes.requireMessageAuthenticator !== undefined) io.stderr.write(REGENERATE_HINT);
}

function ambiguity(error: NasAmbiguousError, what: 'changed' | 'removed'): string {
  const verb = what === 'changed' ? 'Change' : 'Remove';
  return (
    `"${printable(error.idOrName)}" is the id of NAS "${error.byIdName}" and the name of another NAS: nothing ` +
    `was ${what}. ${verb} "${error.byIdName}" by its name, the other by its id.`
  );
}

const NAS_TABLE_HEADER = ['ID', 'NAME', 'VENUE', 'ADDRESS', 'COA PORT', 'COA', 'VENDOR', 'MESSAGE-AUTH', 'CREATED'];

async function list(registry: NasRegistry, options: { json?: true }, io: CliIo): Promise<void> {
  const rows = (await registry.list()).map(toNasJson);
  if (options.json) {
    printJson(io, rows);
    return;
  }
  if (rows.length === 0) {
    io.stderr.write('No NASes. Register one with: hotspot nas add --venue V --name N --ip ADDRESS --secret S\n');
    return;
  }
  const cells = rows.map((nas) => [
    nas.id,
    nas.name,
    nas.venueId,
    nas.ipAddress,
    nas.coaPort === 0 ? '-' : String(nas.coaPort),
    nas.acceptsCoa ? 'yes' : 'no',
    nas.vendor,
    nas.requireMessageAuthenticator ? 'required' : '-',
    nas.createdAt,
  ]);
  for (const line of textTable(NAS_TABLE_HEADER, cells)) io.stdout.write(`${line}\n`);
}

async function remove(registry: NasRegistry, idOrName: string, options: { json?: true }, io: CliIo): Promise<void> {
  let removed: NasClient | null;
  try {
    removed = await registry.remove(idOrName);
  } catch (error) {
    if (error instanceof NasAmbiguousError) throw new CommandFailure(ambiguity(error, 'removed'));
    throw error;
  }
  if (removed === null) throw new CommandFailure(`No NAS has the id or name "${printable(idOrName)}".`);
  if (options.json) printJson(io, { id: removed.id, name: removed.name });
  else io.stdout.write(`Removed NAS ${removed.id} "${removed.name}".\n`);
  io.stderr.write(REGENERATE_HINT);
}
