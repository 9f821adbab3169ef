import { toCsv } from '../../batches/csv.js';
import type { HotspotUserDto } from '../../hotspot-users/dto/hotspot-user.response.js';

/**
 * The users export's CSV (the batches' CSV rules: RFC 4180, formula starts neutralised). Times are
 * ISO 8601 in UTC, as the v1 API gives them: a spreadsheet or a script reads them the same whatever
 * the zone of the venue or of whoever opens the file.
 */
export const USERS_CSV_COLUMNS = [
  'username',
  'name',
  'email',
  'phone',
  'room',
  'macAddress',
  'status',
  'loginMethod',
  'expiresAt',
  'validForHours',
  'createdAt',
  'batch',
  'venues',
] as const;

export function usersCsvHeader(): string {
  return toCsv([USERS_CSV_COLUMNS]);
}

/** One line per user, the columns of USERS_CSV_COLUMNS in their order. */
export function usersCsvLines(users: readonly HotspotUserDto[]): string {
  return toCsv(
    users.map((user) => [
      user.username,
      user.name,
      user.email,
      user.phone,
      user.room,
      user.macAddress,
      user.status,
      user.loginMethod,
      user.expiresAt,
      user.validFor === null ? null : user.validFor / 3600,
      user.createdAt,
      user.batchId,
      user.venueIds.join(' '),
    ]),
  );
}

/** The file's name: `users-<venue>-<date>.csv`, the venue id with anything but letters, digits, `.`, `_`, `-` as `_`. */
export function usersCsvFilename(venueId: string, now: Date): string {
  return `users-${venueId.replace(/[^A-Za-z0-9._-]/g, '_')}-${now.toISOString().slice(0, 10)}.csv`;
}

/** The export's link for a venue (the users list shows it). */
export function usersExportUrl(venueId: string): string {
  return `/admin/users/export.csv?${new URLSearchParams({ venueId }).toString()}`;
}
