import 'reflect-metadata';
import { ApiTokenService } from '../auth/api-token.service.js';
import { Clock } from '../common/clock.js';
import { EXIT_OK, exitWith, runCli } from './cli-context.js';
import { executeTokenCommand, parseTokenArgs, TOKEN_USAGE } from './token-command.js';

/** `npm run -s token -- create|list|revoke|help` (see TOKEN_USAGE in token-command.ts). */
async function main(): Promise<number> {
  return runCli({
    argv: process.argv.slice(2),
    parse: (argv) => parseTokenArgs(argv, new Date()),
    withoutContext: (command, io) => {
      if (command.kind !== 'help') return null;
      io.stdout.write(TOKEN_USAGE);
      return EXIT_OK;
    },
    // ApiTokenService alone, not AuthModule (whose BootstrapTokenService would act on start-up).
    extra: { providers: [ApiTokenService] },
    run: (command, io, context) =>
      executeTokenCommand(command, io, { tokens: context.get(ApiTokenService), clock: context.get(Clock) }),
  });
}

exitWith(main());
