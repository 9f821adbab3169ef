import { AccessRecordCapture } from '../access-records/access-record-capture.service.js';
import { AccessRecordsRepository } from '../access-records/access-records.repository.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { NO_ORIGIN } from '../audit/audit.rules.js';
import { AuditService } from '../audit/audit.service.js';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import type { DatabaseService } from '../database/database.service.js';
import { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { DevicesRepository } from '../sessions/devices.repository.js';
import { DeviceEntity } from '../sessions/entities/device.entity.js';
import { SessionEntity } from '../sessions/entities/session.entity.js';
import { SessionsRepository } from '../sessions/sessions.repository.js';
import { SessionRequestError, SessionsService } from '../sessions/sessions.service.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { UnauthJobsRepository } from '../unauth-jobs/unauth-jobs.repository.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import type { CreateHotspotUserDto } from './dto/create-hotspot-user.dto.js';
import { toCreateInput, toUpdateInput } from './hotspot-user.inputs.js';
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

const admin: AuthenticatedToken = {
  kind: 'token',
  id: 't',
  name: 'admin',
  permissions: ['delete'],
  venueIds: null,
  expiresAt: null,
};
const hasher = { hash: (password: string) => Promise.resolve(password) } as unknown as PasswordHasher;
const HOUR = 3600 * 1000;

describe('UserSessionsService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let userSessions: UserSessionsService;
  let users: HotspotUsersService;

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    const repository = new HotspotUsersRepository(database);
    const sessions = new SessionsService(
      database,
      clock,
      new SessionsRepository(),
      new DevicesRepository(),
      new AuditService(database, new AuditRepository(), clock),
    );
    userSessions = new UserSessionsService(database, clock, repository, sessions);
    const writer = new HotspotUserWriter(
      database,
      repository,
      new VenueCountsRepository(database),
      new AccessRecordCapture(database, clock, new AccessRecordsRepository()),
    );
    const jobs = new UnauthJobsService(database, new UnauthJobsRepository(database), new SessionsRepository());
    users = new HotspotUsersService(
      database,
      clock,
      new VenueScopeService(),
      repository,
      new UserAccess(new VenueScopeService(), repository),
      writer,
      new UserSessionEndings(sessions, jobs, writer),
      sessions,
      hasher,
      new IdempotencyService(database, clock, new IdempotencyRepository()),
      new AuditService(database, new AuditRepository(), clock),
      registeredVenuesCheck(database, clock),
      plansService(database, clock),
    );
  });

  afterEach(() => close());

  const newUser = async (overrides: Partial<CreateHotspotUserDto> = {}) =>
    (
      await users.create(
        admin,
        toCreateInput({ name: 'G', loginMethod: 'guest', venueIds: ['venue-a'], ...overrides }),
        NO_ORIGIN,
      )
    ).data;

  it('starts a session for an active user in its venue, with the MAC address normalised', async () => {
    const user = await newUser();
    const session = await userSessions.start({ userId: user._id, venueId: 'venue-a', macAddress: 'aa-bb-cc-dd-ee-ff' });
    expect(session).toMatchObject({ userId: user._id, status: 'active', macAddress: 'AA:BB:CC:DD:EE:FF' });
    const devices = await database.run((em) => em.findBy(DeviceEntity, { userId: user._id }));
    expect(devices).toEqual([expect.objectContaining({ macAddress: 'AA:BB:CC:DD:EE:FF', status: 'active' })]);
  });

  it('refuses unknown users, other venues, inactive users and bad MACs', async () => {
    const user = await newUser();
    await expect(
      userSessions.start({ userId: 'nobody', venueId: 'venue-a', macAddress: '02:00:00:00:00:01' }),
    ).rejects.toThrow(new SessionRequestError('no such user nobody'));
    await expect(
      userSessions.start({ userId: user._id, venueId: 'venue-b', macAddress: '02:00:00:00:00:01' }),
    ).rejects.toThrow('does not belong to venue venue-b');
    await expect(userSessions.start({ userId: user._id, venueId: 'venue-a', macAddress: 'nope' })).rejects.toThrow(
      'not a MAC address',
    );
    await users.update(admin, user._id, {}, toUpdateInput({ status: 'blocked' }), NO_ORIGIN);
    await expect(
      userSessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' }),
    ).rejects.toThrow(new SessionRequestError(`user ${user._id} is blocked`));
  });

  it('refuses a deleted user as no such user', async () => {
    const user = await newUser();
    await users.remove(admin, user._id, {}, NO_ORIGIN);
    await expect(
      userSessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' }),
    ).rejects.toThrow(new SessionRequestError(`no such user ${user._id}`));
  });

  it('refuses a user whose expiresAt has passed before the sweep expired it, as expired', async () => {
    const expiresAt = new Date(clock.now().getTime() + HOUR).toISOString();
    const user = await newUser({ loginMethod: 'username_password', username: 'late', password: 'secret', expiresAt });
    await userSessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' });
    clock.advance(HOUR);
    await expect(
      userSessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:02' }),
    ).rejects.toThrow(new SessionRequestError(`user ${user._id} is expired`));
    expect(await database.run((em) => em.countBy(SessionEntity, { userId: user._id }))).toBe(1);
  });

  it("starts inside the caller's transaction, which rolls the session back with it", async () => {
    const user = await newUser();
    const failure = new Error('the caller failed after the start');
    await expect(
      database.transaction(async (em) => {
        await userSessions.startInTransaction(em, {
          userId: user._id,
          venueId: 'venue-a',
          macAddress: '02:00:00:00:00:01',
        });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await database.run((em) => em.countBy(SessionEntity, { userId: user._id }))).toBe(0);
    expect(await database.run((em) => em.countBy(DeviceEntity, { userId: user._id }))).toBe(0);
  });
});
