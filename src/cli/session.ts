import 'reflect-metadata';
import { SessionsModule } from '../sessions/sessions.module.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { exitWith, runCli } from './cli-context.js';
import { executeSessionCommand, parseSessionArgs } from './session-command.js';

/** `npm run -s session -- start|stop|help` (see SESSION_USAGE in session-command.ts). */
exitWith(
  runCli({
    argv: process.argv.slice(2),
    parse: parseSessionArgs,
    extra: { imports: [SessionsModule] },
    run: (command, io, context) => executeSessionCommand(command, io, context.get(SessionsService)),
  }),
);
