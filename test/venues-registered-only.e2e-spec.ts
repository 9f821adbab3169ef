import { api } from './support/api-client.js';
import { userBody } from './support/factories.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { VenuesService } from '../src/venues/venues.service.js';

async function usersNamed(testApp: TestApp, name: string): Promise<number> {
  const rows: Array<{ n: number | string }> = await testApp.dataSource.query(
    'SELECT COUNT(*) AS n FROM hotspot_users WHERE name = ?',
    [name],
  );
  return Number(rows[0].n);
}

async function storedVenueIds(testApp: TestApp, userId: string): Promise<string[]> {
  const rows: Array<{ venue_id: string }> = await testApp.dataSource.query(
    'SELECT venue_id FROM hotspot_user_venues WHERE user_id = ? ORDER BY position',
    [userId],
  );
  return rows.map((row) => row.venue_id);
}

/** VENUES_REGISTERED_ONLY: true refuses a write naming an unregistered venue; false (the default) changes nothing. */
for (const kind of databaseKinds()) {
  describe(`VENUES_REGISTERED_ONLY=true [${kind}]`, () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp(kind, { VENUES_REGISTERED_ONLY: 'true' });
      const venues = testApp.app.get(VenuesService);
      await venues.set('registered-a', { displayName: 'A' });
      await venues.set('registered-b', {});
    }, 180_000);
    afterAll(async () => {
      await testApp?.close();
    });

    it('answers a create naming an unregistered venue with 400 naming venueIds, and stores no user', async () => {
      const body = userBody({ name: 'Refused Create', venueIds: ['registered-a', 'typo-venue', 'other-typo'] });
      const response = await api(testApp).users.create(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [
          { field: 'venueIds', message: 'venueIds holds venue ids that are not registered: typo-venue, other-typo' },
        ],
      });
      expect(await usersNamed(testApp, 'Refused Create')).toBe(0);
    });

    it('creates a user whose venues are all registered', async () => {
      const response = await api(testApp).users.create(userBody({ venueIds: ['registered-b', 'registered-a'] }));
      expect(response.status).toBe(201);
      expect(response.body.data.venueIds).toEqual(['registered-b', 'registered-a']);
    });

    it('answers a PUT moving a user to an unregistered venue with 400 and keeps its venues', async () => {
      const created = await api(testApp).users.create(userBody({ venueIds: ['registered-a'] }));
      expect(created.status).toBe(201);
      const id = created.body.data._id;
      const refused = await api(testApp).users.update(id, { venueIds: ['registered-a', 'typo-venue'] });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        message: 'Validation error',
        errors: [{ field: 'venueIds', message: 'venueIds holds venue ids that are not registered: typo-venue' }],
      });
      expect(await storedVenueIds(testApp, id)).toEqual(['registered-a']);

      const moved = await api(testApp).users.update(id, { venueIds: ['registered-b'] });
      expect(moved.status).toBe(200);
      expect(await storedVenueIds(testApp, id)).toEqual(['registered-b']);
      const renamed = await api(testApp).users.update(id, { name: 'Renamed' }, { venueId: 'registered-b' });
      expect(renamed.status).toBe(200);
    });

    it('accepts a venue registered after start-up at once', async () => {
      await testApp.app.get(VenuesService).set('registered-late', {});
      const response = await api(testApp).users.create(userBody({ venueIds: ['registered-late'] }));
      expect(response.status).toBe(201);
    });
  });

  describe(`VENUES_REGISTERED_ONLY unset [${kind}]`, () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp(kind);
    }, 180_000);
    afterAll(async () => {
      await testApp?.close();
    });

    it('creates and moves users to venues nobody registered, as v1 always did', async () => {
      const created = await api(testApp).users.create(userBody({ venueIds: ['never-registered'] }));
      expect(created.status).toBe(201);
      const id = created.body.data._id;
      const moved = await api(testApp).users.update(id, { venueIds: ['never-registered', 'nor-this'] });
      expect(moved.status).toBe(200);
      expect(await storedVenueIds(testApp, id)).toEqual(['never-registered', 'nor-this']);
    });
  });
}
