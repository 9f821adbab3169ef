import 'reflect-metadata';
import { UnauthJobsModule } from '../unauth-jobs/unauth-jobs.module.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { exitWith, runCli } from './cli-context.js';
import { executeJobsCommand, parseJobsArgs } from './jobs-command.js';

/** `npm run -s jobs -- list|help` (see JOBS_USAGE in jobs-command.ts). */
exitWith(
  runCli({
    argv: process.argv.slice(2),
    parse: parseJobsArgs,
    extra: { imports: [UnauthJobsModule] },
    run: (command, io, context) => executeJobsCommand(command, io, context.get(UnauthJobsService)),
  }),
);
