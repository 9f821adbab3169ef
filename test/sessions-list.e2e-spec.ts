import { ManualClock } from '../src/testing/in-memory-database.js';
import { API_PATH } from './support/api-client.js';
import { databaseKinds } from './support/databases.js';
import { FORBIDDEN, UNAUTHORIZED, forbiddenNaming, validationError } from './support/expected.js';
import { givenGuest, givenUser, startSession, uniqueDevice } from './support/factories.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SESSIONS_PATH = `${API_PATH}/sessions`;
const STALE_AFTER_SECONDS = 600;
const SECOND = 1000;

/** Every field a session of the list has: nothing else (no secret, no NAS address) may appear. */
const SESSION_FIELDS = [
  'endedAt',
  'id',
  'inputOctets',
  'ipAddress',
  'lastUpdateAt',
  'macAddress',
  'nas',
  'outputOctets',
  'sessionTime',
  'stale',
  'startedAt',
  'status',
  'terminateCause',
  'userId',
  'venueId',
];

let venueSequence = 0;
/** A venue no other test of this file uses, so each test sees only its own sessions. */
const uniqueVenue = () => `sessions-list-${++venueSequence}`;

let acctSequence = 0;
const uniqueAccountingId = () => `list-acct-${++acctSequence}-${Date.now().toString(36)}`;

/**
 * GET /api/v1/sessions: a venue's sessions, newest first, with the users list's venue rules and
 * paging. The app runs on a ManualClock, so a session turning stale is a step of the clock.
 */
