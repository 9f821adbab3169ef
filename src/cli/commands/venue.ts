import { Argument } from 'commander';
import {
  checkOutTimeProblem,
  planIdProblem,
  displayNameProblem,
  portalUrlProblem,
  ssidProblem,
  DEFAULT_CHECK_OUT_TIME,
  timeZoneProblem,
  venueIdProblem,
  type VenueChanges,
  type VenueField,
} from '../../venues/venue-rules.js';
import { PlansModule } from '../../plans/plans.module.js';
import { CommandVenueScopeModule } from '../command-venue-scope.module.js';
import { VenuesModule } from '../../venues/venues.module.js';
import { VenuesService, VenueValidationError, type Venue } from '../../venues/venues.service.js';
import { printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, valueOption } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot venue set|list`: the venue registry (how a venue id is named, its time zone, SSID and portal). */

export type VenueRegistry = Pick<VenuesService, 'set' | 'list'>;

export const VENUE_SERVICE: ServiceNeed<VenueRegistry> = {
  // PlansModule checks a default plan (VENUE_PLAN_OFFERS).
  imports: [CommandVenueScopeModule, VenuesModule, PlansModule],
  resolve: (context) => context.get(VenuesService),
};

/** A venue as the command line prints it: its fields, the times as ISO 8601. */
export interface VenueJson {
  id: string;
  displayName: string | null;
  timeZone: string | null;
  ssid: string | null;
  portalUrl: string | null;
  checkOutTime: string | null;
  defaultPlanId: string | null;
  createdAt: string;
  updatedAt: string;
}

function toVenueJson(venue: Venue): VenueJson {
  return {
    id: venue.id,
    displayName: venue.displayName,
    timeZone: venue.timeZone,
    ssid: venue.ssid,
    portalUrl: venue.portalUrl,
    checkOutTime: venue.checkOutTime,
    defaultPlanId: venue.defaultPlanId,
    createdAt: venue.createdAt.toISOString(),
    updatedAt: venue.updatedAt.toISOString(),
  };
}

/** Each field's option, the name of its --clear- flag, and the rule its value follows. */
const FIELD_OPTIONS: ReadonlyArray<{
  field: VenueField;
  flags: string;
  clear: string;
  key: keyof SetOptions;
  clearKey: keyof SetOptions;
  help: string;
  problem: (value: string) => string | null;
}> = [
  {
    field: 'displayName',
    flags: '--name <name>',
    clear: '--clear-name',
    key: 'name',
    clearKey: 'clearName',
    help: 'the name shown for the venue, at most 100 characters',
    problem: displayNameProblem,
  },
  {
    field: 'timeZone',
    flags: '--time-zone <zone>',
    clear: '--clear-time-zone',
    key: 'timeZone',
    clearKey: 'clearTimeZone',
    help: 'its IANA time zone, e.g. Europe/Berlin',
    problem: timeZoneProblem,
  },
  {
    field: 'ssid',
    flags: '--ssid <ssid>',
    clear: '--clear-ssid',
    key: 'ssid',
    clearKey: 'clearSsid',
    help: 'the SSID of its guest network, at most 32 octets',
    problem: ssidProblem,
  },
  {
    field: 'portalUrl',
    flags: '--portal-url <url>',
    clear: '--clear-portal-url',
    key: 'portalUrl',
    clearKey: 'clearPortalUrl',
    help: 'the login page of its captive portal, an http or https URL of at most 2048 characters',
    problem: portalUrlProblem,
  },
  {
    field: 'checkOutTime',
    flags: '--check-out <HH:MM>',
    clear: '--clear-check-out',
    key: 'checkOut',
    clearKey: 'clearCheckOut',
    help: 'when its guests check out, HH:MM in its time zone (12:00 until set), where a stay ends',
    problem: checkOutTimeProblem,
  },
  {
    field: 'defaultPlanId',
    flags: '--default-plan <planId>',
    clear: '--clear-default-plan',
    key: 'defaultPlan',
    clearKey: 'clearDefaultPlan',
    help: 'the plan of its users without one of their own, the _id of a plan it offers',
    problem: planIdProblem,
  },
];

interface SetOptions {
  name?: string;
  timeZone?: string;
  ssid?: string;
  portalUrl?: string;
  checkOut?: string;
  defaultPlan?: string;
  clearName?: true;
  clearTimeZone?: true;
  clearSsid?: true;
  clearPortalUrl?: true;
  clearCheckOut?: true;
  clearDefaultPlan?: true;
  json?: true;
}

/** A value following `problem`; an empty value is kept, as it clears the field. */
function fieldValue(problem: (value: string) => string | null): (raw: string) => string {
  return (raw) => {
    if (raw === '') return raw;
    const message = problem(raw);
    if (message !== null) throw new UsageError(message);
    return raw;
  };
}

function venueIdArgument(raw: string): string {
  if (venueIdProblem(raw) !== null)
    throw new UsageError('the argument must be a venue id, 1-64 characters of A-Za-z0-9_.:-');
  return raw;
}

export const venueCommand: CliCommand = {
  register(program, { io, runtime }) {
    const venue = program
      .command('venue')
      .description('Register and list venues: a display name, time zone, SSID and captive-portal URL for a venue id.')
      .addHelpText(
        'after',
        '\nExamples:\n' +
          '  hotspot venue set lobby --name "Hotel Lobby" --time-zone Europe/Berlin --ssid "Hotel Guest"\n' +
          '  hotspot venue set lobby --portal-url https://portal.example/login --clear-ssid\n' +
          '  hotspot venue set lobby --check-out 11:00\n' +
          '  hotspot venue set lobby --default-plan 019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b49\n' +
          '  hotspot venue list --json\n',
      );

    const set = venue
      .command('set')
      .description(
        'Register a venue, or change the fields given of a registered one. An empty value or --clear-<field> ' +
          'clears the field; fields not given stay.',
      )
      .addArgument(new Argument('<id>', 'the venue id, as in venueIds and nas add --venue').argParser(venueIdArgument));
    for (const option of FIELD_OPTIONS) {
      set.addOption(valueOption(option.flags, option.help, fieldValue(option.problem)));
      set.addOption(flagOption(option.clear, `clear ${option.help.split(',')[0]}`));
    }
    set
      .addOption(
        flagOption(
          '--json',
          'print one JSON object {id, displayName, timeZone, ssid, portalUrl, checkOutTime, defaultPlanId, createdAt, ' +
            'updatedAt}',
        ),
      )
      .action((id: string, options: SetOptions) =>
        runtime.use(VENUE_SERVICE, (registry) => setVenue(registry, id, options, io)),
      );

    venue
      .command('list')
      .description('List the registered venues, by id.')
      .addOption(flagOption('--json', 'print a JSON array'))
      .action((options: { json?: true }) => runtime.use(VENUE_SERVICE, (registry) => list(registry, options, io)));
  },
};

async function setVenue(registry: VenueRegistry, id: string, options: SetOptions, io: CliIo): Promise<void> {
  const changes: VenueChanges = {};
  for (const option of FIELD_OPTIONS) {
    const value = options[option.key] as string | undefined;
    const clear = options[option.clearKey] === true;
    if (value !== undefined && clear) {
      throw new UsageError(`option '${option.flags.split(' ')[0]}' cannot be used with option '${option.clear}'`);
    }
    if (value !== undefined) changes[option.field] = value;
    else if (clear) changes[option.field] = null;
  }
  let result: Awaited<ReturnType<VenueRegistry['set']>>;
  try {
    result = await registry.set(id, changes);
  } catch (error) {
    if (error instanceof VenueValidationError) throw new UsageError(error.message);
    throw error;
  }
  const json = toVenueJson(result.venue);
  if (options.json) {
    printJson(io, json);
    return;
  }
  const verb = result.created ? 'Registered' : result.changed.length > 0 ? 'Changed' : 'Unchanged:';
  io.stdout.write(`${verb} venue ${json.id}: ${describe(json)}.\n`);
}

function shown(value: string | null): string {
  return value === null ? '-' : JSON.stringify(value);
}

function describe(venue: VenueJson): string {
  return (
    `name ${shown(venue.displayName)}, time zone ${venue.timeZone ?? '-'}, SSID ${shown(venue.ssid)}, ` +
    `portal URL ${venue.portalUrl ?? '-'}, check-out ${venue.checkOutTime ?? `${DEFAULT_CHECK_OUT_TIME} (default)`}, ` +
    `default plan ${venue.defaultPlanId ?? '-'}`
  );
}

const VENUE_TABLE_HEADER = ['ID', 'NAME', 'TIME ZONE', 'SSID', 'PORTAL URL', 'CHECK-OUT', 'UPDATED'];

async function list(registry: VenueRegistry, options: { json?: true }, io: CliIo): Promise<void> {
  const rows = (await registry.list()).map(toVenueJson);
  if (options.json) {
    printJson(io, rows);
    return;
  }
  if (rows.length === 0) {
    io.stderr.write('No venues registered. Register one with: hotspot venue set ID --name NAME\n');
    return;
  }
  const cells = rows.map((venue) => [
    venue.id,
    venue.displayName ?? '-',
    venue.timeZone ?? '-',
    venue.ssid ?? '-',
    venue.portalUrl ?? '-',
    venue.checkOutTime ?? '-',
    venue.updatedAt,
  ]);
  for (const line of textTable(VENUE_TABLE_HEADER, cells)) io.stdout.write(`${line}\n`);
}
