import { pageOrder, shownRecordsOf, type PageRow, type ShownUserRow } from './user-rows.js';
import { NO_USER_TEXT, userTextOf } from './user-text-fields.js';

const NO_DEVICE = {
  device_id: null,
  device_mac: null,
  device_name: null,
  device_status: null,
  first_seen_at: null,
  last_seen_at: null,
};

/** A user row with one venue, as either driver returns it. */
const userRow = (id: string, venueId: string | null, position: number | string | null): ShownUserRow => ({
  id,
  name: `User ${id}`,
  username: id,
  ...userTextOf({ room: '101' }),
  mac_address: null,
  login_method: 'username_password',
  status: 'active',
  password_hash: '$argon2id$…',
  expires_at: null,
  valid_for: '86400',
  first_login_at: null,
  metadata: '{"room":"101"}',
  created_at: '2026-11-22 10:00:00.123',
  updated_at: new Date('2026-11-22T11:00:00.456Z'),
  version: '3',
  venue_id: venueId,
  position,
  ...NO_DEVICE,
  batch_id: null,
  plan_id: null,
});

const deviceRow = (userId: string, deviceId: string, lastSeenAt: string): ShownUserRow => ({
  id: userId,
  name: null,
  username: null,
  ...NO_USER_TEXT,
  mac_address: null,
  login_method: null,
  status: null,
  password_hash: null,
  expires_at: null,
  valid_for: null,
  first_login_at: null,
  metadata: null,
  created_at: null,
  updated_at: null,
  version: null,
  venue_id: null,
  position: null,
  device_id: deviceId,
  device_mac: 'AA:BB:CC:DD:EE:FF',
  device_name: null,
  device_status: 'active',
  first_seen_at: '2026-11-20 08:00:00.000',
  last_seen_at: lastSeenAt,
  batch_id: null,
  plan_id: null,
});

describe('shownRecordsOf', () => {
  it('maps the user columns and parses metadata, dates and version', () => {
    const [{ user, venueIds, devices }] = shownRecordsOf([userRow('u1', 'v1', 0)], ['u1']);
    expect(user).toMatchObject({ id: 'u1', loginMethod: 'username_password', metadata: { room: '101' }, version: 3 });
    expect(user.expiresAt).toBeNull();
    expect(user.validFor).toBe(86_400);
    expect(user.firstLoginAt).toBeNull();
    expect(user.createdAt.toISOString()).toBe('2026-11-22T10:00:00.123Z');
    expect(user.updatedAt.toISOString()).toBe('2026-11-22T11:00:00.456Z');
    expect(venueIds).toEqual(['v1']);
    expect(devices).toEqual([]);
  });

  it('puts the venues of a user in their stored order, whatever order the rows come in', () => {
    const rows = [userRow('u1', 'c', 2), userRow('u1', 'a', '0'), userRow('u1', 'b', 1)];
    expect(shownRecordsOf(rows, ['u1'])[0].venueIds).toEqual(['a', 'b', 'c']);
  });

  it('gives each user its own devices, with their dates', () => {
    const rows = [
      userRow('u1', 'v1', 0),
      userRow('u2', 'v1', 0),
      deviceRow('u2', 'd1', '2026-11-22 09:30:00.500'),
      deviceRow('u2', 'd2', '2026-11-22 09:40:00.000'),
    ];
    const [first, second] = shownRecordsOf(rows, ['u1', 'u2']);
    expect(first.devices).toEqual([]);
    expect(second.devices.map((device) => device.id)).toEqual(['d1', 'd2']);
    expect(second.devices[0]).toMatchObject({ userId: 'u2', macAddress: 'AA:BB:CC:DD:EE:FF', status: 'active' });
    expect(second.devices[0].lastSeenAt.toISOString()).toBe('2026-11-22T09:30:00.500Z');
  });

  it('answers in the order of the ids asked for and leaves out ids without a user', () => {
    const rows = [userRow('u1', 'v1', 0), userRow('u2', 'v1', 0), deviceRow('gone', 'd9', '2026-11-22 09:00:00')];
    expect(shownRecordsOf(rows, ['u2', 'gone', 'u1']).map((record) => record.user.id)).toEqual(['u2', 'u1']);
  });

  it('keeps a user without venue rows', () => {
    expect(shownRecordsOf([userRow('u1', null, null)], ['u1'])[0].venueIds).toEqual([]);
  });
});

describe('pageOrder', () => {
  /** A page row: a user row with its page key, or a device row without one. */
  const pageRow = (row: ShownUserRow, pageKey: Date | string | null): PageRow => ({
    ...row,
    page_key: pageKey,
    total: pageKey === null ? null : '7',
  });

  it('orders the users newest first, then by id descending, as the list index does', () => {
    const rows = [
      pageRow(userRow('b', 'v1', 0), '2026-11-22 10:00:00.000'),
      pageRow(deviceRow('z', 'd1', '2026-11-22 09:00:00.000'), null),
      pageRow(userRow('a', 'v1', 0), new Date('2026-11-22T10:00:00.001Z')),
      pageRow(userRow('c', 'v1', 0), '2026-11-22 10:00:00.000'),
      pageRow(userRow('d', 'v1', 0), '2026-11-21 23:59:59.999'),
    ];
    expect(pageOrder(rows)).toEqual(['a', 'c', 'b', 'd']);
  });

  it('names a user with several venue rows once', () => {
    const rows = [
      pageRow(userRow('u1', 'v1', 0), '2026-11-22 10:00:00.000'),
      pageRow(userRow('u1', 'v2', 1), '2026-11-22 10:00:00.000'),
    ];
    expect(pageOrder(rows)).toEqual(['u1']);
  });
});
