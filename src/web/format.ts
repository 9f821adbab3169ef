import { isTimeZone } from '../common/validation/time-zone.js';
import type { Language } from './language.js';

const LOCALES: Record<Language, string> = { en: 'en-GB', tr: 'tr-TR' };

/** Every time zone an operator may choose (UTC first). */
export function timeZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A moment as the console shows it: a `<time>` element with the date and time in the operator's
 * zone and language, the exact UTC instant on hover (title) and for machines (datetime). Returns
 * HTML (built from escaped text only) for `<%~ %>`; an absent value is an empty string.
 */
export function timeHtml(value: Date | string | null | undefined, zone: string | null, language: Language): string {
  if (value === null || value === undefined) return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const local = dateTimeFormat(language, zone).format(date);
  const iso = date.toISOString();
  const utc = `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
  return `<time datetime="${escapeHtml(iso)}" title="${escapeHtml(utc)}">${escapeHtml(local)}</time>`;
}

/**
 * The formatter of dates in `language` and `zone` (UTC when not a known zone), made once: building an
 * Intl.DateTimeFormat costs about 40 µs and native memory, and a page of 20 rows prints 20 dates.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(language: Language, zone: string | null): Intl.DateTimeFormat {
  const key = `${language} ${zone ?? ''}`;
  let format = formats.get(key);
  if (format === undefined) {
    const timeZone = zone !== null && isTimeZone(zone) ? zone : 'UTC';
    format = new Intl.DateTimeFormat(LOCALES[language], { timeZone, dateStyle: 'medium', timeStyle: 'medium' });
    // Keyed by what operators chose (time zones and languages): a few hundred at most.
    if (formats.size < 1000) formats.set(key, format);
  }
  return format;
}

/** A byte count in the operator's language: 1.5 MB, 12 kB, 900 B. */
export function bytesText(value: number | string | null | undefined, language: Language): string {
  const bytes = Number(value ?? 0);
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || size >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: digits }).format(size)} ${units[unit]}`;
}