for (const kind of databaseKinds()) {
  describe(`GET /api/v1/sessions [${kind}]`, () => {
    const clock = new ManualClock();
    let testApp: TestApp;
    let radiusToken: string;

    beforeAll(async () => {
      testApp = await startTestApp(
        kind,
        // No sweep of its own: the test moves the clock past the stale window and reads the flag.
        { RADIUS_STALE_AFTER_SECONDS: String(STALE_AFTER_SECONDS), RADIUS_STALE_SWEEP_INTERVAL: '0' },
        { clock },
      );
      radiusToken = await testApp.createToken({ permissions: ['radius'] });
    });

    afterAll(() => testApp.close());

    const list = (query: string, token: string | null = testApp.adminToken) => {
      const request = testApp.http.get(query === '' ? SESSIONS_PATH : `${SESSIONS_PATH}?${query}`);
      return token === null ? request : request.set('Authorization', `Bearer ${token}`);
    };

    /** A RADIUS accounting session of a new user of `nas`'s venue, as FreeRADIUS would report it. */
    async function radiusSession(nas: TestNas): Promise<{ userId: string; account: (extra: object) => Promise<void> }> {
      const user = await givenUser(testApp, { venueIds: [nas.venueId] });
      const { macAddress, ipAddress } = uniqueDevice();
      const common = {
        'User-Name': user.username!,
        'Acct-Unique-Session-Id': uniqueAccountingId(),
        'Acct-Session-Id': '81a00001',
        'Calling-Station-Id': macAddress.replace(/:/g, '-'),
        'Framed-IP-Address': ipAddress,
      };
      const account = async (extra: object) => {
        await radiusCall(testApp, radiusToken, 'accounting', nas, rlmBody({ ...common, ...extra })).expect(204);
      };
      await account({ 'Acct-Status-Type': 'Start' });
      return { userId: user._id, account };
    }

    async function cliSession(venueId: string): Promise<string> {
      const user = await givenGuest(testApp, { venueIds: [venueId] });
      return (await startSession(testApp, { userId: user._id, venueId, ...uniqueDevice() })).id;
    }

    it("lists the venue's sessions newest first, RADIUS and CLI ones, with their fields and nothing else", async () => {
      const venue = uniqueVenue();
      const nas = await givenNas(testApp, venue);
      const cliId = await cliSession(venue);
      clock.advance(SECOND);
      const radius = await radiusSession(nas);
      clock.advance(SECOND);
      await radius.account({
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 1,
        'Acct-Input-Octets': 500,
        'Acct-Output-Octets': 7000,
      });
      await cliSession(uniqueVenue());

      const response = await list(`venueId=${venue}`).expect(200);
      expect(response.body.success).toBe(true);
      expect(response.body.pagination).toEqual({ page: 1, limit: 20, total: 2, pages: 1 });
      const [newest, oldest] = response.body.data as Array<Record<string, unknown>>;
      expect(Object.keys(newest).sort()).toEqual(SESSION_FIELDS);
      expect(Object.keys(oldest).sort()).toEqual(SESSION_FIELDS);
      expect(newest).toMatchObject({
        userId: radius.userId,
        venueId: venue,
        nas: nas.name,
        status: 'active',
        endedAt: null,
        lastUpdateAt: clock.now().toISOString(),
        sessionTime: 1,
        inputOctets: 500,
        outputOctets: 7000,
        terminateCause: null,
        stale: false,
      });
      expect(newest.ipAddress).toMatch(/^10\./);
      expect(oldest).toMatchObject({ id: cliId, venueId: venue, nas: null, lastUpdateAt: null, stale: false });
      expect(Date.parse(String(newest.startedAt))).toBeGreaterThan(Date.parse(String(oldest.startedAt)));
    });

    it('filters by status: active is online now, ended is what the NAS stopped; absent, all of them', async () => {
      const venue = uniqueVenue();
      const nas = await givenNas(testApp, venue);
      const stopped = await radiusSession(nas);
      clock.advance(SECOND);
      await stopped.account({ 'Acct-Status-Type': 'Stop', 'Acct-Terminate-Cause': 'User-Request' });
      const activeId = await cliSession(venue);

      const active = await list(`venueId=${venue}&status=active`).expect(200);
      expect(active.body.data.map((session: { id: string }) => session.id)).toEqual([activeId]);
      const ended = await list(`venueId=${venue}&status=ended`).expect(200);
      expect(ended.body.data).toEqual([
        expect.objectContaining({ userId: stopped.userId, status: 'stopped', terminateCause: 'User-Request' }),
      ]);
      expect(ended.body.data[0].endedAt).toBe(clock.now().toISOString());
      expect((await list(`venueId=${venue}`).expect(200)).body.pagination.total).toBe(2);
    });

    it('pages with page and limit, as the users list does', async () => {
      const venue = uniqueVenue();
      const started: string[] = [];
      for (let i = 0; i < 3; i++) {
        started.unshift(await cliSession(venue));
        clock.advance(SECOND);
      }
      const first = await list(`venueId=${venue}&limit=2`).expect(200);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
      const second = await list(`venueId=${venue}&limit=2&page=2`).expect(200);
      expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
      const ids = [...first.body.data, ...second.body.data].map((session: { id: string }) => session.id);
      expect(ids).toEqual(started);
      const beyond = await list(`venueId=${venue}&limit=2&page=3`).expect(200);
      expect(beyond.body.data).toEqual([]);
    });

    it('flags an active RADIUS session stale once no update came within the window; an update clears it', async () => {
      const venue = uniqueVenue();
      const nas = await givenNas(testApp, venue);
      const radius = await radiusSession(nas);
      await cliSession(venue);
      const staleOf = async () =>
        Object.fromEntries(
          (await list(`venueId=${venue}&status=active`).expect(200)).body.data.map(
            (session: { userId: string; stale: boolean }) => [
              session.userId === radius.userId ? 'radius' : 'cli',
              session.stale,
            ],
          ),
        );

      clock.advance(STALE_AFTER_SECONDS * SECOND);
      expect(await staleOf()).toEqual({ radius: false, cli: false });
      clock.advance(SECOND);
      expect(await staleOf()).toEqual({ radius: true, cli: false });
      await radius.account({ 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': STALE_AFTER_SECONDS + 1 });
      expect(await staleOf()).toEqual({ radius: false, cli: false });
    });

    describe('venue rules', () => {
      it('needs venueId from an unrestricted or multi-venue token: 400 naming it', async () => {
        expect((await list('status=active').expect(400)).body).toEqual(validationError('venueId'));
        const token = await testApp.createToken({ venueIds: [uniqueVenue(), uniqueVenue()] });
        expect((await list('', token).expect(400)).body).toEqual(validationError('venueId'));
      });

      it("defaults to a single-venue token's venue", async () => {
        const venue = uniqueVenue();
        const id = await cliSession(venue);
        await cliSession(uniqueVenue());
        const token = await testApp.createToken({ venueIds: [venue] });
        const response = await list('', token).expect(200);
        expect(response.body.data.map((session: { id: string }) => session.id)).toEqual([id]);
      });

      it("refuses a venue outside the token's venues: 403 naming venueId", async () => {
        const token = await testApp.createToken({ venueIds: [uniqueVenue()] });
        const outside = uniqueVenue();
        await cliSession(outside);
        expect((await list(`venueId=${outside}`, token).expect(403)).body).toEqual(forbiddenNaming('venueId'));
      });
    });

    it('answers bad query values with a 400 naming the parameter', async () => {
      const venue = uniqueVenue();
      for (const [query, field] of [
        [`venueId=${venue}&status=stopped`, 'status'],
        [`venueId=${venue}&limit=0`, 'limit'],
        [`venueId=${venue}&limit=101`, 'limit'],
        [`venueId=${venue}&page=0`, 'page'],
        [`venueId=${venue}&page=abc`, 'page'],
        ['venueId=bad%20venue!', 'venueId'],
        [`venueId=${venue}&venueId=${venue}`, 'venueId'],
        [`venueId=${venue}&stauts=active`, 'stauts'],
      ]) {
        expect({ query, body: (await list(query).expect(400)).body }).toEqual({ query, body: validationError(field) });
      }
    });

    it('needs a token with read permission: 401 without one, 403 for a RADIUS-only token', async () => {
      const venue = uniqueVenue();
      expect((await list(`venueId=${venue}`, null).expect(401)).body).toEqual(UNAUTHORIZED);
      expect((await list(`venueId=${venue}`, radiusToken).expect(403)).body).toMatchObject(FORBIDDEN);
    });
  });
}
