import { SessionRequestError, SessionsService } from '../sessions/sessions.service.js';
import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { EXIT_FAILURE, EXIT_OK, parseCommandOptions, UsageError, type CliIo } from './cli-context.js';

/** `npm run -s session -- start|stop|help`: the logic; src/cli/session.ts wires it to the process. */

export const SESSION_USAGE = `Usage: npm run -s session -- <command> [options]
   or: node dist/src/cli/session.js <command> [options]

Records sessions as the network side (captive portal or NAS) would, until that integration exists.

Commands:
  start --user ID --venue V --mac MAC [--ip IP] [--nas NAS]
      Starts a session for an active user in one of its venues and records the device.
      Prints the session as JSON.
  stop <sessionId>
      Ends a session (status stopped). Prints the session as JSON.

Exit codes: 0 done, 1 refused (unknown user or session, user not active…), 2 bad usage.
`;

export type SessionCommand =
  | { kind: 'help' }
  | { kind: 'start'; userId: string; venueId: string; macAddress: string; ipAddress: string | null; nasId: string | null }
  | { kind: 'stop'; sessionId: string };

export function parseSessionArgs(argv: string[]): SessionCommand {
  const [command, ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') return { kind: 'help' };
  if (command === 'start') {
    const { values, positionals } = parseCommandOptions(rest, {
      user: { type: 'string' },
      venue: { type: 'string' },
      mac: { type: 'string' },
      ip: { type: 'string' },
      nas: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`start takes no argument "${positionals[0]}"`);
    const [userId, venueId, macAddress] = [values.user, values.venue, values.mac];
    if (typeof userId !== 'string' || typeof venueId !== 'string' || typeof macAddress !== 'string') {
      throw new UsageError('start needs --user, --venue and --mac');
    }
    const optional = (value: string | boolean | undefined) => (typeof value === 'string' ? value : null);
    return { kind: 'start', userId, venueId, macAddress, ipAddress: optional(values.ip), nasId: optional(values.nas) };
  }
  if (command === 'stop') {
    const { positionals } = parseCommandOptions(rest, {});
    if (positionals.length !== 1) throw new UsageError('stop needs exactly one argument: the session id');
    return { kind: 'stop', sessionId: positionals[0] };
  }
  throw new UsageError(`${command === undefined ? 'A command is needed.' : `Unknown command "${command}".`}\n\n${SESSION_USAGE}`);
}

export async function executeSessionCommand(
  command: SessionCommand,
  io: CliIo,
  sessions: Pick<SessionsService, 'start' | 'stop'>,
): Promise<number> {
  if (command.kind === 'help') {
    io.stdout.write(SESSION_USAGE);
    return EXIT_OK;
  }
  try {
    const session = command.kind === 'start' ? await sessions.start(command) : await sessions.stop(command.sessionId);
    io.stdout.write(`${JSON.stringify(toJson(session))}\n`);
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof SessionRequestError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return EXIT_FAILURE;
  }
}

function toJson(session: SessionEntity) {
  return {
    id: session.id,
    userId: session.userId,
    venueId: session.venueId,
    macAddress: session.macAddress,
    ipAddress: session.ipAddress,
    nasId: session.nasId,
    status: session.status,
    startedAt: session.startedAt.toISOString(),
    endedAt: session.endedAt?.toISOString() ?? null,
  };
}
