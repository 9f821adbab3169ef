import type { HotspotUserDto } from '../src/hotspot-users/dto/hotspot-user.response.js';
import { searchMatches } from '../src/hotspot-users/hotspot-users.repository.js';
import { searchPrefixes } from '../src/hotspot-users/user-search.rules.js';
import { api } from './support/api-client.js';
import { validationError } from './support/expected.js';
import { givenGuest, givenUser, startSession, uniqueDevice } from './support/factories.js';
import { describeEachDatabase } from './support/test-app.js';

const ids = (records: Array<{ _id: string }>) => records.map((record) => record._id).sort();

describeEachDatabase('GET /api/v1/hotspot-users?q= (search)', (current) => {
  const VENUE = 'search-venue';
  const OTHER = 'search-other';
  const list = (query: string, token?: string) => api(current()).users.list(query, { token });
  const found = async (q: string, extra = '') => {
    const response = await list(`venueId=${VENUE}&q=${encodeURIComponent(q)}${extra}`).expect(200);
    return response.body as { data: HotspotUserDto[]; pagination: { total: number } };
  };
  let ayse: HotspotUserDto;
  let mehmet: HotspotUserDto;
  let percent: HotspotUserDto;
  let otherVenue: HotspotUserDto;
  let deviceMac: string;

  beforeAll(async () => {
    ayse = await givenUser(current(), {
      name: 'Ayşe Yılmaz',
      username: 'AyseY.Room1204',
      email: 'Ayse.Yilmaz@Example.com',
      phone: '+90 532 111-22-33',
      macAddress: '0a:1b:2c:3d:4e:5f',
      venueIds: [VENUE],
    });
    mehmet = await givenGuest(current(), { name: 'Mehmet Öztürk', phone: '0212 444 55 66', venueIds: [VENUE] });
    percent = await givenGuest(current(), { name: '100% Guest_x', venueIds: [VENUE] });
    // The same name, phone and email in another venue: never found from VENUE.
    otherVenue = await givenGuest(current(), {
      name: 'Ayşe Yılmaz',
      email: 'ayse.yilmaz@example.com',
      phone: '+90 532 111-22-33',
      venueIds: [OTHER],
    });
    deviceMac = uniqueDevice().macAddress;
    await startSession(current(), { userId: mehmet._id, venueId: VENUE, macAddress: deviceMac });
  });

  it.each([
    ['name, case and accents ignored', 'ayse yil'],
    ['name, Turkish capitals', 'AYŞE'],
    ['username', 'aysey.ROOM'],
    ['email', 'AYSE.yilmaz@ex'],
    ['phone with +, spaces and dashes', '+90 532-111'],
    ['phone digits alone', '90532111'],
    ['own MAC in another form', '0A1B-2C'],
  ])('finds by a prefix of the %s', async (_what, q) => {
    const { data, pagination } = await found(q);
    expect(ids(data)).toEqual([ayse._id]);
    expect(pagination.total).toBe(1);
  });

  it("finds by a prefix of a device's MAC", async () => {
    const { data } = await found(deviceMac.slice(0, 11).toLowerCase());
    expect(ids(data)).toEqual([mehmet._id]);
  });

  it('matches only prefixes, and never a user of another venue', async () => {
    expect((await found('yilmaz')).data).toEqual([]);
    const other = await list(`venueId=${OTHER}&q=ayse`).expect(200);
    expect(ids(other.body.data)).toEqual([otherVenue._id]);
    expect(ids((await found('+90 532')).data)).toEqual([ayse._id]);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(ids((await found('100%')).data)).toEqual([percent._id]);
    expect((await found('1%')).data).toEqual([]);
    expect(ids((await found('100% guest_')).data)).toEqual([percent._id]);
    expect((await found('100% guest%')).data).toEqual([]);
    expect((await found('_')).data).toEqual([]);
    expect((await found('%')).data).toEqual([]);
    expect((await found('\\')).data).toEqual([]);
  });

  it('combines with status and pages', async () => {
    await api(current()).users.update(mehmet._id, { status: 'blocked' }).expect(200);
    expect(ids((await found('m', '&status=blocked')).data)).toEqual([mehmet._id]);
    expect((await found('m', '&status=active')).data).toEqual([]);
    const page = await found('a', '&limit=1&page=2');
    expect(page.data).toEqual([]);
    expect(page.pagination.total).toBe(1);
  });

  it('finds an expired user too', async () => {
    const expired = await givenGuest(current(), { name: 'Zeynep Expired', venueIds: [VENUE] });
    await api(current()).users.expire(expired._id).expect(200);
    expect(ids((await found('zeynep', '&status=expired')).data)).toEqual([expired._id]);
  });

  it('keeps venue scope: a token of another venue is refused', async () => {
    const token = await current().createToken({ permissions: ['read'], venueIds: [OTHER] });
    await list(`venueId=${VENUE}&q=ayse`, token).expect(403);
    const own = await list(`q=ayse`, token).expect(200);
    expect(ids(own.body.data)).toEqual([otherVenue._id]);
  });

  it.each([
    ['empty', 'q='],
    ['too long', `q=${'a'.repeat(65)}`],
    ['repeated', 'q=a&q=b'],
    ['a control character', 'q=a%01'],
  ])('refuses q %s: 400 naming q', async (_what, query) => {
    const response = await list(`venueId=${VENUE}&${query}`).expect(400);
    expect(response.body).toEqual(validationError('q'));
  });

  it('reads each key through its index', async () => {
    const testApp = current();
    // Enough rows in the venue that a scan would cost more than the ranges.
    for (let i = 0; i < 60; i += 1) {
      const filler = await givenGuest(testApp, { name: `Filler ${i}`, venueIds: [VENUE] });
      await startSession(testApp, { userId: filler._id, venueId: VENUE, macAddress: uniqueDevice().macAddress });
    }
    const { sql, params } = searchMatches({ venueId: VENUE, macAddress: null, search: searchPrefixes('90532') });
    if (testApp.kind === 'sqlite') {
      await testApp.dataSource.query('ANALYZE');
      const plan: Array<{ detail: string }> = await testApp.dataSource.query(`EXPLAIN QUERY PLAN ${sql!}`, params);
      const details = plan.map((row) => row.detail).join('\n');
      for (const index of ['name', 'username', 'email', 'phone']) {
        expect(details).toMatch(
          new RegExp(`USING COVERING INDEX idx_user_venues_search_${index} \\(venue_id=\\? AND search_${index}>`),
        );
      }
      expect(details).toMatch(/USING (COVERING )?INDEX idx_hotspot_users_mac_address \(mac_address>/);
      expect(details).toMatch(/USING (COVERING )?INDEX idx_devices_mac_address \(mac_address>/);
      expect(details).not.toMatch(/SCAN (uv|hotspot_user_venues)\b(?! USING)/);
    } else {
      await testApp.dataSource.query('ANALYZE TABLE hotspot_user_venues, hotspot_users, devices');
      const plan: Array<{ table: string; key: string | null; type: string }> = await testApp.dataSource.query(
        `EXPLAIN ${sql!}`,
        params,
      );
      const keys = plan.map((row) => row.key);
      for (const index of ['name', 'username', 'email', 'phone'])
        expect(keys).toContain(`idx_user_venues_search_${index}`);
      expect(plan.filter((row) => row.type === 'ALL' && row.table !== null && !row.table.startsWith('<'))).toEqual([]);
    }
  });
});
