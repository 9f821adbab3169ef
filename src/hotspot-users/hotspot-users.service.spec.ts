import { AccessRecordCapture } from '../access-records/access-record-capture.service.js';
import { AccessRecordsRepository } from '../access-records/access-records.repository.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { NO_ORIGIN } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { DatabaseService } from '../database/database.service.js';
import { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { DevicesRepository } from '../sessions/devices.repository.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { UnauthJobsRepository } from '../unauth-jobs/unauth-jobs.repository.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import type { CreateHotspotUserDto } from './dto/create-hotspot-user.dto.js';
import { HotspotUserVenueEntity } from './entities/hotspot-user-venue.entity.js';
import { toCreateInput, toListQuery, toUpdateInput } from './hotspot-user.inputs.js';
import { HotspotUserWriter } from './hotspot-user.writer.js';
import { VenueCountsRepository } from './venue-counts.repository.js';
import { HotspotUsersRepository } from './hotspot-users.repository.js';
import { HotspotUsersService } from './hotspot-users.service.js';
import type { PasswordHasher } from '../common/passwords/password-hasher.js';
import { UserAccess } from './user-access.js';
import { UserSessionEndings } from './user-session-endings.js';
import { UserSessionsService } from './user-sessions.service.js';
import { registeredVenuesCheck } from '../testing/venues.js';
import { plansService } from '../testing/plans.js';

const unrestricted: AuthenticatedToken = {
  kind: 'token',
  id: 't1',
  name: 'admin',
  permissions: ['delete'],
  venueIds: null,
  expiresAt: null,
};
const venueAOnly: AuthenticatedToken = { ...unrestricted, id: 't2', venueIds: ['venue-a'] };

/** Hashing is the library's job; here only its presence matters. */
const fakeHasher = { hash: (password: string) => Promise.resolve(`hashed:${password}`) } as unknown as PasswordHasher;

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('HotspotUsersService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let sessions: UserSessionsService;
  let jobs: UnauthJobsService;
  let service: HotspotUsersService;
  let counter = 0;

  const body = (overrides: Partial<CreateHotspotUserDto> = {}) =>
    toCreateInput({
      name: 'Guest',
      loginMethod: 'username_password',
      username: `user${++counter}`,
      password: 'secret',
      venueIds: ['venue-a'],
      ...overrides,
    });

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    const users = new HotspotUsersRepository(database);
    const sessionsOnly = new SessionsService(
      database,
      clock,
      new SessionsRepository(),
      new DevicesRepository(),
      new AuditService(database, new AuditRepository(), clock),
    );
    sessions = new UserSessionsService(database, clock, users, sessionsOnly);
    jobs = new UnauthJobsService(database, new UnauthJobsRepository(database), new SessionsRepository());
    const writer = new HotspotUserWriter(
      database,
      users,
      new VenueCountsRepository(database),
      new AccessRecordCapture(database, clock, new AccessRecordsRepository()),
    );
    service = new HotspotUsersService(
      database,
      clock,
      new VenueScopeService(),
      users,
      new UserAccess(new VenueScopeService(), users),
      writer,
      new UserSessionEndings(sessionsOnly, jobs, writer),
      sessionsOnly,
      fakeHasher,
      new IdempotencyService(database, clock, new IdempotencyRepository()),
      new AuditService(database, new AuditRepository(), clock),
      registeredVenuesCheck(database, clock),
      plansService(database, clock),
    );
  });

  // The use cases' results without their versions, which only the ETag tests below read.
  const create = async (...args: Parameters<HotspotUsersService['create']>) => (await service.create(...args)).data;
  const update = async (...args: Parameters<HotspotUsersService['update']>) => (await service.update(...args)).data;
  const expire = async (...args: Parameters<HotspotUsersService['expire']>) => (await service.expire(...args)).data;

  afterEach(() => close());

  describe('create', () => {
    it('starts active with no devices and keeps venue order without repeats', async () => {
      const user = await create(unrestricted, body({ venueIds: ['b', 'a', 'b'] }), NO_ORIGIN);
      expect(user).toMatchObject({ status: 'active', devices: [], venueIds: ['b', 'a'], metadata: {} });
    });

    it('refuses expiresAt for a guest and in the past', async () => {
      const guest = await rejection(
        create(
          unrestricted,
          body({ loginMethod: 'guest', password: undefined, expiresAt: '2030-01-01T00:00:00Z' }),
          NO_ORIGIN,
        ),
      );
      expect(guest.body.errors).toEqual([
        { field: 'expiresAt', message: 'expiresAt applies to username_password users only' },
      ]);
      const past = await rejection(create(unrestricted, body({ expiresAt: '2026-11-22T09:59:59Z' }), NO_ORIGIN));
      expect(past.body.errors).toEqual([{ field: 'expiresAt', message: 'expiresAt must lie in the future' }]);
    });

    it('refuses venues outside the token with 403 naming venueIds', async () => {
      const error = await rejection(create(venueAOnly, body({ venueIds: ['venue-a', 'venue-b'] }), NO_ORIGIN));
      expect(error.getStatus()).toBe(403);
      expect(error.body.errors?.[0].field).toBe('venueIds');
    });

    it('names every clash, per field and venue, case-insensitively', async () => {
      await create(unrestricted, body({ username: 'Alice', email: 'A@x.com', venueIds: ['v1', 'v2'] }), NO_ORIGIN);
      const error = await rejection(
        create(unrestricted, body({ username: 'alice', email: 'a@X.COM', venueIds: ['v2', 'v1'] }), NO_ORIGIN),
      );
      expect(error.getStatus()).toBe(409);
      expect(error.body.errors).toEqual([
        { field: 'username', message: 'username already used in venue v2' },
        { field: 'email', message: 'email already used in venue v2' },
        { field: 'username', message: 'username already used in venue v1' },
        { field: 'email', message: 'email already used in venue v1' },
      ]);
    });
  });

  describe('update', () => {
    it('blocking ends sessions, expires devices and writes one job even without sessions', async () => {
      const quiet = await create(unrestricted, body(), NO_ORIGIN);
      await update(unrestricted, quiet._id, {}, toUpdateInput({ status: 'blocked' }), NO_ORIGIN);
      expect(await jobs.list({ userId: quiet._id })).toEqual([
        expect.objectContaining({ reason: 'blocked', sessions: [], status: 'pending' }),
      ]);

      const busy = await create(unrestricted, body(), NO_ORIGIN);
      const session = await sessions.start({ userId: busy._id, venueId: 'venue-a', macAddress: 'aabbccddeeff' });
      const blocked = await update(unrestricted, busy._id, {}, toUpdateInput({ status: 'blocked' }), NO_ORIGIN);
      expect(blocked.devices).toEqual([
        expect.objectContaining({ macAddress: 'AA:BB:CC:DD:EE:FF', status: 'expired' }),
      ]);
      const [job] = await jobs.list({ userId: busy._id });
      expect(job.sessions).toEqual([
        {
          id: session.id,
          venueId: 'venue-a',
          macAddress: 'AA:BB:CC:DD:EE:FF',
          ipAddress: null,
          nasId: null,
          nasClientId: null,
          acctSessionId: null,
          userName: null,
          callingStationId: null,
          nasIpAddress: null,
          nasSourceIp: null,
        },
      ]);
    });

    it('writes no job for the same status or for unblocking', async () => {
      const user = await create(unrestricted, body(), NO_ORIGIN);
      await update(unrestricted, user._id, {}, toUpdateInput({ status: 'active' }), NO_ORIGIN);
      await update(unrestricted, user._id, {}, toUpdateInput({ status: 'blocked' }), NO_ORIGIN);
      await update(unrestricted, user._id, {}, toUpdateInput({ status: 'blocked' }), NO_ORIGIN);
      await update(unrestricted, user._id, {}, toUpdateInput({ status: 'active' }), NO_ORIGIN);
      expect((await jobs.list({ userId: user._id })).map((job) => job.reason)).toEqual(['blocked']);
    });

    it('refuses any edit of an expired user with 409', async () => {
      const user = await create(unrestricted, body(), NO_ORIGIN);
      await update(unrestricted, user._id, {}, toUpdateInput({ status: 'expired' }), NO_ORIGIN);
      const error = await rejection(update(unrestricted, user._id, {}, toUpdateInput({}), NO_ORIGIN));
      expect(error.getStatus()).toBe(409);
      expect(error.body).toEqual({ success: false, message: 'Expired users cannot be edited' });
    });

    it('refuses removing the username of a username_password user', async () => {
      const user = await create(unrestricted, body(), NO_ORIGIN);
      const error = await rejection(update(unrestricted, user._id, {}, toUpdateInput({ username: '' }), NO_ORIGIN));
      expect(error.body.errors?.[0].field).toBe('username');
    });

    it('refreshes updatedAt on an empty update', async () => {
      const user = await create(unrestricted, body(), NO_ORIGIN);
      clock.advance(1500);
      const updated = await update(unrestricted, user._id, {}, toUpdateInput({}), NO_ORIGIN);
      expect(Date.parse(updated.updatedAt) - Date.parse(user.updatedAt)).toBe(1500);
    });

    it('releases the uniqueness keys of an expired user', async () => {
      const user = await create(unrestricted, body({ username: 'reused' }), NO_ORIGIN);
      await update(unrestricted, user._id, {}, toUpdateInput({ status: 'expired' }), NO_ORIGIN);
      const rows = await database.run((em) => em.findBy(HotspotUserVenueEntity, { userId: user._id }));
      expect(rows).toEqual([expect.objectContaining({ usernameKey: null, userStatus: 'expired' })]);
      await expect(create(unrestricted, body({ username: 'reused' }), NO_ORIGIN)).resolves.toMatchObject({
        username: 'reused',
      });
    });
  });

  describe('venue scope of changes', () => {
    it('is 404 with no venue in common and 403 with partial cover', async () => {
      const elsewhere = await create(unrestricted, body({ venueIds: ['venue-b'] }), NO_ORIGIN);
      expect((await rejection(service.remove(venueAOnly, elsewhere._id, {}, NO_ORIGIN))).getStatus()).toBe(404);
      const shared = await create(unrestricted, body({ venueIds: ['venue-a', 'venue-b'] }), NO_ORIGIN);
      expect((await rejection(expire(venueAOnly, shared._id, {}, NO_ORIGIN))).getStatus()).toBe(403);
    });
  });

  describe('expire', () => {
    it('counts the sessions it ends, writes a job only when there were some, and can be repeated', async () => {
      const user = await create(unrestricted, body({ venueIds: ['venue-a', 'venue-b'] }), NO_ORIGIN);
      await sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' });
      await sessions.start({ userId: user._id, venueId: 'venue-b', macAddress: '02:00:00:00:00:02' });
      const first = await expire(unrestricted, user._id, {}, NO_ORIGIN);
      expect(first.expiredSessions).toBe(2);
      expect(first.user.status).toBe('expired');
      const again = await expire(unrestricted, user._id, {}, NO_ORIGIN);
      expect(again.expiredSessions).toBe(0);
      expect((await jobs.list({ userId: user._id })).map((job) => job.reason)).toEqual(['expired']);
    });
  });

  describe('remove', () => {
    it('writes a deleted job that outlives the user only when sessions were active', async () => {
      const idle = await create(unrestricted, body(), NO_ORIGIN);
      await service.remove(unrestricted, idle._id, {}, NO_ORIGIN);
      expect(await jobs.list({ userId: idle._id })).toEqual([]);

      const online = await create(unrestricted, body(), NO_ORIGIN);
      await sessions.start({ userId: online._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:03' });
      await service.remove(unrestricted, online._id, {}, NO_ORIGIN);
      expect((await jobs.list({ userId: online._id })).map((job) => job.reason)).toEqual(['deleted']);
      expect((await rejection(service.get(unrestricted, online._id, {}))).getStatus()).toBe(404);
    });
  });

  describe('versions and If-Match', () => {
    it('starts at 1 and counts every change of the user: PUT, expire', async () => {
      const user = await service.create(unrestricted, body(), NO_ORIGIN);
      expect(user.version).toBe(1);
      expect(
        (await service.update(unrestricted, user.data._id, {}, toUpdateInput({ name: 'x' }), NO_ORIGIN)).version,
      ).toBe(2);
      expect((await service.expire(unrestricted, user.data._id, {}, NO_ORIGIN)).version).toBe(3);
      expect((await service.get(unrestricted, user.data._id, {})).version).toBe(3);
    });

    it('refuses a change with a stale If-Match with 412 and changes nothing; * and the current tag go ahead', async () => {
      const { data } = await service.create(unrestricted, body({ name: 'before' }), NO_ORIGIN);
      const stale = [{ weak: false, tag: '"v0"' }];
      for (const change of [
        service.update(unrestricted, data._id, {}, toUpdateInput({ name: 'after' }), NO_ORIGIN, stale),
        service.expire(unrestricted, data._id, {}, NO_ORIGIN, stale),
        service.remove(unrestricted, data._id, {}, NO_ORIGIN, stale),
      ]) {
        const error = await rejection(change);
        expect(error.getStatus()).toBe(412);
        expect(error.body).toEqual({ success: false, message: 'Precondition Failed' });
      }
      expect(await service.get(unrestricted, data._id, {})).toMatchObject({ data: { name: 'before' }, version: 1 });

      await service.update(unrestricted, data._id, {}, toUpdateInput({ name: 'after' }), NO_ORIGIN, [
        { weak: false, tag: '"v1"' },
      ]);
      await service.remove(unrestricted, data._id, {}, NO_ORIGIN, '*');
      expect((await rejection(service.get(unrestricted, data._id, {}))).getStatus()).toBe(404);
    });
  });

  describe('list', () => {
    it('pages newest first with ceil(total / limit) pages', async () => {
      for (let i = 0; i < 5; i++) {
        await create(unrestricted, body({ name: `n${i}` }), NO_ORIGIN);
        clock.advance(1000);
      }
      const page = await service.list(unrestricted, toListQuery({ venueId: 'venue-a', limit: '2', page: '3' }));
      expect(page.pagination).toEqual({ page: 3, limit: 2, total: 5, pages: 3 });
      expect(page.data.map((user) => user.name)).toEqual(['n0']);
    });
  });
});
