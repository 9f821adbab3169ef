import type { Option } from 'commander';
import { ID_LENGTH } from '../../database/columns.js';
import { toLoginAttemptJson, type LoginAttemptJson } from '../../radius/login-attempt-json.js';
import { LoginAttemptsModule } from '../../radius/login-attempts.module.js';
import { LoginAttemptsService } from '../../radius/login-attempts.service.js';
import { printJson, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import {
  flagOption,
  integerBetween,
  isoDateTime,
  macAddress,
  printable,
  text,
  valueOption,
  venueId,
} from '../option-values.js';
import { textTableText } from '../text-table.js';

/** `hotspot logins`: the RADIUS login attempts, to answer "why was this guest refused". */

export type LoginsService = Pick<LoginAttemptsService, 'list'>;

export const LOGINS_SERVICE: ServiceNeed<LoginsService> = {
  imports: [LoginAttemptsModule],
  resolve: (context) => context.get(LoginAttemptsService),
};

export const DEFAULT_LOGINS_LIMIT = 50;
export const MAX_LOGINS_LIMIT = 1000;
/** The length of login_attempts.username. */
const USERNAME_COLUMN_LENGTH = 253;

interface ListOptions {
  venue?: string;
  user?: string;
  username?: string;
  mac?: string;
  since?: Date;
  limit?: number;
  json?: true;
}

/** At most one of them: each names whom the attempts are about. */
const WHO = ['user', 'username', 'mac'];

export const loginsCommand: CliCommand = {
  register(program, { io, runtime }) {
    program
      .command('logins')
      .description(
        'List RADIUS login attempts, newest first: outcome, reason of a reject, venue, NAS, user, username, MAC.',
      )
      .addOption(valueOption('--venue <id>', "only attempts through this venue's NASes", venueId))
      .addOption(who(valueOption('--user <id>', 'only attempts of this hotspot user', text(ID_LENGTH))))
      .addOption(
        who(
          valueOption(
            '--username <name>',
            'only attempts with this User-Name, exactly as the NAS sent it',
            text(USERNAME_COLUMN_LENGTH),
          ),
        ),
      )
      .addOption(who(valueOption('--mac <mac>', "only attempts from this device's MAC address", macAddress)))
      .addOption(valueOption('--since <date-time>', 'only attempts at or after this ISO 8601 date-time', isoDateTime))
      .addOption(
        valueOption(
          '--limit <n>',
          `at most this many (default ${DEFAULT_LOGINS_LIMIT}, at most ${MAX_LOGINS_LIMIT})`,
          integerBetween(1, MAX_LOGINS_LIMIT),
        ),
      )
      .addOption(flagOption('--json', 'print a JSON array'))
      .addHelpText(
        'after',
        "\nA reject's reason is the one authorize decided: invalidCredentials (unknown username or wrong\n" +
          'password: the user column tells them apart), unknownDevice, blocked, expired, wrongVenue,\n' +
          'tooManySessions, quotaExhausted, tooManyDevices, papRequired, unknownNas. Accepts have none.\n',
      )
      .action((options: ListOptions) => runtime.use(LOGINS_SERVICE, (service) => list(service, options, io)));
  },
};

function who(option: Option): Option {
  return option.conflicts(WHO.filter((name) => name !== option.attributeName()));
}

async function list(service: LoginsService, options: ListOptions, io: CliIo): Promise<void> {
  const found = (
    await service.list({
      venueId: options.venue,
      userId: options.user,
      username: options.username,
      macAddress: options.mac,
      since: options.since,
      limit: options.limit ?? DEFAULT_LOGINS_LIMIT,
    })
  ).map(toLoginAttemptJson);
  if (options.json) {
    printJson(io, found);
    return;
  }
  if (found.length === 0) {
    io.stderr.write('No login attempts match.\n');
    return;
  }
  io.stdout.write(
    textTableText(
      COLUMNS.map(([title]) => title),
      found.map((attempt) => COLUMNS.map(([, cell]) => cell(attempt))),
    ),
  );
}

const COLUMNS: ReadonlyArray<[string, (attempt: LoginAttemptJson) => string]> = [
  ['TIME', (attempt) => attempt.createdAt],
  ['OUTCOME', (attempt) => attempt.outcome],
  ['REASON', (attempt) => attempt.reason ?? '-'],
  ['VENUE', (attempt) => attempt.venueId ?? '-'],
  ['NAS', (attempt) => attempt.nasClientId ?? '-'],
  ['USER', (attempt) => attempt.userId ?? '-'],
  ['MAC', (attempt) => attempt.macAddress ?? '-'],
  // Last: the one column a NAS fills with whatever the device sent (shown printable and cut).
  ['USERNAME', (attempt) => (attempt.username === null ? '-' : printable(attempt.username))],
];
