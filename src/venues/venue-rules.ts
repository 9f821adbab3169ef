import { VENUE_ID_PATTERN } from '../common/validation/validators.js';

/** The pure rules of the venue registry: what each field accepts, and how a change applies. */

export const VENUE_ID_MAX_LENGTH = 64;
export const DISPLAY_NAME_MAX_LENGTH = 100;
export const TIME_ZONE_MAX_LENGTH = 64;
export const SSID_MAX_OCTETS = 32;
export const PORTAL_URL_MAX_LENGTH = 2048;

/** The fields a venue has besides its id; null: not set. */
export interface VenueFields {
  displayName: string | null;
  timeZone: string | null;
  ssid: string | null;
  portalUrl: string | null;
  /** When guests check out, `HH:MM` on a 24-hour clock in the venue's time zone (a stay ends then). */
  checkOutTime: string | null;
  /** The plan (src/plans) of a user without one of its own who logs in here; it must offer this venue. */
  defaultPlanId: string | null;
}

export type VenueField = keyof VenueFields;

/** What `set` changes: a value sets the field, null (or an empty value) clears it, absent leaves it. */
export type VenueChanges = Partial<Record<VenueField, string | null>>;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function venueIdProblem(id: string): string | null {
  return VENUE_ID_PATTERN.test(id) ? null : 'must be 1-64 characters of A-Za-z0-9_.:-';
}

export function displayNameProblem(name: string): string | null {
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) return `must be at most ${DISPLAY_NAME_MAX_LENGTH} characters`;
  if (CONTROL_CHARACTERS.test(name)) return 'must not contain control characters';
  return null;
}

/** An IANA zone name as this Node.js knows it (Intl), in the spelling given. */
export function timeZoneProblem(zone: string): string | null {
  if (zone.length > TIME_ZONE_MAX_LENGTH || !/^[A-Za-z0-9_+\-/]+$/.test(zone)) {
    return 'must be an IANA time zone such as Europe/Berlin';
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return null;
  } catch {
    return 'must be an IANA time zone such as Europe/Berlin';
  }
}

/** An SSID is up to 32 octets (IEEE 802.11), counted in UTF-8. */
export function ssidProblem(ssid: string): string | null {
  if (Buffer.byteLength(ssid, 'utf8') > SSID_MAX_OCTETS) return `must be at most ${SSID_MAX_OCTETS} octets`;
  if (CONTROL_CHARACTERS.test(ssid)) return 'must not contain control characters';
  return null;
}

export function portalUrlProblem(url: string): string | null {
  if (url.length > PORTAL_URL_MAX_LENGTH) return `must be at most ${PORTAL_URL_MAX_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an http or https URL';
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? null : 'must be an http or https URL';
}

/** The check-out time a venue has until it sets one: noon, as most hotels. */
export const DEFAULT_CHECK_OUT_TIME = '12:00';

/** A time of day on a 24-hour clock, `HH:MM` (00:00-23:59). */
export function checkOutTimeProblem(time: string): string | null {
  return /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(time) ? null : 'must be a time of day as HH:MM, e.g. 11:00';
}

/** A plan's `_id` in form only: whether the plan exists and is offered is the plans module's check. */
export function planIdProblem(planId: string): string | null {
  return /^[0-9A-Za-z-]{1,36}$/.test(planId) ? null : 'must be the _id of a plan';
}

const PROBLEMS: Record<VenueField, (value: string) => string | null> = {
  displayName: displayNameProblem,
  timeZone: timeZoneProblem,
  ssid: ssidProblem,
  portalUrl: portalUrlProblem,
  checkOutTime: checkOutTimeProblem,
  defaultPlanId: planIdProblem,
};

export const VENUE_FIELDS: readonly VenueField[] = [
  'displayName',
  'timeZone',
  'ssid',
  'portalUrl',
  'checkOutTime',
  'defaultPlanId',
];

/** The first problem of `changes` as [field, message], or null; an empty value clears and is no problem. */
export function venueChangesProblem(changes: VenueChanges): [VenueField, string] | null {
  for (const field of VENUE_FIELDS) {
    const value = changes[field];
    if (value === undefined || value === null || value === '') continue;
    const message = PROBLEMS[field](value);
    if (message !== null) return [field, message];
  }
  return null;
}

/** The fields after `changes` (an empty value reads as null); `current` null: a new venue. */
export function appliedVenueChanges(current: VenueFields | null, changes: VenueChanges): VenueFields {
  const result: VenueFields =
    current === null
      ? { displayName: null, timeZone: null, ssid: null, portalUrl: null, checkOutTime: null, defaultPlanId: null }
      : { ...current };
  for (const field of VENUE_FIELDS) {
    const value = changes[field];
    if (value !== undefined) result[field] = value === '' ? null : value;
  }
  return result;
}

/** The fields whose value `next` changes from `current`. */
export function changedVenueFields(current: VenueFields, next: VenueFields): VenueField[] {
  return VENUE_FIELDS.filter((field) => current[field] !== next[field]);
}

/** Of `venueIds`, those not in `registered`, each once, in the order given. */
export function missingVenueIds(venueIds: readonly string[], registered: readonly string[]): string[] {
  const known = new Set(registered);
  return [...new Set(venueIds)].filter((id) => !known.has(id));
}
