import { ID_LENGTH } from '../../database/columns.js';
import { UNAUTH_JOB_STATUSES, type UnauthJobStatus } from '../../unauth-jobs/entities/unauth-job.entity.js';
import { toUnauthJobJson, type UnauthJobJson } from '../../unauth-jobs/unauth-job-json.js';
import { UnauthJobsModule } from '../../unauth-jobs/unauth-jobs.module.js';
import { UnauthJobsService } from '../../unauth-jobs/unauth-jobs.service.js';
import { CommandFailure, printJson, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { choiceOption, flagOption, text, valueOption } from '../option-values.js';

/** `hotspot jobs list`: the unauth jobs (the outbox the worker delivers). */

export type JobsService = Pick<UnauthJobsService, 'list' | 'find'>;

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
    const jobs = program
      .command('jobs')
      .description('Inspect the unauth jobs that tell the network side to disconnect users.');

    jobs
      .command('list')
      .description('List unauth jobs, oldest first: one line each, or a JSON array with --json.')
      .addOption(valueOption('--user <id>', 'only the jobs of this hotspot user', text(ID_LENGTH)))
      .addOption(choiceOption('--status <status>', 'only the jobs in this status', UNAUTH_JOB_STATUSES))
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: ListOptions) => runtime.use(JOBS_SERVICE, (service) => list(service, options, io)));

    jobs
      .command('show')
      .description(
        "Show one job: each dispatcher's delivery and each session's outcome (result, Error-Cause, attempts, NAS, time).",
      )
      .argument('<id>', 'the job id')
      .addOption(flagOption('--json', 'print the job as JSON'))
      .action((id: string, options: { json?: true }) =>
        runtime.use(JOBS_SERVICE, (service) => show(service, id, options, io)),
      );
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

async function show(service: JobsService, id: string, options: { json?: true }, io: CliIo): Promise<void> {
  const found = id.length <= ID_LENGTH ? await service.find(id) : null;
  if (found === null) throw new CommandFailure(`No unauth job has the id ${JSON.stringify(id.slice(0, ID_LENGTH))}.`);
  const job = toUnauthJobJson(found);
  if (options.json) {
    printJson(io, job);
    return;
  }
  const lines = [
    jobLine(job),
    `  ${job.nextAttemptAt === null ? 'no further attempt' : `next attempt ${job.nextAttemptAt}`}  updated ${job.updatedAt}`,
    ...(job.notSent === null ? [] : [`  not sent to a NAS: ${job.notSent.sessions} session(s), ${job.notSent.reason}`]),
    ...(job.expiresAt === null ? [] : [`  new expiresAt ${job.expiresAt}`]),
    ...(job.lastError === null ? [] : [`  last error: ${job.lastError}`]),
  ];
  for (const [name, delivery] of Object.entries(job.deliveries)) {
    lines.push(
      `  ${name}: ${delivery.status}, ${delivery.attempts} attempt(s), at ${delivery.at}` +
        (delivery.lastError === null ? '' : ` - ${delivery.lastError}`),
    );
    for (const [sessionId, outcome] of Object.entries(delivery.sessions ?? {})) {
      lines.push(
        `    session ${sessionId}: ${outcome.result}` +
          (outcome.errorCause === null ? '' : ` Error-Cause ${outcome.errorCause}`) +
          `, NAS ${outcome.nas ?? '-'}, ${outcome.attempts} attempt(s), at ${outcome.at}` +
          (outcome.detail === null ? '' : ` - ${outcome.detail}`),
      );
    }
  }
  for (const session of job.sessions) {
    if (!Object.values(job.deliveries).some((delivery) => delivery.sessions?.[session.id])) {
      lines.push(`    session ${session.id}: no outcome yet (NAS ${session.nasId ?? '-'})`);
    }
  }
  io.stdout.write(`${lines.join('\n')}\n`);
}

function jobLine(job: UnauthJobJson): string {
  return (
    `${job.id}  ${job.status.padEnd(10)} ${job.reason.padEnd(13)} user ${job.userId} (${job.username ?? '-'})  ` +
    `${job.sessions.length} session(s)  attempts ${job.attempts}  created ${job.createdAt}  ` +
    `deliveries: ${job.deliverySummary}`
  );
}
