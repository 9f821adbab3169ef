import { Command, CommanderError } from 'commander';
import { serviceVersion, versionLine } from '../common/service-version.js';
import {
  CommandFailure,
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  type CliCommand,
  type CliIo,
  type CliRuntime,
} from './command.js';
import { auditCommand } from './commands/audit.js';
import { batchCommand } from './commands/batch.js';
import { jobsCommand } from './commands/jobs.js';
import { loginsCommand } from './commands/logins.js';
import { nasCommand } from './commands/nas.js';
import { operatorCommand } from './commands/operator.js';
import { radiusConfigCommand, radiusSqlGrantsCommand } from './commands/radius-config.js';
import { secretsCommand } from './commands/secrets.js';
import { sessionCommand } from './commands/session.js';
import { smsCommand } from './commands/sms.js';
import { tokenCommand } from './commands/token.js';
import { userCommand } from './commands/user.js';
import { venueCommand } from './commands/venue.js';
import { nestRuntime } from './nest-runtime.js';

/** The subcommands of `hotspot`, in the order the help lists them. */
export const COMMANDS: readonly CliCommand[] = [
  tokenCommand,
  operatorCommand,
  userCommand,
  sessionCommand,
  jobsCommand,
  loginsCommand,
  nasCommand,
  venueCommand,
  batchCommand,
  radiusConfigCommand,
  radiusSqlGrantsCommand,
  secretsCommand,
  smsCommand,
  auditCommand,
];

const HELP_HINT = '(add --help for usage)';

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };

export function buildProgram(io: CliIo, runtime: CliRuntime): Command {
  // Subcommands inherit these settings when they are created, so they come first.
  const program = new Command('hotspot')
    .description(
      'Command line of the hotspot user service: API tokens, console operators, sessions, unauth jobs, NASes, venues, the FreeRADIUS configuration and the audit trail.',
    )
    .version(
      versionLine(serviceVersion()),
      '-V, --version',
      'print the version (and the commit of the build, when known)',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError(HELP_HINT)
    .addHelpText(
      'after',
      '\nResults go to stdout, log lines to stderr.\n' +
        `Exit codes: ${EXIT_OK} done, ${EXIT_FAILURE} the operation failed (not found, refused), ${EXIT_USAGE} bad usage.\n` +
        'Configuration comes from the environment and .env, as for the service (DATABASE_URL, LOG_LEVEL…).\n',
    );
  for (const command of COMMANDS) command.register(program, { io, runtime });
  return program;
}

/**
 * Runs `hotspot` with the arguments after the executable's path; returns the process exit code.
 * The executable (main.ts) calls it with the process's streams and the Nest runtime.
 */
export async function main(
  argv: readonly string[],
  io: CliIo = PROCESS_IO,
  runtime: CliRuntime = nestRuntime(),
): Promise<number> {
  try {
    await buildProgram(io, runtime).parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    // commander has written its own message (or the help) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    if (error instanceof UsageError) {
      io.stderr.write(`error: ${error.message}\n${HELP_HINT}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof CommandFailure) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_FAILURE;
    }
    io.stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  }
}
