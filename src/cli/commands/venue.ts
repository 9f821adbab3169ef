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
import { readFileSync } from 'node:fs';
import { AuditModule } from '../../audit/audit.module.js';
import { GuestAccessRepository } from '../../guest-access/guest-access.repository.js';
import {
  isColour,
  parsePortalWays,
  PORTAL_WAYS,
  VALIDITY_MAX_SECONDS,
  VALIDITY_MIN_SECONDS,
  type PortalChanges,
} from '../../guest-access/guest-access.rules.js';
import {
  PortalValidationError,
  VenuePortalsService,
  type VenuePortal,
} from '../../guest-access/venue-portals.service.js';
import { PlansModule } from '../../plans/plans.module.js';
import { CommandVenueScopeModule } from '../command-venue-scope.module.js';
import { VenuesModule } from '../../venues/venues.module.js';
import { VenuesService, VenueValidationError, type Venue } from '../../venues/venues.service.js';
import { printJson, UsageError, type CliCommand, type CliIo, type ServiceNeed } from '../command.js';
import { flagOption, valueOption } from '../option-values.js';
import { textTable } from '../text-table.js';

/** `hotspot venue set|list`: the venue registry (how a venue id is named, its time zone, SSID and portal). */

export type VenueRegistry = Pick<VenuesService, 'set' | 'list'> & {
  /** The venue's guest portal settings (guest-access). */
  setPortal(id: string, changes: PortalChanges): Promise<VenuePortal>;
};

export const VENUE_SERVICE: ServiceNeed<VenueRegistry> = {
  // PlansModule checks a default plan (VENUE_PLAN_OFFERS) and a portal's plan.
  imports: [CommandVenueScopeModule, VenuesModule, PlansModule, AuditModule],
  providers: [VenuePortalsService, GuestAccessRepository],
  resolve: (context) => {
    const venues = context.get(VenuesService);
    const portals = context.get(VenuePortalsService);
    return {
      set: (id, changes) => venues.set(id, changes),
      list: () => venues.list(),
      setPortal: (id, changes) => portals.set(id, changes),
    };
  },
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
  portalWays?: PortalChanges['ways'];
  portalName?: string;
  clearPortalName?: true;
  portalLogo?: string;
  clearPortalLogo?: true;
  portalColours?: Pick<PortalChanges, 'colourAccent' | 'colourBackground' | 'colourText'>;
  portalTermsFile?: string;
  clearPortalTerms?: true;
  portalPrivacyFile?: string;
  clearPortalPrivacy?: true;
  portalPlan?: string;
  clearPortalPlan?: true;
  portalValidity?: number;
  portalKeepSocialEmail?: boolean;
  portalFaskeyFile?: string;
  clearPortalFaskey?: true;
  json?: true;
}

/** The text of a file the option names (`-`: standard input), as UsageError when it cannot be read. */
function fileText(path: string, flags: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch {
    throw new UsageError(`option '${flags}' must name a readable file (${path})`);
  }
}

function portalWaysValue(raw: string): PortalChanges['ways'] {
  const ways = parsePortalWays(raw);
  if (ways === null) throw new UsageError(`must be a comma-separated list of ${PORTAL_WAYS.join(', ')} (or empty)`);
  return ways;
}

function portalColoursValue(raw: string): Pick<PortalChanges, 'colourAccent' | 'colourBackground' | 'colourText'> {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 3 || parts.some((part) => part !== '' && !isColour(part)))
    throw new UsageError(
      'must be up to three colours as #rrggbb: accent,background,text (an empty one is the default)',
    );
  const [accent = '', background = '', text = ''] = parts;
  const colour = (value: string) => (value === '' ? null : value);
  return { colourAccent: colour(accent), colourBackground: colour(background), colourText: colour(text) };
}

function validityValue(raw: string): number {
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || seconds < VALIDITY_MIN_SECONDS || seconds > VALIDITY_MAX_SECONDS)
    throw new UsageError(`must be ${VALIDITY_MIN_SECONDS} to ${VALIDITY_MAX_SECONDS} seconds`);
  return seconds;
}

function yesNoValue(raw: string): boolean {
  if (raw !== 'yes' && raw !== 'no') throw new UsageError('must be yes or no');
  return raw === 'yes';
}

