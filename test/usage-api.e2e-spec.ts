import { encodeClass } from '../src/radius/radius.rules.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UsageService } from '../src/usage/usage.service.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { USERS_PATH } from './support/api-client.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { givenPlanRow, putOnPlan } from './support/plans.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** GET /api/v1/hotspot-users/:id/usage: what the plan allows, what was used, what is left, per limit. */
describe.each(databaseKinds())('GET a user’s usage [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let clock: ManualClock;
  let radiusToken: string;
  let nas: TestNas;

  beforeAll(async () => {
    // 21:30 UTC: already the next day in Istanbul (UTC+3).
    clock = new ManualClock(new Date('2026-11-28T21:30:00.000Z'));
    testApp = await startTestApp(kind, {}, { clock });
    radiusToken = await testApp.createToken({ permissions: ['radius'] });
    await testApp.app.get(VenuesService).set('venue-ist', { timeZone: 'Europe/Istanbul' });
    nas = await givenNas(testApp, 'venue-ist');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const usageOf = (id: string, token = testApp.adminToken, query = '') =>
    testApp.http.get(`${USERS_PATH}/${id}/usage${query}`).set('Authorization', `Bearer ${token}`);

  it("shows today's and the total usage against each limit of the plan, with the periods' bounds", async () => {
    const plan = await givenPlanRow(testApp, { quotaBytes: 10_000, quotaPeriod: 'day', totalTimeSeconds: 7200 });
    const user = await givenUser(testApp, { venueIds: ['venue-ist', 'venue-a'] });
    await putOnPlan(testApp, user._id, plan);
    const base = { Class: encodeClass(user._id), 'Acct-Unique-Session-Id': `api-${kind}-1` };
    const account = (attributes: Record<string, string | number>) =>
      radiusCall(testApp, radiusToken, 'accounting', nas, rlmBody({ ...base, ...attributes })).expect(204);
    await account({ 'Acct-Status-Type': 'Start' });
    await account({
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Input-Octets': 1000,
      'Acct-Output-Octets': 3000,
      'Acct-Session-Time': 600,
    });
    await testApp.app.get(UsageService).sweep();

    const response = await usageOf(user._id).expect(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        userId: user._id,
        venueId: 'venue-ist',
        timeZone: 'Europe/Istanbul',
        plan: { _id: plan, name: expect.any(String) },
        day: {
          start: '2026-11-28T21:00:00.000Z',
          end: '2026-11-29T21:00:00.000Z',
          inputOctets: 1000,
          outputOctets: 3000,
          sessionSeconds: 600,
        },
        total: { inputOctets: 1000, outputOctets: 3000, sessionSeconds: 600 },
        limits: {
          data: {
            period: 'day',
            periodStart: '2026-11-28T21:00:00.000Z',
            periodEnd: '2026-11-29T21:00:00.000Z',
            allowed: 10_000,
            used: 4000,
            left: 6000,
          },
          dailyTime: {
            period: 'day',
            periodStart: '2026-11-28T21:00:00.000Z',
            periodEnd: '2026-11-29T21:00:00.000Z',
            allowed: null,
            used: 600,
            left: null,
          },
          totalTime: { period: 'total', periodStart: null, periodEnd: null, allowed: 7200, used: 600, left: 6600 },
        },
      },
    });

    // A token of the user's other venue sees that venue's by default.
    const venueAToken = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-a'] });
    expect((await usageOf(user._id, venueAToken).expect(200)).body.data.venueId).toBe('venue-a');
    // In another venue of the user (no time zone: UTC), its day is another.
    const elsewhere = await usageOf(user._id, testApp.adminToken, '?venueId=venue-a').expect(200);
    expect(elsewhere.body.data).toMatchObject({
      venueId: 'venue-a',
      timeZone: 'UTC',
      day: { start: '2026-11-28T00:00:00.000Z', inputOctets: 0 },
      total: { inputOctets: 1000 },
      limits: { data: { used: 0, left: 10_000 } },
    });
  });

  it('shows usage without limits for a user on no plan', async () => {
    const user = await givenUser(testApp);
    const response = await usageOf(user._id).expect(200);
    expect(response.body.data).toMatchObject({
      venueId: 'venue-a',
      plan: null,
      total: { inputOctets: 0, outputOctets: 0, sessionSeconds: 0 },
      limits: { data: { period: 'total', allowed: null, used: 0, left: null } },
    });
  });

  it('reads under the rules of GET user: 404 unknown or out of the token’s venues, 400 for a bad query', async () => {
    const user = await givenUser(testApp);
    const otherVenue = await testApp.createToken({ permissions: ['read'], venueIds: ['venue-b'] });
    const notFound = { success: false, message: expect.any(String) };
    expect((await usageOf('no-such-user').expect(404)).body).toMatchObject(notFound);
    expect((await usageOf(user._id, otherVenue).expect(404)).body).toMatchObject(notFound);
    await usageOf(user._id, testApp.adminToken, '?colour=blue').expect(400);
    await usageOf(user._id, testApp.adminToken, '?venueId=venue-b').expect(404);
    const radiusOnly = await testApp.createToken({ permissions: ['radius'] });
    await usageOf(user._id, radiusOnly).expect(403);
  });
});
