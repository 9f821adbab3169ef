import { isTimeZone } from '../common/validation/time-zone.js';

/**
 * Form values that name a wall-clock time (an `<input type="date">` or `datetime-local`) read in the
 * operator's time zone, as the console shows dates; pure, with unit specs.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
function offsetMs(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a wall-clock time in `zone` names (the earlier one when a clock change repeats it). */
export function wallTimeToInstant(fields: number[], zone: string | null): Date | null {
  const [year, month, day, hour = 0, minute = 0, second = 0] = fields;
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  const timeZone = zone !== null && isTimeZone(zone) ? zone : 'UTC';
  // Two passes find the offset that holds at the instant itself (it may differ across a clock change).
  let instant = wall - offsetMs(wall, timeZone);
  instant = wall - offsetMs(instant, timeZone);
  return new Date(instant);
}

/** `YYYY-MM-DD` as the start of that day in `zone`, or null when it is no real date. */
export function dayStart(raw: string, zone: string | null): Date | null {
  const parts = DATE.exec(raw.trim());
  return parts === null ? null : wallTimeToInstant(parts.slice(1).map(Number), zone);
}

/** `YYYY-MM-DDTHH:MM[:SS]` in `zone`, or null when it is no real date and time. */
export function wallDateTime(raw: string, zone: string | null): Date | null {
  const parts = DATE_TIME.exec(raw.trim());
  if (parts === null) return null;
  return wallTimeToInstant(
    parts
      .slice(1)
      .filter((part) => part !== undefined)
      .map(Number),
    zone,
  );
}

/** The start of the day after `YYYY-MM-DD` in `zone`: a date's end, for "expires on". */
export function dayEnd(raw: string, zone: string | null): Date | null {
  const parts = DATE.exec(raw.trim());
  if (parts === null || dayStart(raw, zone) === null) return null;
  const [year, month, day] = parts.slice(1).map(Number);
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return wallTimeToInstant([next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()], zone);
}

/** An instant as a `datetime-local` value (`YYYY-MM-DDTHH:MM`) in `zone` (null: UTC); '' for none. */
export function instantAsWallDateTime(iso: string | null, zone: string | null): string {
  if (iso === null) return '';
  const instant = new Date(iso).getTime();
  if (Number.isNaN(instant)) return '';
  const timeZone = zone !== null && isTimeZone(zone) ? zone : 'UTC';
  return new Date(instant + offsetMs(instant, timeZone)).toISOString().slice(0, 16);
}

/** The instant of the wall time `HH:MM` in `zone` on the date `days` after `from`'s own date there. */
export function wallTimeOnDay(from: Date, days: number, time: string, zone: string | null): Date | null {
  const clock = /^(\d{2}):(\d{2})$/.exec(time);
  const date = instantAsWallDateTime(from.toISOString(), zone).slice(0, 10);
  if (clock === null || date === '') return null;
  const [year, month, day] = date.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1, day + days));
  return wallTimeToInstant(
    [target.getUTCFullYear(), target.getUTCMonth() + 1, target.getUTCDate(), Number(clock[1]), Number(clock[2])],
    zone,
  );
}

/** The first `HH:MM` in `zone` after `now`: today's while it is ahead, else tomorrow's. */
export function nextWallTime(now: Date, time: string, zone: string | null): Date | null {
  const today = wallTimeOnDay(now, 0, time, zone);
  return today !== null && today.getTime() > now.getTime() ? today : wallTimeOnDay(now, 1, time, zone);
}