/** The portal options given, as the changes of the venue's portal (each file read); null when none was given. */
function portalChangesOf(options: SetOptions): PortalChanges | null {
  const changes: PortalChanges = {};
  const pair = <V>(value: V | undefined, clear: true | undefined, flags: string, clearFlag: string) => {
    if (value !== undefined && clear)
      throw new UsageError(`option '${flags}' cannot be used with option '${clearFlag}'`);
    return value !== undefined ? value : clear ? null : undefined;
  };
  if (options.portalWays !== undefined) changes.ways = options.portalWays;
  const name = pair(options.portalName, options.clearPortalName, '--portal-name', '--clear-portal-name');
  if (name !== undefined) changes.displayName = name === '' ? null : name;
  const logo = pair(options.portalLogo, options.clearPortalLogo, '--portal-logo', '--clear-portal-logo');
  if (logo !== undefined) changes.logoUrl = logo === '' ? null : logo;
  if (options.portalColours !== undefined) Object.assign(changes, options.portalColours);
  const terms = pair(options.portalTermsFile, options.clearPortalTerms, '--portal-terms-file', '--clear-portal-terms');
  if (terms !== undefined) changes.termsText = terms === null ? null : fileText(terms, '--portal-terms-file');
  const privacy = pair(
    options.portalPrivacyFile,
    options.clearPortalPrivacy,
    '--portal-privacy-file',
    '--clear-portal-privacy',
  );
  if (privacy !== undefined) changes.privacyText = privacy === null ? null : fileText(privacy, '--portal-privacy-file');
  const plan = pair(options.portalPlan, options.clearPortalPlan, '--portal-plan', '--clear-portal-plan');
  if (plan !== undefined) changes.planId = plan === '' ? null : plan;
  if (options.portalValidity !== undefined) changes.validitySeconds = options.portalValidity;
  if (options.portalKeepSocialEmail !== undefined) changes.keepSocialEmail = options.portalKeepSocialEmail;
  const faskey = pair(
    options.portalFaskeyFile,
    options.clearPortalFaskey,
    '--portal-faskey-file',
    '--clear-portal-faskey',
  );
  if (faskey !== undefined) changes.faskey = faskey === null ? null : fileText(faskey, '--portal-faskey-file').trim();
  return Object.keys(changes).length === 0 ? null : changes;
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
          '  hotspot venue set lobby --portal-ways voucher,sms,terms --portal-terms-file terms.txt\n' +
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
        valueOption(
          '--portal-ways <ways>',
          `the ways in its guest portal offers: ${PORTAL_WAYS.join(',')}`,
          portalWaysValue,
        ),
      )
      .addOption(valueOption('--portal-name <name>', 'the name its portal shows (the venue id until set)', String))
      .addOption(flagOption('--clear-portal-name', 'clear the name its portal shows'))
      .addOption(valueOption('--portal-logo <url>', 'the https URL of the logo its portal shows', String))
      .addOption(flagOption('--clear-portal-logo', "clear its portal's logo"))
      .addOption(
        valueOption(
          '--portal-colours <accent,background,text>',
          "its portal's colours as #rrggbb (an empty one: the portal's own)",
          portalColoursValue,
        ),
      )
      .addOption(
        valueOption(
          '--portal-terms-file <file>',
          'the terms of use its portal shows, from a text file (- reads stdin)',
          String,
        ),
      )
      .addOption(flagOption('--clear-portal-terms', "clear its portal's terms"))
      .addOption(
        valueOption('--portal-privacy-file <file>', 'the privacy notice its portal links, from a text file', String),
      )
      .addOption(flagOption('--clear-portal-privacy', "clear its portal's privacy notice"))
      .addOption(
        valueOption(
          '--portal-plan <planId>',
          'the plan of the users its portal makes (the venue default plan until set)',
          String,
        ),
      )
      .addOption(flagOption('--clear-portal-plan', "clear the plan of its portal's users"))
      .addOption(
        valueOption(
          '--portal-validity <seconds>',
          'how long a portal user stays valid after each sign-in',
          validityValue,
        ),
      )
      .addOption(
        valueOption(
          '--portal-keep-social-email <yes|no>',
          'whether social sign-in keeps the e-mail address',
          yesNoValue,
        ),
      )
      .addOption(
        valueOption(
          '--portal-faskey-file <file>',
          "its openNDS gateway's faskey, read from a file (- reads stdin)",
          String,
        ),
      )
      .addOption(flagOption('--clear-portal-faskey', "clear its portal's openNDS faskey"))
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
  const portalChanges = portalChangesOf(options);
  let result: Awaited<ReturnType<VenueRegistry['set']>>;
  let portal: VenuePortal | null = null;
  try {
    result = await registry.set(id, changes);
    if (portalChanges !== null) portal = await registry.setPortal(id, portalChanges);
  } catch (error) {
    if (error instanceof VenueValidationError) throw new UsageError(error.message);
    if (error instanceof PortalValidationError) throw new UsageError(`portal ${error.message}`);
    throw error;
  }
  const json = toVenueJson(result.venue);
  if (options.json) {
    printJson(io, portal === null ? json : { ...json, portal });
    return;
  }
  const verb = result.created ? 'Registered' : result.changed.length > 0 ? 'Changed' : 'Unchanged:';
  io.stdout.write(`${verb} venue ${json.id}: ${describe(json)}.\n`);
  if (portal !== null) io.stdout.write(`Guest portal of venue ${json.id}: ${describePortal(portal)}.\n`);
}

function describePortal(portal: VenuePortal): string {
  return (
    `ways ${portal.ways.length === 0 ? '- (off)' : portal.ways.join(',')}, name ${shown(portal.displayName)}, ` +
    `terms ${portal.termsVersion ?? '-'}, privacy ${portal.privacyText === null ? '-' : 'set'}, ` +
    `plan ${portal.planId ?? '- (the venue default)'}, validity ${portal.validitySeconds} s, ` +
    `keep social e-mail ${portal.keepSocialEmail ? 'yes' : 'no'}, openNDS faskey ${portal.hasFaskey ? 'set' : '-'}`
  );
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
