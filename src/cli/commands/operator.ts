import { AuditModule } from '../../audit/audit.module.js';
import { Argument } from 'commander';
import {
  OPERATOR_PERMISSIONS,
  operatorEmail,
  operatorName,
  operatorPermissions,
  type Checked,
  type OperatorView,
} from '../../operators/operator-rules.js';
import { OperatorsRepository } from '../../operators/operators.repository.js';
import {
  OperatorAmbiguousError,
  OperatorEmailTakenError,
  OperatorsService,
  OperatorValidationError,
} from '../../operators/operators.service.js';
import { PASSWORD_MAX_LENGTH } from '../../operators/password-policy.js';
import type { Permission } from '../../auth/permissions.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, printable, valueOption, venueIdList } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot operator create|list|set|disable|enable|reset-password|reset-2fa`: the people who sign in to the console. */

export type OperatorDirectory = Pick<
  OperatorsService,
  'create' | 'list' | 'changeRights' | 'disable' | 'enable' | 'resetPassword' | 'resetTotp'
>;

export const OPERATOR_SERVICE: ServiceNeed<OperatorDirectory> = {
  // OperatorsService and its queries alone, not OperatorsModule: its FirstAdminService acts on start-up.
  imports: [AuditModule],
  providers: [OperatorsService, OperatorsRepository],
  resolve: (context) => context.get(OperatorsService),
};

/** An email is at most 254 characters; an id is shorter. */
const ID_OR_EMAIL_MAX_LENGTH = 254;
/** Bytes read from stdin at most for --password-stdin: PASSWORD_MAX_LENGTH characters of 4 bytes, and a newline. */
const PASSWORD_STDIN_MAX_BYTES = PASSWORD_MAX_LENGTH * 4 + 2;

interface CreateOptions {
  email: string;
  name: string;
  permissions: Permission[];
  venues?: string[];
  admin?: true;
  passwordStdin?: true;
  json?: true;
}

function checked<T>(rule: (raw: string) => Checked<T>): (raw: string) => T {
  return (raw) => {
    const result = rule(raw);
    if ('error' in result) throw new UsageError(result.error);
    return result.value;
  };
}

/** A comma-separated subset of read, write, delete, returned in their order. */
function operatorPermissionList(raw: string): Permission[] {
  const items = raw.split(',').map((item) => item.trim());
  const result = operatorPermissions(items);
  if ('error' in result) {
    const unknown = items.filter((item) => !(OPERATOR_PERMISSIONS as readonly string[]).includes(item));
    throw new UsageError(
      `must be a comma-separated list of ${OPERATOR_PERMISSIONS.join(', ')}` +
        (raw.trim() === '' ? '' : ` (not: ${unknown.map((item) => `"${printable(item)}"`).join(', ')})`),
    );
  }
  return result.value;
}

function idOrEmailArgument(raw: string): string {
  if (raw.trim() === '' || raw.length > ID_OR_EMAIL_MAX_LENGTH || /\s/.test(raw.trim())) {
    throw new UsageError('the argument is not an operator id or email');
  }
  return raw.trim();
}

const ID_OR_EMAIL = 'the operator id or email (emails are compared ignoring case)';

