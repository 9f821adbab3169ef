/** The last instant a datetime column holds on both databases (MySQL's DATETIME ends with year 9999). */
export const LATEST_STORABLE_INSTANT = new Date('9999-12-31T23:59:59.999Z');

export const ISO_DATE_TIME_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;

/**
 * The instant an ISO 8601 date-time with a zone (`Z` or an offset; seconds and fraction optional)
 * names, or null when the text is not one or names no real time (30 February, 24:00, offset +25:00).
 * Date.parse alone would roll such values over into another day.
 */
export function parseIsoDateTimeWithZone(raw: string): Date | null {
  const match = ISO_DATE_TIME_WITH_ZONE.exec(raw);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, oh = '0', om = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (hour > 23 || minute > 59 || second > 59 || Number(oh) > 23 || Number(om) > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return new Date(local - offsetMinutes * 60_000);
}
