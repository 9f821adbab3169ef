import type { HotspotUserDto } from '../src/hotspot-users/dto/hotspot-user.response.js';
import { api } from './support/api-client.js';
import { sleep, validationError } from './support/expected.js';
import { givenGuest, givenUser, startSession } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The list order: createdAt descending, then _id descending. */
function newestFirst(a: HotspotUserDto, b: HotspotUserDto): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a._id < b._id ? 1 : a._id > b._id ? -1 : 0;
}

const ids = (records: Array<{ _id: string }>) => records.map((record) => record._id);

const guest = (testApp: TestApp, venueIds: string[], overrides: Record<string, unknown> = {}) =>
  givenGuest(testApp, { venueIds, ...overrides });

describeEachDatabase('GET /api/v1/hotspot-users (list)', (current) => {
  const users = () => api(current()).users;
  /** The query as written, so the filters reach the API exactly as a caller would type them. */
  const list = (query: string, token?: string) => users().list(query, { token });

  describe('venueId', () => {
    it('is required for an unrestricted token: 400 naming venueId', async () => {
      const response = await list('').expect(400);
      expect(response.body).toEqual(validationError('venueId'));
      const filtered = await list('status=active').expect(400);
      expect(filtered.body.errors).toEqual([{ field: 'venueId', message: expect.any(String) }]);
    });

    it('is required for a token restricted to several venues', async () => {
      const token = await current().createToken({ permissions: ['read'], venueIds: ['scope-1', 'scope-2'] });
      const response = await list('', token).expect(400);
      expect(response.body.errors).toEqual([{ field: 'venueId', message: expect.any(String) }]);
    });

    it('defaults to the venue of a token restricted to exactly one venue', async () => {
      const user = await guest(current(), ['solo-venue']);
      await guest(current(), ['not-solo-venue']);
      const token = await current().createToken({ permissions: ['read'], venueIds: ['solo-venue'] });
      const response = await list('', token).expect(200);
      expect(ids(response.body.data)).toEqual([user._id]);
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    });

    it('an unknown venue is an empty page, not an error', async () => {
      const response = await list('venueId=nobody-here').expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [],
        pagination: { page: 1, limit: 20, total: 0, pages: 0 },
      });
    });
  });

  describe('pagination and order', () => {
    const VENUE = 'page-venue';
    const OTHER = 'page-other';
    let created: HotspotUserDto[];
    let othersOnly: HotspotUserDto[];
    let expectedOrder: string[];

    beforeAll(async () => {
      created = [];
      othersOnly = [];
      for (let i = 0; i < 45; i += 1) {
        // Three of them (3, 23, 43) are also in the other venue, so they must be counted in both.
        created.push(await guest(current(), i % 20 === 3 ? [OTHER, VENUE] : [VENUE], { name: `Page ${i}` }));
      }
      for (let i = 0; i < 3; i += 1) othersOnly.push(await guest(current(), [OTHER], { name: `Other ${i}` }));
      expectedOrder = ids([...created].sort(newestFirst));
    });

    it('45 users with limit=20: pages 3, total 45, pages of 20, 20 and 5 in createdAt desc, _id desc order', async () => {
      const seen: string[] = [];
      for (const [page, size] of [
        [1, 20],
        [2, 20],
        [3, 5],
      ]) {
        const response = await list(`venueId=${VENUE}&limit=20&page=${page}`).expect(200);
        expect(response.body).toEqual({
          success: true,
          data: expect.any(Array),
          pagination: { page, limit: 20, total: 45, pages: 3 },
        });
        expect(response.body.data).toHaveLength(size);
        seen.push(...ids(response.body.data));
      }
      expect(seen).toEqual(expectedOrder);
      expect(new Set(seen).size).toBe(45);
    });

    it('a page past the end is 200 with an empty data', async () => {
      const response = await list(`venueId=${VENUE}&limit=20&page=4`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [],
        pagination: { page: 4, limit: 20, total: 45, pages: 3 },
      });
      const far = await list(`venueId=${VENUE}&page=1000`).expect(200);
      expect(far.body).toEqual({ success: true, data: [], pagination: { page: 1000, limit: 20, total: 45, pages: 3 } });
    });

    it('defaults to page 1 and limit 20', async () => {
      const response = await list(`venueId=${VENUE}`).expect(200);
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 45, pages: 3 });
      expect(ids(response.body.data)).toEqual(expectedOrder.slice(0, 20));
    });

    it('pages = ceil(total / limit) for other limits', async () => {
      for (const [limit, pages] of [
        [1, 45],
        [7, 7],
        [15, 3],
        [44, 2],
        [45, 1],
        [100, 1],
      ]) {
        const response = await list(`venueId=${VENUE}&limit=${limit}&page=${pages}`).expect(200);
        expect(response.body.pagination).toEqual({ page: pages, limit, total: 45, pages });
        expect(ids(response.body.data)).toEqual(expectedOrder.slice((pages - 1) * limit, pages * limit));
      }
    });

    it('only users of the given venue appear, with their full record', async () => {
      const other = await list(`venueId=${OTHER}`).expect(200);
      expect(other.body.pagination).toEqual({ page: 1, limit: 20, total: 6, pages: 1 });
      for (const user of other.body.data) expect(user.venueIds).toContain(OTHER);
      const shared = created.filter((user) => user.venueIds.includes(OTHER));
      expect(shared).toHaveLength(3);
      expect(ids(other.body.data)).toEqual(ids([...shared, ...othersOnly].sort(newestFirst)));

      const all = await list(`venueId=${VENUE}&limit=100`).expect(200);
      for (const user of all.body.data) expect(user.venueIds).toContain(VENUE);
      expect(all.body.data.map((user: HotspotUserDto) => user.name)).not.toContain('Other 0');

      // A listed record is the same record GET answers (devices filled, nothing extra), on page 1 and on
      // a deeper page alike (they are read differently), users in two venues included.
      const deeper = await list(`venueId=${VENUE}&limit=20&page=2`).expect(200);
      for (const listed of [...other.body.data, ...deeper.body.data] as HotspotUserDto[]) {
        const fetched = await users().get(listed._id).expect(200);
        expect(listed).toEqual(fetched.body.data);
      }
      const first = all.body.data[0];
      expect(first.createdAt).toMatch(ISO_UTC_MS);
      expect(first).not.toHaveProperty('password');
    });

    it('breaks createdAt ties by _id descending', async () => {
      const testApp = current();
      const tied: HotspotUserDto[] = [];
      for (let i = 0; i < 4; i += 1) tied.push(await guest(testApp, ['tie-venue'], { name: `Tie ${i}` }));
      await sleep(5);
      const newest = await guest(testApp, ['tie-venue'], { name: 'Tie newest' });
      // Give the first four one creation time (what two creates in the same millisecond would get).
      const [{ created_at: sameTime }] = await testApp.dataSource.query(
        'SELECT created_at FROM hotspot_users WHERE id = ?',
        [tied[0]._id],
      );
      const tiedIds = ids(tied);
      const marks = tiedIds.map(() => '?').join(', ');
      await testApp.dataSource.query(`UPDATE hotspot_users SET created_at = ? WHERE id IN (${marks})`, [
        sameTime,
        ...tiedIds,
      ]);
      await testApp.dataSource.query(`UPDATE hotspot_user_venues SET user_created_at = ? WHERE user_id IN (${marks})`, [
        sameTime,
        ...tiedIds,
      ]);

      const response = await list('venueId=tie-venue').expect(200);
      const byDescendingId = [...tiedIds].sort().reverse();
      expect(ids(response.body.data)).toEqual([newest._id, ...byDescendingId]);
      const createdAts = new Set(response.body.data.slice(1).map((user: HotspotUserDto) => user.createdAt));
      expect(createdAts.size).toBe(1);

      // The tie-break holds across page boundaries too.
      const pages: string[] = [];
      for (let page = 1; page <= 3; page += 1) {
        pages.push(...ids((await list(`venueId=tie-venue&limit=2&page=${page}`).expect(200)).body.data));
      }
      expect(pages).toEqual([newest._id, ...byDescendingId]);
    });
  });

  describe('status filter', () => {
    const VENUE = 'status-venue';
    let active1: HotspotUserDto;
    let blocked: HotspotUserDto;
    let expired: HotspotUserDto;
    let active2: HotspotUserDto;

    beforeAll(async () => {
      const testApp = current();
      active1 = await givenUser(testApp, { venueIds: [VENUE] });
      blocked = await givenUser(testApp, { venueIds: [VENUE] });
      expired = await givenUser(testApp, { venueIds: [VENUE] });
      active2 = await givenUser(testApp, { venueIds: [VENUE] });
      await users().update(blocked._id, { status: 'blocked' }).expect(200);
      await users().expire(expired._id).expect(200);
    });

    it.each([
      ['active', () => [active2, active1]],
      ['blocked', () => [blocked]],
      ['expired', () => [expired]],
    ])('status=%s lists only those users', async (status, expected) => {
      const response = await list(`venueId=${VENUE}&status=${status}`).expect(200);
      const wanted = expected();
      expect(ids(response.body.data)).toEqual(ids(wanted));
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: wanted.length, pages: 1 });
      for (const user of response.body.data) expect(user.status).toBe(status);
    });

    it('without a status every user is listed, expired ones included', async () => {
      const response = await list(`venueId=${VENUE}`).expect(200);
      expect(ids(response.body.data)).toEqual(ids([active2, expired, blocked, active1]));
      expect(response.body.pagination.total).toBe(4);
    });

    it('status and pagination combine', async () => {
      const response = await list(`venueId=${VENUE}&status=active&limit=1&page=2`).expect(200);
      expect(ids(response.body.data)).toEqual([active1._id]);
      expect(response.body.pagination).toEqual({ page: 2, limit: 1, total: 2, pages: 2 });
    });
  });

  describe('macAddress filter', () => {
    const VENUE = 'mac-venue';
    let ownMac: HotspotUserDto;
    let deviceMac: HotspotUserDto;
    let both: HotspotUserDto;

    beforeAll(async () => {
      const testApp = current();
      ownMac = await guest(testApp, [VENUE], { macAddress: 'aa-bb-cc-00-00-0a' });
      deviceMac = await guest(testApp, [VENUE]);
      await startSession(testApp, { userId: deviceMac._id, venueId: VENUE, macAddress: 'aabb.cc00.000b' });
      const unrelated = await guest(testApp, [VENUE], { macAddress: 'AA:BB:CC:00:00:99' });
      await startSession(testApp, { userId: unrelated._id, venueId: VENUE, macAddress: 'AA:BB:CC:00:00:98' });
      both = await guest(testApp, [VENUE], { macAddress: 'AA:BB:CC:00:00:0E' });
      await startSession(testApp, { userId: both._id, venueId: VENUE, macAddress: 'AA:BB:CC:00:00:0E' });
      // Same MACs in another venue must not leak into this venue's list.
      const elsewhere = await guest(testApp, ['mac-other'], { macAddress: 'AA:BB:CC:00:00:0A' });
      await startSession(testApp, { userId: elsewhere._id, venueId: 'mac-other', macAddress: 'AA:BB:CC:00:00:0B' });
    });

    it.each([
      ['AA:BB:CC:00:00:0A'],
      ['aa:bb:cc:00:00:0a'],
      ['aa-bb-cc-00-00-0a'],
      ['AA-BB-CC-00-00-0A'],
      ['aabb.cc00.000a'],
      ['aabbcc00000a'],
      ['AABBCC00000A'],
    ])("%s matches the user's own macAddress", async (mac) => {
      const response = await list(`venueId=${VENUE}&macAddress=${encodeURIComponent(mac)}`).expect(200);
      expect(ids(response.body.data)).toEqual([ownMac._id]);
      expect(response.body.data[0].macAddress).toBe('AA:BB:CC:00:00:0A');
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    });

    it.each([['AA:BB:CC:00:00:0B'], ['aa-bb-cc-00-00-0b'], ['aabb.cc00.000b'], ['aabbcc00000b']])(
      "%s matches a device's macAddress",
      async (mac) => {
        const response = await list(`venueId=${VENUE}&macAddress=${encodeURIComponent(mac)}`).expect(200);
        expect(ids(response.body.data)).toEqual([deviceMac._id]);
        expect(response.body.data[0].macAddress).toBeNull();
        expect(response.body.data[0].devices).toEqual([
          {
            macAddress: 'AA:BB:CC:00:00:0B',
            name: null,
            status: 'active',
            firstSeenAt: expect.stringMatching(ISO_UTC_MS),
            lastSeenAt: expect.stringMatching(ISO_UTC_MS),
          },
        ]);
        expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
      },
    );

    it('a user matching by its own macAddress and a device is listed once', async () => {
      const response = await list(`venueId=${VENUE}&macAddress=aabbcc00000e`).expect(200);
      expect(ids(response.body.data)).toEqual([both._id]);
      expect(response.body.pagination.total).toBe(1);
    });

    it('a MAC nobody has gives an empty page', async () => {
      const response = await list(`venueId=${VENUE}&macAddress=00:00:00:00:00:00`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [],
        pagination: { page: 1, limit: 20, total: 0, pages: 0 },
      });
    });

    it('combines with the status filter', async () => {
      const active = await list(`venueId=${VENUE}&macAddress=AA:BB:CC:00:00:0A&status=active`).expect(200);
      expect(ids(active.body.data)).toEqual([ownMac._id]);
      const blocked = await list(`venueId=${VENUE}&macAddress=AA:BB:CC:00:00:0A&status=blocked`).expect(200);
      expect(blocked.body.pagination.total).toBe(0);
    });
  });

  describe('devices in list results', () => {
    it('are filled for each user, newest lastSeenAt first', async () => {
      const testApp = current();
      const VENUE = 'devices-venue';
      const noDevices = await guest(testApp, [VENUE]);
      const oneDevice = await guest(testApp, [VENUE]);
      const threeDevices = await guest(testApp, [VENUE]);
      await startSession(testApp, { userId: oneDevice._id, venueId: VENUE, macAddress: '02:00:00:00:00:01' });
      for (const mac of ['02:00:00:00:00:0A', '02:00:00:00:00:0B', '02:00:00:00:00:0C']) {
        await sleep(5);
        await startSession(testApp, { userId: threeDevices._id, venueId: VENUE, macAddress: mac });
      }
      await sleep(5);
      // Seen again: it becomes the newest though it was first seen first.
      await startSession(testApp, { userId: threeDevices._id, venueId: VENUE, macAddress: '02:00:00:00:00:0A' });

      const response = await list(`venueId=${VENUE}`).expect(200);
      expect(ids(response.body.data)).toEqual([threeDevices._id, oneDevice._id, noDevices._id]);
      const [three, one, none] = response.body.data;
      expect(none.devices).toEqual([]);
      expect(one.devices.map((device: { macAddress: string }) => device.macAddress)).toEqual(['02:00:00:00:00:01']);
      expect(three.devices.map((device: { macAddress: string }) => device.macAddress)).toEqual([
        '02:00:00:00:00:0A',
        '02:00:00:00:00:0C',
        '02:00:00:00:00:0B',
      ]);
      for (const device of three.devices) {
        expect(device).toEqual({
          macAddress: expect.any(String),
          name: null,
          status: 'active',
          firstSeenAt: expect.stringMatching(ISO_UTC_MS),
          lastSeenAt: expect.stringMatching(ISO_UTC_MS),
        });
      }
      const lastSeen = three.devices.map((device: { lastSeenAt: string }) => device.lastSeenAt);
      expect([...lastSeen].sort().reverse()).toEqual(lastSeen);
      expect(three.devices[0].firstSeenAt < three.devices[0].lastSeenAt).toBe(true);

      const fetched = await users().get(threeDevices._id).expect(200);
      expect(fetched.body.data.devices).toEqual(three.devices);
    });
  });
});
