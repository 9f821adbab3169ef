import { Argument } from 'commander';
import { UserSessionsModule } from '../../hotspot-users/user-sessions.module.js';
import { UserSessionsService } from '../../hotspot-users/user-sessions.service.js';
import type { SessionEntity } from '../../sessions/entities/session.entity.js';
import { toSessionJson } from '../../sessions/session-json.js';
import { SessionRequestError, SessionsService } from '../../sessions/sessions.service.js';
import { ID_LENGTH } from '../../database/columns.js';
import { CommandFailure, printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, ipAddress, macAddress, text, valueOption, venueId } from '../option-values.js';

/**
 * `hotspot session start|stop`: records sessions as the network side (captive portal or NAS) would,
 * until that integration exists.
 */

/** A start is decided by the user's row (UserSessionsService); a stop is about the session alone. */
export type SessionService = Pick<UserSessionsService, 'start'> & Pick<SessionsService, 'stop'>;

export const SESSION_SERVICE: ServiceNeed<SessionService> = {
  imports: [UserSessionsModule],
  resolve: (context) => {
    const userSessions = context.get(UserSessionsService);
    const sessions = context.get(SessionsService);
    return { start: (input) => userSessions.start(input), stop: (sessionId) => sessions.stop(sessionId) };
  },
};

/** The length of the sessions.nas_id column. */
const NAS_ID_MAX_LENGTH = 128;

interface StartOptions {
  user: string;
  venue: string;
  mac: string;
  ip?: string;
  nas?: string;
  json?: true;
}

export const sessionCommand: CliCommand = {
  register(program, { io, runtime }) {
    const session = program
      .command('session')
      .description('Start and stop sessions as the network side (captive portal or NAS) reports them.')
      .addHelpText(
        'after',
        '\nThe session is printed as one JSON object, with or without --json.\n\nExamples:\n' +
          '  hotspot session start --user ID --venue V --mac AA:BB:CC:DD:EE:FF [--ip IP] [--nas NAS]\n' +
          '  hotspot session stop <sessionId>\n',
      );

    session
      .command('start')
      .description('Start a session for an active user in one of its venues and record the device.')
      .addOption(valueOption('--user <id>', 'the hotspot user id (required)', text(ID_LENGTH)).makeOptionMandatory())
      .addOption(valueOption('--venue <id>', "one of the user's venues (required)", venueId).makeOptionMandatory())
      .addOption(
        valueOption(
          '--mac <mac>',
          'the device: AA:BB:CC:DD:EE:FF, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff or aabbccddeeff (required)',
          macAddress,
        ).makeOptionMandatory(),
      )
      .addOption(valueOption('--ip <address>', "the device's IPv4 or IPv6 address", ipAddress))
      .addOption(valueOption('--nas <id>', `the NAS id, 1-${NAS_ID_MAX_LENGTH} characters`, text(NAS_ID_MAX_LENGTH)))
      .addOption(flagOption('--json', 'print the session as JSON (the default)'))
      .action((options: StartOptions) =>
        runtime.use(SESSION_SERVICE, (sessions) =>
          print(io, () =>
            sessions.start({
              userId: options.user,
              venueId: options.venue,
              macAddress: options.mac,
              ipAddress: options.ip ?? null,
              nasId: options.nas ?? null,
            }),
          ),
        ),
      );

    session
      .command('stop')
      .description('End a session (status stopped); a session that has ended already is printed as it is.')
      .addArgument(new Argument('<sessionId>', 'the id start printed').argParser(sessionIdArgument))
      .addOption(flagOption('--json', 'print the session as JSON (the default)'))
      .action((sessionId: string) =>
        runtime.use(SESSION_SERVICE, (sessions) => print(io, () => sessions.stop(sessionId))),
      );
  },
};

/** The id argument of stop: text as ids are (it is never echoed back with control characters in it). */
function sessionIdArgument(raw: string): string {
  try {
    return text(ID_LENGTH)(raw);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`the argument of stop ${error.message}`);
    throw error;
  }
}

async function print(io: CliIo, request: () => Promise<SessionEntity>): Promise<void> {
  let session: SessionEntity;
  try {
    session = await request();
  } catch (error) {
    if (error instanceof SessionRequestError) throw new CommandFailure(error.message);
    throw error;
  }
  printJson(io, toSessionJson(session));
}
