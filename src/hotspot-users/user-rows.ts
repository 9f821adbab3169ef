import { readDateTime } from '../database/columns.js';
import { DeviceEntity, type DeviceStatus } from '../sessions/entities/device.entity.js';
import type { JsonObject, LoginMethod, UserStatus } from './entities/hotspot-user.entity.js';
import { HotspotUserEntity } from './entities/hotspot-user.entity.js';
import { userTextOf, type UserTextValues } from './user-text-fields.js';

/** A date as a driver returns it: a Date (mysql2), or the stored text `YYYY-MM-DD HH:MM:SS.mmm` in UTC. */
export type SqlDateTime = Date | string;

/**
 * A row of the one-statement read of users with their venues and devices
 * (HotspotUsersRepository.findShownRecords): either a user with one of its venues (no device
 * columns), or one device of a user (only `id`, the user's, and the device columns).
 */
export interface ShownUserRow extends UserTextValues {
  id: string;
  name: string | null;
  username: string | null;
  mac_address: string | null;
  login_method: LoginMethod | null;
  status: UserStatus | null;
  password_hash: string | null;
  expires_at: SqlDateTime | null;
  valid_for: number | string | null;
  first_login_at: SqlDateTime | null;
  metadata: string | null;
  created_at: SqlDateTime | null;
  updated_at: SqlDateTime | null;
  version: number | string | null;
  venue_id: string | null;
  position: number | string | null;
  device_id: string | null;
  device_mac: string | null;
  device_name: string | null;
  device_status: DeviceStatus | null;
  first_seen_at: SqlDateTime | null;
  last_seen_at: SqlDateTime | null;
  batch_id: string | null;
  plan_id: string | null;
}

/**
 * A row of the one-statement read of a list page (HotspotUsersRepository.findVenuePage): user rows
 * also carry the page's sort key (the venue row's copy of the user's creation time) and the total;
 * device rows carry nulls there.
 */
export interface PageRow extends ShownUserRow {
  page_key: SqlDateTime | null;
  total: number | string | null;
}

/** A row that carries a user (it has no device columns). */
type UserRow = ShownUserRow & {
  name: string;
  login_method: LoginMethod;
  status: UserStatus;
  metadata: string;
  created_at: SqlDateTime;
  updated_at: SqlDateTime;
  version: number | string;
};

/** A row that carries a device. */
type DeviceRow = ShownUserRow & {
  device_id: string;
  device_mac: string;
  device_status: DeviceStatus;
  first_seen_at: SqlDateTime;
  last_seen_at: SqlDateTime;
};

/** A user with everything its representation shows: its venue ids in their stored order and its devices. */
export interface ShownRecord {
  user: HotspotUserEntity;
  venueIds: string[];
  devices: DeviceEntity[];
}

/** The records of `ids` (in that order; ids without a user row are left out) from the statement's rows. */
export function shownRecordsOf(rows: readonly ShownUserRow[], ids: readonly string[]): ShownRecord[] {
  const users = new Map<
    string,
    { user: HotspotUserEntity; venues: Array<[number, string]>; devices: DeviceEntity[] }
  >();
  const devices: DeviceRow[] = [];
  for (const row of rows) {
    if (row.device_id !== null) {
      devices.push(row as DeviceRow);
      continue;
    }
    let entry = users.get(row.id);
    if (entry === undefined) {
      entry = { user: userOf(row as UserRow), venues: [], devices: [] };
      users.set(row.id, entry);
    }
    if (row.venue_id !== null) entry.venues.push([Number(row.position), row.venue_id]);
  }
  for (const row of devices) users.get(row.id)?.devices.push(deviceOf(row));
  return ids.flatMap((id) => {
    const entry = users.get(id);
    if (entry === undefined) return [];
    const venueIds = entry.venues.sort((a, b) => a[0] - b[0]).map(([, venueId]) => venueId);
    return [{ user: entry.user, venueIds, devices: entry.devices }];
  });
}

/**
 * The page's user ids in list order, newest first and then by id descending, as the list index
 * holds them: a statement's rows come in no promised order, and sorting them in SQL costs the
 * database more than the rest of the page.
 */
export function pageOrder(rows: readonly PageRow[]): string[] {
  const keys = new Map<string, number>();
  for (const row of rows) if (row.page_key !== null) keys.set(row.id, readDateTime(row.page_key).getTime());
  return [...keys].sort(([a, aKey], [b, bKey]) => bKey - aKey || (a < b ? 1 : a > b ? -1 : 0)).map(([id]) => id);
}

function userOf(row: UserRow): HotspotUserEntity {
  return Object.assign(new HotspotUserEntity(), {
    id: row.id,
    name: row.name,
    username: row.username,
    ...userTextOf(row),
    macAddress: row.mac_address,
    loginMethod: row.login_method,
    status: row.status,
    passwordHash: row.password_hash,
    expiresAt: row.expires_at === null ? null : readDateTime(row.expires_at),
    validFor: row.valid_for === null ? null : Number(row.valid_for),
    firstLoginAt: row.first_login_at === null ? null : readDateTime(row.first_login_at),
    metadata: JSON.parse(row.metadata) as JsonObject,
    createdAt: readDateTime(row.created_at),
    updatedAt: readDateTime(row.updated_at),
    batchId: row.batch_id,
    planId: row.plan_id,
    version: Number(row.version),
  } satisfies HotspotUserEntity);
}

function deviceOf(row: DeviceRow): DeviceEntity {
  return Object.assign(new DeviceEntity(), {
    id: row.device_id,
    userId: row.id,
    macAddress: row.device_mac,
    name: row.device_name,
    status: row.device_status,
    firstSeenAt: readDateTime(row.first_seen_at),
    lastSeenAt: readDateTime(row.last_seen_at),
  } satisfies DeviceEntity);
}
