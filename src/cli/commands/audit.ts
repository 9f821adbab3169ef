import { toAuditEventJson, type AuditEventJson } from '../../audit/audit-event-json.js';
import { AuditModule } from '../../audit/audit.module.js';
import { AUDIT_ACTIONS, AUDIT_TEXT_LIMITS, type AuditAction } from '../../audit/audit.rules.js';
import { AuditService } from '../../audit/audit.service.js';
import { printJson, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import {
  choiceOption,
  flagOption,
  integerBetween,
  isoDateTime,
  printable,
  text,
  valueOption,
} from '../option-values.js';
import { textTableText } from '../text-table.js';

/** `hotspot audit list`: who changed what, newest first. */

export type AuditReader = Pick<AuditService, 'list'>;

export const AUDIT_SERVICE: ServiceNeed<AuditReader> = {
  imports: [AuditModule],
  resolve: (context) => context.get(AuditService),
};

export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 1000;
/** The length of audit_events.target_id. */
const TARGET_ID_LENGTH = 64;

interface ListOptions {
  actor?: string;
  target?: string;
  action?: AuditAction;
  since?: Date;
  limit?: number;
  json?: true;
}

export const auditCommand: CliCommand = {
  register(program, { io, runtime }) {
    const audit = program
      .command('audit')
      .description('The audit trail: who changed what (users, sessions, tokens, NASes), newest first.')
      .addHelpText(
        'after',
        '\nExamples:\n  hotspot audit list --target <user id>\n  hotspot audit list --actor cli --json\n',
      );
    audit
      .command('list')
      .description('List audit events, newest first: time, actor, action, target, venues, changed fields.')
      .addOption(
        valueOption(
          '--actor <id-or-name>',
          "only events of this actor: a token's id or name, an operator's id or email, or cli / system",
          text(AUDIT_TEXT_LIMITS.actorName),
        ),
      )
      .addOption(
        valueOption(
          '--target <id>',
          'only events about this target (a user, session, token or NAS id)',
          text(TARGET_ID_LENGTH),
        ),
      )
      .addOption(choiceOption('--action <action>', 'only events of this action', AUDIT_ACTIONS))
      .addOption(valueOption('--since <date-time>', 'only events at or after this ISO 8601 date-time', isoDateTime))
      .addOption(
        valueOption(
          '--limit <n>',
          `at most this many (default ${DEFAULT_AUDIT_LIMIT}, at most ${MAX_AUDIT_LIMIT})`,
          integerBetween(1, MAX_AUDIT_LIMIT),
        ),
      )
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: ListOptions) => runtime.use(AUDIT_SERVICE, (service) => list(service, options, io)));
  },
};

async function list(service: AuditReader, options: ListOptions, io: CliIo): Promise<void> {
  const found = (
    await service.list({
      actor: options.actor,
      targetId: options.target,
      action: options.action,
      since: options.since,
      limit: options.limit ?? DEFAULT_AUDIT_LIMIT,
    })
  ).map(toAuditEventJson);
  if (options.json) {
    printJson(io, found);
    return;
  }
  if (found.length === 0) {
    io.stderr.write('No audit events match.\n');
    return;
  }
  io.stdout.write(
    textTableText(
      COLUMNS.map(([title]) => title),
      found.map((event) => COLUMNS.map(([, cell]) => cell(event))),
    ),
  );
}

const COLUMNS: ReadonlyArray<[string, (event: AuditEventJson) => string]> = [
  ['TIME', (event) => event.occurredAt],
  ['ACTOR', (event) => actorText(event.actor)],
  ['ACTION', (event) => event.action],
  ['TARGET', (event) => `${event.target.type} ${event.target.id ?? '-'}`],
  ['VENUES', (event) => (event.venueIds === null ? '*' : event.venueIds.join(',') || '-')],
  ['OUTCOME', (event) => event.outcome],
  ['FROM', (event) => event.clientAddress ?? '-'],
  ['CHANGED', (event) => event.changedFields?.join(',') || '-'],
];

/** A token or operator by name (its id in --json), cli and system as they are. */
function actorText(actor: AuditEventJson['actor']): string {
  if (actor.name === null) return actor.type;
  return `${actor.type}:${printable(actor.name)}`;
}