export const operatorCommand: CliCommand = {
  register(program, { io, runtime }) {
    const operator = program
      .command('operator')
      .description('Create, list, disable and enable console operators; reset their password or second factor.')
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  hotspot operator create --email E --name N --permissions read[,write][,delete] [--venues A,B] [--admin]\n' +
          '  printf %s "$PASSWORD" | hotspot operator create --email E --name N --permissions read --password-stdin\n' +
          '  hotspot operator list --json\n' +
          '  hotspot operator disable ops@example.com\n' +
          '  hotspot operator reset-password ops@example.com\n',
      );

    operator
      .command('create')
      .description(
        'Create an operator. Without --password-stdin a one-time password is generated, shown only this once ' +
          '(alone on stdout, or with --json in one JSON object), and must be changed at the first sign-in.',
      )
      .addOption(
        valueOption(
          '--email <email>',
          'its email, unique ignoring case (required)',
          checked(operatorEmail),
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--name <name>',
          'display name, 1-100 characters (required)',
          checked(operatorName),
        ).makeOptionMandatory(),
      )
      .addOption(
        valueOption(
          '--permissions <list>',
          'comma-separated subset of read, write, delete; the highest one counts, as for an API token (required)',
          operatorPermissionList,
        ).makeOptionMandatory(),
      )
      .addOption(valueOption('--venues <ids>', 'comma-separated venue ids; omitted: every venue', venueIdList))
      .addOption(flagOption('--admin', "settings too: API tokens, NAS registry, operators, everyone's audit trail"))
      .addOption(
        flagOption(
          '--password-stdin',
          'read the password from stdin (10-256 characters, not the email, the name or a common password; ' +
            'one trailing newline is dropped) instead of generating a one-time password',
        ),
      )
      .addOption(
        flagOption('--json', 'print one JSON object: the operator and oneTimePassword (null with --password-stdin)'),
      )
      .action(async (options: CreateOptions) => {
        // Read before the service starts, so a missing or bad password stops here.
        const password = options.passwordStdin === true ? await readPassword(io) : undefined;
        await runtime.use(OPERATOR_SERVICE, (operators) => create(operators, options, password, io));
      });

    operator
      .command('list')
      .description('List the operators (never their password hashes or second-factor secrets).')
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: { json?: true }) => runtime.use(OPERATOR_SERVICE, (operators) => list(operators, options, io)));

    operator
      .command('set')
      .description(
        "Change an operator's name, permissions, venues or admin capability. A change of rights ends its " +
          'console sessions. Exit code 1 when none matches.',
      )
      .addArgument(new Argument('<id-or-email>', ID_OR_EMAIL).argParser(idOrEmailArgument))
      .addOption(valueOption('--name <name>', 'display name, 1-100 characters', checked(operatorName)))
      .addOption(
        valueOption('--permissions <list>', 'comma-separated subset of read, write, delete', operatorPermissionList),
      )
      .addOption(valueOption('--venues <ids>', 'comma-separated venue ids it is restricted to', venueIdList))
      .addOption(flagOption('--all-venues', 'no venue restriction'))
      .addOption(flagOption('--admin', "settings too: API tokens, NAS registry, operators, everyone's audit trail"))
      .addOption(flagOption('--no-admin', 'no settings'))
      .addOption(flagOption('--json', 'print one JSON object: the operator and changedFields'))
      .action((idOrEmail: string, options: SetOptions) =>
        runtime.use(OPERATOR_SERVICE, (operators) => set(operators, idOrEmail, options, io)),
      );

    operator
      .command('disable')
      .description('Disable an operator: it can no longer sign in. Exit code 1 when none matches.')
      .addArgument(new Argument('<id-or-email>', ID_OR_EMAIL).argParser(idOrEmailArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, email, status, changed}'))
      .action((idOrEmail: string, options: { json?: true }) =>
        runtime.use(OPERATOR_SERVICE, (operators) => setStatus(operators, 'disabled', idOrEmail, options, io)),
      );

    operator
      .command('enable')
      .description('Enable a disabled operator again. Exit code 1 when none matches.')
      .addArgument(new Argument('<id-or-email>', ID_OR_EMAIL).argParser(idOrEmailArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, email, status, changed}'))
      .action((idOrEmail: string, options: { json?: true }) =>
        runtime.use(OPERATOR_SERVICE, (operators) => setStatus(operators, 'active', idOrEmail, options, io)),
      );

    operator
      .command('reset-password')
      .description(
        'Give an operator a new one-time password, shown only this once (alone on stdout), to be changed at ' +
          'the next sign-in. Exit code 1 when none matches.',
      )
      .addArgument(new Argument('<id-or-email>', ID_OR_EMAIL).argParser(idOrEmailArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, email, oneTimePassword, oneTimePasswordExpiresAt}'))
      .action((idOrEmail: string, options: { json?: true }) =>
        runtime.use(OPERATOR_SERVICE, (operators) => resetPassword(operators, idOrEmail, options, io)),
      );

    operator
      .command('reset-2fa')
      .description(
        "Forget an operator's TOTP authenticator (lost phone): it signs in with its password and enrols again. " +
          'Exit code 1 when none matches.',
      )
      .addArgument(new Argument('<id-or-email>', ID_OR_EMAIL).argParser(idOrEmailArgument))
      .addOption(flagOption('--json', 'print one JSON object {id, email, wasEnrolled}'))
      .action((idOrEmail: string, options: { json?: true }) =>
        runtime.use(OPERATOR_SERVICE, (operators) => resetTotp(operators, idOrEmail, options, io)),
      );
  },
};

/** The password on stdin, without one trailing newline; never echoed. */
async function readPassword(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin ?? []) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += bytes.length;
    if (size > PASSWORD_STDIN_MAX_BYTES)
      throw new UsageError(`the password on stdin must be at most ${PASSWORD_MAX_LENGTH} characters`);
    chunks.push(bytes);
  }
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('--password-stdin found no password on stdin');
  return password;
}

