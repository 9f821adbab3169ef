import { ID_LENGTH } from '../../database/columns.js';
import { UNAUTH_JOB_STATUSES, type UnauthJobStatus } from '../../unauth-jobs/entities/unauth-job.entity.js';
import { toUnauthJobJson, type UnauthJobJson } from '../../unauth-jobs/unauth-job-json.js';
import { UnauthJobsModule } from '../../unauth-jobs/unauth-jobs.module.js';
import { UnauthJobsService } from '../../unauth-jobs/unauth-jobs.service.js';
import { printJson, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { choiceOption, text, valueOption } from '../option-values.js';

/** `hotspot jobs list`: the unauth jobs (the outbox the worker delivers). */

export type JobsService = Pick<UnauthJobsService, 'list'>;

export const JOBS_SERVICE: ServiceNeed<JobsService> = {
  imports: [UnauthJobsModule],
  resolve: (context) => context.get(UnauthJobsService),
};

interface ListOptions {
  user?: string;
  status?: UnauthJobStatus;
  json?: true;
}

export const jobsCommand: CliCommand = {
  register(program, { io, runtime }) {
    const jobs = program.command('jobs').description('Inspect the unauth jobs that tell the network side to disconnect users.');

    jobs
      .command('list')
      .description('List unauth jobs, oldest first: one line each, or a JSON array with --json.')
      .addOption(valueOption('--user <id>', 'only the jobs of this hotspot user', text(ID_LENGTH)))
      .addOption(choiceOption('--status <status>', 'only the jobs in this status', UNAUTH_JOB_STATUSES))
      .option('--json', 'print a JSON array')
      .action((options: ListOptions) => runtime.use(JOBS_SERVICE, (service) => list(service, options, io)));
  },
};

async function list(service: JobsService, options: ListOptions, io: CliIo): Promise<void> {
  const found = (await service.list({ userId: options.user, status: options.status })).map(toUnauthJobJson);
  if (options.json) {
    printJson(io, found);
    return;
  }
  for (const job of found) io.stdout.write(`${jobLine(job)}\n`);
  if (found.length === 0) io.stderr.write('No unauth jobs match.\n');
}

function jobLine(job: UnauthJobJson): string {
  return (
    `${job.id}  ${job.status.padEnd(10)} ${job.reason.padEnd(7)} user ${job.userId} (${job.username ?? '-'})  ` +
    `${job.sessions.length} session(s)  attempts ${job.attempts}  created ${job.createdAt}`
  );
}
