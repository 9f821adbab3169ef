import { UNAUTH_JOB_STATUSES, type UnauthJobEntity, type UnauthJobStatus } from '../unauth-jobs/entities/unauth-job.entity.js';
import type { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { EXIT_OK, parseCommandOptions, UsageError, type CliIo } from './cli-context.js';

/** `npm run -s jobs -- list|help`: the logic; src/cli/jobs.ts wires it to the process. */

export const JOBS_USAGE = `Usage: npm run -s jobs -- <command> [options]
   or: node dist/src/cli/jobs.js <command> [options]

Commands:
  list [--user ID] [--status pending|processing|done|failed] [--json]
      Lists unauth jobs, oldest first: one line each, or a JSON array with --json.

Exit codes: 0 done, 1 failed, 2 bad usage.
`;

export type JobsCommand =
  | { kind: 'help' }
  | { kind: 'list'; userId?: string; status?: UnauthJobStatus; json: boolean };

export function parseJobsArgs(argv: string[]): JobsCommand {
  const [command, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') return { kind: 'help' };
  if (command !== 'list') {
    throw new UsageError(`${command === undefined ? 'A command is needed.' : `Unknown command "${command}".`}\n\n${JOBS_USAGE}`);
  }
  const { values, positionals } = parseCommandOptions(rest, {
    user: { type: 'string' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`list takes no argument "${positionals[0]}"`);
  const status = values.status;
  if (typeof status === 'string' && !(UNAUTH_JOB_STATUSES as readonly string[]).includes(status)) {
    throw new UsageError(`--status must be one of ${UNAUTH_JOB_STATUSES.join(', ')}`);
  }
  return {
    kind: 'list',
    userId: typeof values.user === 'string' ? values.user : undefined,
    status: typeof status === 'string' ? (status as UnauthJobStatus) : undefined,
    json: values.json === true,
  };
}

export async function executeJobsCommand(
  command: JobsCommand,
  io: CliIo,
  jobs: Pick<UnauthJobsService, 'list'>,
): Promise<number> {
  if (command.kind === 'help') {
    io.stdout.write(JOBS_USAGE);
    return EXIT_OK;
  }
  const found = (await jobs.list({ userId: command.userId, status: command.status })).map(toJson);
  if (command.json) {
    io.stdout.write(`${JSON.stringify(found)}\n`);
  } else {
    for (const job of found) {
      io.stdout.write(
        `${job.id}  ${job.status.padEnd(10)} ${job.reason.padEnd(7)} user ${job.userId} (${job.username ?? '-'})  ` +
          `${job.sessions.length} session(s)  attempts ${job.attempts}  created ${job.createdAt}\n`,
      );
    }
    if (found.length === 0) io.stderr.write('No unauth jobs match.\n');
  }
  return EXIT_OK;
}

function toJson(job: UnauthJobEntity) {
  return {
    id: job.id,
    userId: job.userId,
    username: job.username,
    reason: job.reason,
    sessions: job.sessions,
    status: job.status,
    attempts: job.attempts,
    nextAttemptAt: job.nextAttemptAt.toISOString(),
    lastError: job.lastError,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}