async function create(
  operators: OperatorDirectory,
  options: CreateOptions,
  password: string | undefined,
  io: CliIo,
): Promise<void> {
  let created: Awaited<ReturnType<OperatorDirectory['create']>>;
  try {
    created = await operators.create({
      email: options.email,
      name: options.name,
      permissions: options.permissions,
      venueIds: options.venues ?? null,
      admin: options.admin === true,
      password,
    });
  } catch (error) {
    // The message names the field and the rule, never the password.
    if (error instanceof OperatorValidationError) throw new UsageError(error.message);
    if (error instanceof OperatorEmailTakenError) throw new CommandFailure(error.message);
    throw error;
  }
  const { operator, oneTimePassword } = created;
  if (options.json) {
    printJson(io, { ...operator, oneTimePassword });
    return;
  }
  const summary = `Created operator ${operator.id} ${operator.email} "${operator.name}": ${describe(operator)}.`;
  if (oneTimePassword === null) {
    io.stdout.write(`${summary}\n`);
    return;
  }
  io.stderr.write(
    `${summary}\nIts one-time password follows; it is shown only this once and must be changed at the first sign-in.\n` +
      `It works until ${operator.oneTimePasswordExpiresAt} (OPERATOR_ONE_TIME_PASSWORD_HOURS).\n`,
  );
  io.stdout.write(`${oneTimePassword}\n`);
}

function describe(operator: OperatorView): string {
  return (
    `permissions ${operator.permissions.join(',')}, venues ${operator.venueIds?.join(',') ?? 'all'}, ` +
    `${operator.admin ? 'admin' : 'not admin'}`
  );
}

const OPERATOR_TABLE_HEADER = [
  'ID',
  'EMAIL',
  'NAME',
  'PERMISSIONS',
  'VENUES',
  'ADMIN',
  'STATUS',
  '2FA',
  'CREATED',
  'LAST SIGN-IN',
];

async function list(operators: OperatorDirectory, options: { json?: true }, io: CliIo): Promise<void> {
  const rows = await operators.list();
  if (options.json) {
    printJson(io, rows);
    return;
  }
  if (rows.length === 0) {
    io.stderr.write('No operators. Create one with: hotspot operator create --email E --name N --permissions read\n');
    return;
  }
  const cells = rows.map((operator) => [
    operator.id,
    operator.email,
    operator.name,
    operator.permissions.join(','),
    operator.venueIds?.join(',') ?? '(all)',
    operator.admin ? 'yes' : 'no',
    operator.status + (operator.mustChangePassword ? ' (must change password)' : ''),
    operator.totpEnrolled ? 'enrolled' : '-',
    operator.createdAt,
    operator.lastSignInAt ?? '-',
  ]);
  for (const line of textTable(OPERATOR_TABLE_HEADER, cells)) io.stdout.write(`${line}\n`);
}

/** Runs a change by id or email, turning "none" and "ambiguous" into exit code 1 with a message. */
async function findAndChange<T>(idOrEmail: string, change: () => Promise<T | null>): Promise<T> {
  let result: T | null;
  try {
    result = await change();
  } catch (error) {
    if (error instanceof OperatorAmbiguousError) {
      throw new CommandFailure(
        `"${printable(error.idOrEmail)}" is the id of operator ${error.byIdEmail} and the email of another: ` +
          `nothing was changed. Name ${error.byIdEmail} by its email, the other by its id.`,
      );
    }
    throw error;
  }
  if (result === null) throw new CommandFailure(`No operator has the id or email "${printable(idOrEmail)}".`);
  return result;
}

