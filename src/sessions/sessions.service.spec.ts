import { VenueScopeService } from '../auth/venue-scope.service.js';
import type { DatabaseService } from '../database/database.service.js';
import { HotspotUsersService } from '../hotspot-users/hotspot-users.service.js';
import type { PasswordHasher } from '../hotspot-users/password-hasher.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { UnauthJobsService } from '../unauth-jobs/unauth-jobs.service.js';
import { DeviceEntity } from './entities/device.entity.js';
import { SessionEntity } from './entities/session.entity.js';
import { SessionRequestError, SessionsService } from './sessions.service.js';

describe('SessionsService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let sessions: SessionsService;
  let users: HotspotUsersService;
  const admin = { id: 't', name: 'admin', permissions: ['delete' as const], venueIds: null, expiresAt: null };

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    sessions = new SessionsService(database, clock);
    const hasher = { hash: async (password: string) => password } as PasswordHasher;
    users = new HotspotUsersService(database, clock, new VenueScopeService(), sessions, new UnauthJobsService(database), hasher);
  });

  afterEach(() => close());

  const newUser = () =>
    users.create(admin, { name: 'G', loginMethod: 'guest', venueIds: ['venue-a'] });

  it('records the device on the first session and refreshes lastSeenAt on the next', async () => {
    const user = await newUser();
    const first = await sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: 'aa-bb-cc-dd-ee-ff', ipAddress: '10.0.0.5' });
    expect(first).toMatchObject({ status: 'active', macAddress: 'AA:BB:CC:DD:EE:FF', ipAddress: '10.0.0.5', endedAt: null });
    clock.advance(60_000);
    await sessions.stop(first.id);
    clock.advance(60_000);
    await sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: 'AABBCCDDEEFF' });

    const devices = await database.run((em) => em.findBy(DeviceEntity, { userId: user._id }));
    expect(devices).toHaveLength(1);
    expect(devices[0].firstSeenAt.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(devices[0].lastSeenAt.toISOString()).toBe('2026-11-22T10:02:00.000Z');
  });

  it('stops a session once', async () => {
    const user = await newUser();
    const session = await sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' });
    clock.advance(5000);
    const stopped = await sessions.stop(session.id);
    expect(stopped).toMatchObject({ status: 'stopped', endedAt: new Date('2026-11-22T10:00:05.000Z') });
    clock.advance(5000);
    expect((await sessions.stop(session.id)).endedAt).toEqual(new Date('2026-11-22T10:00:05.000Z'));
  });

  it('refuses unknown users, other venues, inactive users and bad MACs', async () => {
    const user = await newUser();
    await expect(sessions.start({ userId: 'nobody', venueId: 'venue-a', macAddress: '02:00:00:00:00:01' })).rejects.toThrow(
      new SessionRequestError('no such user nobody'),
    );
    await expect(sessions.start({ userId: user._id, venueId: 'venue-b', macAddress: '02:00:00:00:00:01' })).rejects.toThrow(
      'does not belong to venue venue-b',
    );
    await expect(sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: 'nope' })).rejects.toThrow(
      'not a MAC address',
    );
    await users.update(admin, user._id, {}, { status: 'blocked' });
    await expect(sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' })).rejects.toThrow(
      'is blocked',
    );
  });

  it('refuses a deleted user as no such user', async () => {
    const user = await newUser();
    await users.remove(admin, user._id, {});
    await expect(sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' })).rejects.toThrow(
      new SessionRequestError(`no such user ${user._id}`),
    );
  });

  it('starts inside the caller\'s transaction, which rolls the session back with it', async () => {
    const user = await newUser();
    const failure = new Error('the caller failed after the start');
    await expect(
      database.transaction(async (em) => {
        await sessions.startInTransaction(em, { userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await database.run((em) => em.countBy(SessionEntity, { userId: user._id }))).toBe(0);
    expect(await database.run((em) => em.countBy(DeviceEntity, { userId: user._id }))).toBe(0);
  });

  it('ends only active sessions of the user and expires its devices', async () => {
    const user = await newUser();
    const stopped = await sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:01' });
    await sessions.stop(stopped.id);
    const live = await sessions.start({ userId: user._id, venueId: 'venue-a', macAddress: '02:00:00:00:00:02' });
    const ended = await database.transaction((em) => sessions.endAllForUser(em, user._id, clock.now()));
    expect(ended.map((session) => session.id)).toEqual([live.id]);
    const devices = await database.run((em) => em.findBy(DeviceEntity, { userId: user._id }));
    expect(devices.map((device) => device.status)).toEqual(['expired', 'expired']);
  });
});
