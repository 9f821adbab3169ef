import { api } from './support/api-client.js';
import { NOT_FOUND, sleep, validationError } from './support/expected.js';
import { givenGuest, givenUser, startSession } from './support/factories.js';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDatabase('GET /api/v1/hotspot-users/:id', (current) => {
  /** `path` is the id, and the query when a test writes it out (a repeated or malformed parameter). */
  const get = (path: string, token?: string) => api(current()).users.get(path, { token });

  it('returns the record as created, with an empty devices array, under {success, data}', async () => {
    const testApp = current();
    const created = await givenUser(testApp, {
      email: 'get-me@example.com',
      phone: '+90 532 000 00 01',
      macAddress: 'aa-bb-cc-00-00-01',
      metadata: { roomNumber: '1204', nested: { floor: 12 } },
      venueIds: ['venue-a', 'venue-b'],
    });
    const response = await get(created._id).expect(200);
    expect(response.body).toEqual({ success: true, data: created });
    expect(response.body.data).toEqual(
      expect.objectContaining({
        _id: created._id,
        status: 'active',
        macAddress: 'AA:BB:CC:00:00:01',
        venueIds: ['venue-a', 'venue-b'],
        devices: [],
        metadata: { roomNumber: '1204', nested: { floor: 12 } },
        expiresAt: null,
      }),
    );
    expect(response.body.data).not.toHaveProperty('password');
    expect(response.body.data).not.toHaveProperty('passwordHash');
    expect(response.body.data.createdAt).toMatch(ISO_MS);
    expect(response.body.data.updatedAt).toMatch(ISO_MS);
  });

  it('fills devices from the sessions seen, newest lastSeenAt first', async () => {
    const testApp = current();
    const created = await givenGuest(testApp, { venueIds: ['venue-a', 'venue-b'] });
    const first = await startSession(testApp, { userId: created._id, macAddress: 'aa:bb:cc:dd:ee:01' });
    await sleep(5);
    const second = await startSession(testApp, {
      userId: created._id,
      venueId: 'venue-b',
      macAddress: 'AABB.CCDD.EE02',
    });
    await sleep(5);
    const third = await startSession(testApp, { userId: created._id, macAddress: 'AA-BB-CC-DD-EE-03' });
    await sleep(5);
    // Seen again: the first device becomes the most recently seen one; its firstSeenAt stays.
    const again = await startSession(testApp, { userId: created._id, macAddress: 'AA:BB:CC:DD:EE:01' });

    const response = await get(created._id).expect(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        ...created,
        devices: [
          {
            macAddress: 'AA:BB:CC:DD:EE:01',
            name: null,
            status: 'active',
            firstSeenAt: first.startedAt.toISOString(),
            lastSeenAt: again.startedAt.toISOString(),
          },
          {
            macAddress: 'AA:BB:CC:DD:EE:03',
            name: null,
            status: 'active',
            firstSeenAt: third.startedAt.toISOString(),
            lastSeenAt: third.startedAt.toISOString(),
          },
          {
            macAddress: 'AA:BB:CC:DD:EE:02',
            name: null,
            status: 'active',
            firstSeenAt: second.startedAt.toISOString(),
            lastSeenAt: second.startedAt.toISOString(),
          },
        ],
      },
    });
    const devices: Array<{ lastSeenAt: string }> = response.body.data.devices;
    const seen = devices.map((device) => Date.parse(device.lastSeenAt));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));

    const rows: Array<{ mac_address: string; status: string }> = await testApp.dataSource.query(
      'SELECT mac_address, status FROM devices WHERE user_id = ? ORDER BY mac_address',
      [created._id],
    );
    expect(rows).toEqual([
      { mac_address: 'AA:BB:CC:DD:EE:01', status: 'active' },
      { mac_address: 'AA:BB:CC:DD:EE:02', status: 'active' },
      { mac_address: 'AA:BB:CC:DD:EE:03', status: 'active' },
    ]);
  });

  it("answers ?venueId= of one of the user's venues with the user", async () => {
    const testApp = current();
    const created = await givenGuest(testApp, { venueIds: ['venue-a', 'venue-b'] });
    for (const venueId of ['venue-a', 'venue-b']) {
      const response = await get(`${created._id}?venueId=${venueId}`).expect(200);
      expect(response.body).toEqual({ success: true, data: created });
    }
  });

  it('answers ?venueId= of a venue the user is not in with 404', async () => {
    const testApp = current();
    const created = await givenGuest(testApp, { venueIds: ['venue-a'] });
    const response = await get(`${created._id}?venueId=venue-b`).expect(404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  describe('query parameters are validated before the user is looked up', () => {
    it.each([
      ['an unknown parameter', '?stauts=active', 'stauts'],
      ['a malformed venueId', '?venueId=venue%20a', 'venueId'],
      ['an empty venueId', '?venueId=', 'venueId'],
      ['a repeated venueId', '?venueId=venue-a&venueId=venue-a', 'venueId'],
    ])('%s is 400 naming it, for a real and for an unknown id', async (_case, query, field) => {
      const created = await givenGuest(current());
      for (const id of [created._id, 'no-such-user']) {
        const response = await get(`${id}${query}`).expect(400);
        expect(response.body).toEqual(validationError(field));
      }
    });
  });

  describe('unknown or malformed ids are 404 Kullanıcı bulunamadı', () => {
    it.each([
      ['an unknown UUIDv7', '01900000-0000-7000-8000-000000000000'],
      ['an unknown plain word', 'does-not-exist'],
      ['a 500-character id', 'a'.repeat(500)],
      ['a 37-character id', 'b'.repeat(37)],
      ['an undecodable %ZZ', '%ZZ'],
      ['an undecodable id with %ZZ inside', 'abc%ZZdef'],
      ['an encoded ../', '..%2F'],
      ['an encoded path traversal', '..%2F..%2Fetc%2Fpasswd'],
      ['an encoded ..\\', '..%5C..%5Cwindows'],
      ['a double-encoded traversal', '%252E%252E%252F'],
      ['SQL text', encodeURIComponent("' OR '1'='1")],
      ['a LIKE wildcard', '%25'],
      ['non-ASCII text', encodeURIComponent('kullanıcı-ğüşöç')],
      ['a NUL byte', '%00'],
    ])('%s', async (_case, path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    });

    it('the id of a user that existed before it was deleted', async () => {
      const testApp = current();
      const created = await givenGuest(testApp);
      await api(testApp).users.remove(created._id).expect(200);
      const response = await get(created._id).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
    });
  });

  it('a prefix or a differently cased id of a real user is not that user', async () => {
    const testApp: TestApp = current();
    const created = await givenGuest(testApp);
    for (const id of [created._id.slice(0, 20), created._id.toUpperCase(), `${created._id}%20`, `${created._id}x`]) {
      const response = await get(id).expect(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
  });
});