interface SetOptions {
  name?: string;
  permissions?: Permission[];
  venues?: string[];
  allVenues?: true;
  /** true with --admin, false with --no-admin. */
  admin?: boolean;
  json?: true;
}

async function set(operators: OperatorDirectory, idOrEmail: string, options: SetOptions, io: CliIo): Promise<void> {
  if (options.venues !== undefined && options.allVenues === true) {
    throw new UsageError('give --venues or --all-venues, not both');
  }
  const changes = {
    name: options.name,
    permissions: options.permissions,
    venueIds: options.allVenues === true ? null : options.venues,
    admin: options.admin,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new UsageError('nothing to change: give --name, --permissions, --venues, --all-venues or --[no-]admin');
  }
  const { operator, changedFields } = await findAndChange(idOrEmail, () => operators.changeRights(idOrEmail, changes));
  if (options.json) {
    printJson(io, { ...operator, changedFields });
    return;
  }
  io.stdout.write(
    changedFields.length === 0
      ? `Operator ${operator.id} ${operator.email} has these values already; nothing changed.\n`
      : `Changed ${changedFields.join(', ')} of operator ${operator.id}: ${describe(operator)}.\n`,
  );
  if (changedFields.length > 0) io.stderr.write('Its console sessions are over; it signs in again.\n');
}

async function setStatus(
  operators: OperatorDirectory,
  status: 'active' | 'disabled',
  idOrEmail: string,
  options: { json?: true },
  io: CliIo,
): Promise<void> {
  const { operator, changed } = await findAndChange(idOrEmail, () =>
    status === 'disabled' ? operators.disable(idOrEmail) : operators.enable(idOrEmail),
  );
  const word = status === 'disabled' ? 'disabled' : 'enabled';
  if (options.json) {
    printJson(io, { id: operator.id, email: operator.email, status: operator.status, changed });
  } else if (changed) {
    io.stdout.write(`${word === 'disabled' ? 'Disabled' : 'Enabled'} operator ${operator.id} ${operator.email}.\n`);
  } else {
    io.stdout.write(`Operator ${operator.id} ${operator.email} was ${word} already.\n`);
  }
  if (changed && status === 'disabled') io.stderr.write('It can no longer sign in; its console sessions are over.\n');
}

async function resetPassword(
  operators: OperatorDirectory,
  idOrEmail: string,
  options: { json?: true },
  io: CliIo,
): Promise<void> {
  const { operator, oneTimePassword } = await findAndChange(idOrEmail, () => operators.resetPassword(idOrEmail));
  if (options.json) {
    printJson(io, {
      id: operator.id,
      email: operator.email,
      oneTimePassword,
      oneTimePasswordExpiresAt: operator.oneTimePasswordExpiresAt,
    });
    return;
  }
  io.stderr.write(
    `Reset the password of operator ${operator.id} ${operator.email}; its console sessions are over.\n` +
      'Its one-time password follows; it is shown only this once and must be changed at the next sign-in.\n' +
      `It works until ${operator.oneTimePasswordExpiresAt} (OPERATOR_ONE_TIME_PASSWORD_HOURS).\n`,
  );
  io.stdout.write(`${oneTimePassword}\n`);
}

async function resetTotp(operators: OperatorDirectory, idOrEmail: string, options: { json?: true }, io: CliIo) {
  const { operator, wasEnrolled } = await findAndChange(idOrEmail, () => operators.resetTotp(idOrEmail));
  if (options.json) {
    printJson(io, { id: operator.id, email: operator.email, wasEnrolled });
    return;
  }
  io.stdout.write(
    wasEnrolled
      ? `Reset the second factor of operator ${operator.id} ${operator.email}: it signs in with its password ` +
          'and enrols an authenticator again.\n'
      : `Operator ${operator.id} ${operator.email} had no second factor; nothing to reset.\n`,
  );
}
