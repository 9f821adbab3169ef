import { Argument } from 'commander';
import { NO_ORIGIN } from '../../audit/audit.rules.js';
import { ApiError } from '../../common/errors/api-error.js';
import { createValidationPipe } from '../../common/pipes/validation.pipe.js';
import { ID_LENGTH } from '../../database/columns.js';
import { ResetPasswordDto, toPasswordResetInput } from '../../hotspot-users/dto/reset-password.dto.js';
import { HotspotUsersModule } from '../../hotspot-users/hotspot-users.module.js';
import {
  COMMAND_LINE_CALLER,
  PasswordResetService,
  type PasswordResetResult,
} from '../../hotspot-users/password-reset.service.js';
import { CommandVenueScopeModule } from '../command-venue-scope.module.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, printable, text } from '../option-values.js';

/** `hotspot user set-password`: a hotspot user's password reset, through the API's use case. */

export type PasswordResets = Pick<PasswordResetService, 'reset'>;

export const USER_SERVICE: ServiceNeed<PasswordResets> = {
  imports: [CommandVenueScopeModule, HotspotUsersModule],
  resolve: (context) => context.get(PasswordResetService),
};

/** The longest password a user may have (as on create), and what stdin may hold for it: 4 bytes a character, a newline. */
const PASSWORD_MAX_LENGTH = 128;
const PASSWORD_STDIN_MAX_BYTES = PASSWORD_MAX_LENGTH * 4 + 2;

const pipe = createValidationPipe();

interface SetPasswordOptions {
  generate?: true;
  passwordStdin?: true;
  endSessions?: true;
  json?: true;
}

export const userCommand: CliCommand = {
  register(program, { io, runtime }) {
    const user = program
      .command('user')
      .description("Hotspot users: reset a user's password.")
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  PASSWORD=$(hotspot user set-password ID --generate)\n' +
          '  printf %s "$PASSWORD" | hotspot user set-password ID --password-stdin --end-sessions\n',
      );

    user
      .command('set-password')
      .description(
        "Reset a username_password user's password, as POST /api/v1/hotspot-users/:id/password does: it counts from " +
          "the next login; with --end-sessions the user's running sessions end now (unauth job of reason " +
          'password-reset). With --generate the new password is printed alone on stdout, only this once. ' +
          'Exit code 1 when the user is unknown, expired or has no password.',
      )
      .addArgument(new Argument('<id>', 'the hotspot user id').argParser(userIdArgument))
      .addOption(flagOption('--generate', 'generate the password (10 characters without look-alikes) and print it'))
      .addOption(flagOption('--password-stdin', 'read the password from stdin (4-128 characters; one newline dropped)'))
      .addOption(flagOption('--end-sessions', "end the user's running sessions now, as a block does"))
      .addOption(flagOption('--json', 'print one JSON object {id, username, endedSessions, unauthJobIds, password}'))
      .action(async (id: string, options: SetPasswordOptions) => {
        if ((options.generate === true) === (options.passwordStdin === true)) {
          throw new UsageError('give exactly one of --generate and --password-stdin');
        }
        const password = options.passwordStdin === true ? await readPassword(io) : undefined;
        const body = {
          ...(password === undefined ? { generate: true } : { password }),
          endSessions: options.endSessions === true,
        };
        const dto = await validated(body);
        await runtime.use(USER_SERVICE, (resets) => setPassword(resets, id, dto, options, io));
      });
  },
};

function userIdArgument(raw: string): string {
  try {
    return text(ID_LENGTH)(raw);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`the argument of set-password ${error.message}`);
    throw error;
  }
}

/** The body as the API validates it: a password outside its rules is bad usage, named as the API names it. */
async function validated(body: object): Promise<ResetPasswordDto> {
  try {
    return (await pipe.transform(body, { type: 'body', metatype: ResetPasswordDto })) as ResetPasswordDto;
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(problemsOf(error));
    throw error;
  }
}

async function setPassword(
  resets: PasswordResets,
  id: string,
  dto: ResetPasswordDto,
  options: SetPasswordOptions,
  io: CliIo,
): Promise<void> {
  let result: PasswordResetResult;
  try {
    result = await resets.reset(COMMAND_LINE_CALLER, id, {}, toPasswordResetInput(dto), NO_ORIGIN);
  } catch (error) {
    if (error instanceof ApiError && error.getStatus() === 404) {
      throw new CommandFailure(`No hotspot user has the id "${printable(id)}".`);
    }
    if (error instanceof ApiError) throw new CommandFailure(`Refused: ${problemsOf(error)}`);
    throw error;
  }
  const { data, endedSessions, unauthJobIds, password } = result;
  if (options.json) {
    printJson(io, { id: data._id, username: data.username, endedSessions, unauthJobIds, password });
    return;
  }
  const ended = endedSessions === 0 && unauthJobIds.length === 0 ? '' : `; ${endedSessions} session(s) ended`;
  const jobs = unauthJobIds.length === 0 ? '' : ` (unauth job ${unauthJobIds.join(', ')})`;
  const summary = `Password of user ${data._id} (${data.username ?? '-'}) reset${ended}${jobs}.`;
  if (password === null) {
    io.stdout.write(`${summary}\n`);
    return;
  }
  io.stderr.write(`${summary}\nThe new password follows; it is shown only this once.\n`);
  io.stdout.write(`${password}\n`);
}

/** The API error's message and the fields it names: never a password (the API's messages hold none). */
function problemsOf(error: ApiError): string {
  const errors = error.body.errors ?? [];
  return errors.length === 0 ? error.body.message : errors.map((entry) => entry.message).join('; ');
}

/** The password on stdin, without one trailing newline; never echoed. */
async function readPassword(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin ?? []) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += bytes.length;
    if (size > PASSWORD_STDIN_MAX_BYTES) {
      throw new UsageError(`the password on stdin must be at most ${PASSWORD_MAX_LENGTH} characters`);
    }
    chunks.push(bytes);
  }
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('--password-stdin found no password on stdin');
  return password;
}
