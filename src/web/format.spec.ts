import { isTimeZone } from '../common/validation/time-zone.js';
import { bytesText, timeHtml, timeZones } from './format.js';

describe('console formatting', () => {
  const at = new Date('2026-11-25T21:05:09.000Z');

  it('shows a moment in the operator zone, with UTC on hover', () => {
    expect(timeHtml(at, 'Europe/Istanbul', 'en')).toBe(
      '<time datetime="2026-11-25T21:05:09.000Z" title="2026-11-25 21:05:09 UTC">26 Nov 2026, 00:05:09</time>',
    );
    expect(timeHtml(at, null, 'en')).toContain('>25 Nov 2026, 21:05:09<');
    expect(timeHtml(at, 'Europe/Istanbul', 'tr')).toContain('>26 Kas 2026 00:05:09<');
  });

  it('falls back to UTC for an unknown zone and prints nothing for no value', () => {
    expect(timeHtml(at, 'Mars/Olympus', 'en')).toContain('21:05:09<');
    expect(timeHtml(null, 'UTC', 'en')).toBe('');
    expect(timeHtml('not a date', 'UTC', 'en')).toBe('');
  });

  it('knows the IANA zones', () => {
    expect(isTimeZone('Europe/Istanbul')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(timeZones()[0]).toBe('UTC');
    expect(timeZones()).toContain('America/New_York');
  });

  it('writes byte counts', () => {
    expect(bytesText(900, 'en')).toBe('900 B');
    expect(bytesText(1_500_000, 'en')).toBe('1.5 MB');
    expect(bytesText('2048', 'tr')).toBe('2 kB');
  });
});
