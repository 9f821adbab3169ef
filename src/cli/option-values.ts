import { isIP } from 'node:net';
import { Option } from 'commander';
import { isPermission, permissionConflict, PERMISSIONS, type Permission } from '../auth/permissions.js';
import { LATEST_STORABLE_INSTANT, parseIsoDateTimeWithZone } from '../common/validation/iso-date-time.js';
import { normaliseMac, uniqueVenueIds } from '../common/validation/normalise.js';
import { VENUE_ID_PATTERN } from '../common/validation/validators.js';
import { UsageError } from './command.js';

/**
 * Options and the readers of their values, shared by the subcommands. A reader returns the value the
 * service gets, or throws UsageError with a message that follows the option's name ("must be …").
 */

/** The error for an option given a second time. */
function repeated(option: Option): UsageError {
  return new UsageError(`option '${option.long ?? option.flags}' may be given only once`);
}

/** An option that takes one value, may be given at most once, and is read by `read`. */
export function valueOption<T>(flags: string, description: string, read: (raw: string) => T): Option {
  const option = new Option(flags, description);
  // commander lets the last of repeated options win silently; a repeat is more likely a mistake.
  return option.argParser((raw: string, previous: T | undefined) => {
    const name = option.long ?? option.flags;
    if (previous !== undefined) throw repeated(option);
    try {
      return read(raw);
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`option '${name}' ${error.message}`);
      throw error;
    }
  });
}

/** An option without a value (a flag), refused when given twice as valueOption refuses a repeat. */
export function flagOption(flags: string, description: string): Option {
  const option = new Option(flags, description);
  // commander calls a flag's parser with no value and what it holds already; undefined then reads as true.
  return option.argParser((_raw: unknown, previous: boolean | undefined) => {
    if (previous !== undefined) throw repeated(option);
    return undefined;
  });
}

/** A valueOption whose value is one of `choices` (listed in the help). */
export function choiceOption<T extends string>(flags: string, description: string, choices: readonly T[]): Option {
  const option = valueOption(flags, description, (raw) => {
    if (!(choices as readonly string[]).includes(raw)) throw new UsageError(`must be one of ${choices.join(', ')}`);
    return raw as T;
  });
  option.argChoices = [...choices];
  return option;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Trimmed text of 1 to `maxLength` characters without control characters. */
export function text(maxLength: number): (raw: string) => string {
  return (raw) => {
    const value = raw.trim();
    const length = [...value].length;
    if (length < 1 || length > maxLength) throw new UsageError(`must be 1-${maxLength} characters`);
    if (CONTROL_CHARACTERS.test(value)) throw new UsageError('must not contain control characters');
    return value;
  };
}

/** A comma-separated subset of the permissions, returned in their canonical order. */
export function permissionList(raw: string): Permission[] {
  const items = raw.split(',').map((item) => item.trim());
  const unknown = items.filter((item) => !isPermission(item));
  if (raw.trim() === '' || unknown.length > 0) {
    throw new UsageError(
      `must be a comma-separated list of ${PERMISSIONS.join(', ')}` +
        (raw.trim() === '' ? '' : ` (not: ${unknown.map((item) => `"${printable(item)}"`).join(', ')})`),
    );
  }
  const permissions = PERMISSIONS.filter((permission) => items.includes(permission));
  const conflict = permissionConflict(permissions);
  if (conflict !== null) throw new UsageError(`must not combine them: ${conflict}`);
  return permissions;
}

const VENUE_ID_RULE = '1-64 characters of A-Za-z0-9_.:-';

export function venueId(raw: string): string {
  if (!VENUE_ID_PATTERN.test(raw)) throw new UsageError(`must be a venue id, ${VENUE_ID_RULE}`);
  return raw;
}

/** Comma-separated venue ids; repeats are dropped, the order is kept. */
export function venueIdList(raw: string): string[] {
  const items = raw.split(',').map((item) => item.trim());
  const bad = items.filter((item) => !VENUE_ID_PATTERN.test(item));
  if (bad.length > 0) {
    throw new UsageError(
      `must be a comma-separated list of venue ids, each ${VENUE_ID_RULE}` +
        (raw.trim() === '' ? '' : ` (not: ${bad.map((item) => `"${printable(item)}"`).join(', ')})`),
    );
  }
  return uniqueVenueIds(items);
}

/**
 * An ISO 8601 date-time with a zone that names a real instant (no 30 February) after `now()`, and
 * no later than the last one the database stores (an offset can push 9999-12-31 into year 10000).
 */
export function futureDateTime(now: () => Date): (raw: string) => Date {
  return (raw) => {
    const instant = parseIsoDateTimeWithZone(raw.trim());
    if (instant === null) {
      throw new UsageError('must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z');
    }
    if (instant.getTime() <= now().getTime()) throw new UsageError('must lie in the future');
    if (instant.getTime() > LATEST_STORABLE_INSTANT.getTime()) {
      throw new UsageError(`must be no later than ${LATEST_STORABLE_INSTANT.toISOString()}`);
    }
    return instant;
  };
}

/** An ISO 8601 date-time with a zone that names a real instant (no 30 February). */
export function isoDateTime(raw: string): Date {
  const instant = parseIsoDateTimeWithZone(raw.trim());
  if (instant === null) {
    throw new UsageError('must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z');
  }
  return instant;
}

/** A whole number from `min` to `max`, in decimal digits. */
export function integerBetween(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = raw.trim();
    if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new UsageError(`must be an integer from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** A MAC address in one of the accepted forms, returned as AA:BB:CC:DD:EE:FF. */
export function macAddress(raw: string): string {
  const mac = normaliseMac(raw);
  if (mac === null) {
    throw new UsageError(
      'must be a MAC address like AA:BB:CC:DD:EE:FF, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff or aabbccddeeff',
    );
  }
  return mac;
}

export function ipAddress(raw: string): string {
  if (isIP(raw) === 0) throw new UsageError('must be an IPv4 or IPv6 address');
  return raw;
}

/** Echoes user input in a message safely: no control characters, bounded length. */
export function printable(value: string): string {
  const cleaned = value.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '?');
  return cleaned.length > 40 ? `${cleaned.slice(0, 40)}…` : cleaned;
}
