import { HotspotUserVenueEntity } from '../src/hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import { DeviceEntity } from '../src/sessions/entities/device.entity.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { createTestDatabase, databaseKinds, type DatabaseKind } from './support/databases.js';
import { api } from './support/api-client.js';
import { givenUser, givenUserWithSessions, uniqueEmail } from './support/factories.js';
import { asJobSession } from './support/rows.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Automatic expiry: users whose expiresAt has passed move to expired as POST expire would move them,
 * with a job of reason `expiry` when they had active sessions. The app runs on a ManualClock, so
 * "passed" is a step of the clock, not a wait.
 */

const HOUR = 3600 * 1000;

const inHours = (clock: ManualClock, hours: number) => new Date(clock.now().getTime() + hours * HOUR).toISOString();

async function userRow(testApp: TestApp, id: string): Promise<HotspotUserEntity> {
  return testApp.dataSource.getRepository(HotspotUserEntity).findOneByOrFail({ id });
}

async function jobsOf(testApp: TestApp, userId: string): Promise<UnauthJobEntity[]> {
  return testApp.dataSource
    .getRepository(UnauthJobEntity)
    .find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
}

async function sessionsOf(testApp: TestApp, userId: string): Promise<SessionEntity[]> {
  return testApp.dataSource.getRepository(SessionEntity).find({ where: { userId }, order: { id: 'ASC' } });
}

async function devicesOf(testApp: TestApp, userId: string): Promise<DeviceEntity[]> {
  return testApp.dataSource.getRepository(DeviceEntity).find({ where: { userId }, order: { macAddress: 'ASC' } });
}

async function venuesOf(testApp: TestApp, userId: string): Promise<HotspotUserVenueEntity[]> {
  return testApp.dataSource
    .getRepository(HotspotUserVenueEntity)
    .find({ where: { userId }, order: { position: 'ASC' } });
}

async function getUser(testApp: TestApp, id: string) {
  return (await api(testApp).users.get(id).expect(200)).body.data;
}

/** A user in venue-a and venue-b with `expiresAt` and `sessions` active sessions, taking the venues in turn. */
async function expiringUser(
  testApp: TestApp,
  expiresAt: string | null,
  sessions: number,
): Promise<{ _id: string; username: string; email: string }> {
  const email = uniqueEmail('exp');
  const { user } = await givenUserWithSessions(testApp, {
    venues: ['venue-a', 'venue-b'],
    sessions,
    user: { email, expiresAt },
  });
  return { _id: user._id, username: String(user.username), email };
}

describe.each(databaseKinds())('automatic expiry [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let clock: ManualClock;
  let users: HotspotUsersService;

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    testApp = await startTestApp(kind, {}, { clock });
    users = testApp.app.get(HotspotUsersService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  afterEach(async () => {
    // Users one test left waiting to expire do not expire inside the next one when the clock moves.
    await testApp.database.run((em) =>
      em.query("UPDATE hotspot_users SET expires_at = NULL WHERE status <> 'expired'"),
    );
  });

  it('expires a user whose expiresAt passed: sessions end, devices expire, keys are released, one expiry job', async () => {
    const due = await expiringUser(testApp, inHours(clock, 1), 2);
    const startedSessions = await sessionsOf(testApp, due._id);

    clock.advance(2 * HOUR);
    const sweptAt = clock.now();
    expect(await users.expireDue(100)).toBe(1);

    const shown = await getUser(testApp, due._id);
    expect(shown).toMatchObject({ status: 'expired', updatedAt: sweptAt.toISOString() });
    expect(shown.devices).toEqual([
      expect.objectContaining({ status: 'expired' }),
      expect.objectContaining({ status: 'expired' }),
    ]);

    expect(await sessionsOf(testApp, due._id)).toEqual(
      startedSessions.map((session) => ({ ...session, status: 'expired', endedAt: sweptAt })),
    );
    expect((await devicesOf(testApp, due._id)).map((device) => device.status)).toEqual(['expired', 'expired']);
    expect(await venuesOf(testApp, due._id)).toEqual([
      expect.objectContaining({
        venueId: 'venue-a',
        userStatus: 'expired',
        usernameKey: null,
        emailKey: null,
        phoneKey: null,
      }),
      expect.objectContaining({
        venueId: 'venue-b',
        userStatus: 'expired',
        usernameKey: null,
        emailKey: null,
        phoneKey: null,
      }),
    ]);

    const jobs = await jobsOf(testApp, due._id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      reason: 'expiry',
      status: 'pending',
      attempts: 0,
      username: due.username,
      createdAt: sweptAt,
    });
    expect([...jobs[0].sessions].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(startedSessions.map(asJobSession));

    // Its username and email are free again, in both venues.
    const reused = await givenUser(testApp, {
      username: due.username,
      email: due.email,
      venueIds: ['venue-a', 'venue-b'],
    });
    expect(reused._id).not.toBe(due._id);
  });

  it('a user without active sessions expires too, but no job is written', async () => {
    const quiet = await expiringUser(testApp, inHours(clock, 1), 0);
    clock.advance(2 * HOUR);
    expect(await users.expireDue(100)).toBe(1);
    expect((await userRow(testApp, quiet._id)).status).toBe('expired');
    expect(await jobsOf(testApp, quiet._id)).toEqual([]);
  });

  it('leaves users whose expiresAt is still ahead (or unset) untouched until it passes', async () => {
    const later = await expiringUser(testApp, inHours(clock, 3), 1);
    const never = await expiringUser(testApp, null, 1);
    const before = {
      later: {
        user: await userRow(testApp, later._id),
        sessions: await sessionsOf(testApp, later._id),
        venues: await venuesOf(testApp, later._id),
      },
      never: {
        user: await userRow(testApp, never._id),
        sessions: await sessionsOf(testApp, never._id),
        venues: await venuesOf(testApp, never._id),
      },
    };

    clock.advance(3 * HOUR - 1);
    expect(await users.expireDue(100)).toBe(0);
    for (const [name, id] of [
      ['later', later._id],
      ['never', never._id],
    ] as const) {
      expect(await userRow(testApp, id)).toEqual(before[name].user);
      expect(await sessionsOf(testApp, id)).toEqual(before[name].sessions);
      expect(await venuesOf(testApp, id)).toEqual(before[name].venues);
      expect(await jobsOf(testApp, id)).toEqual([]);
    }

    clock.advance(1);
    expect(await users.expireDue(100)).toBe(1);
    expect((await userRow(testApp, later._id)).status).toBe('expired');
    expect((await jobsOf(testApp, later._id)).map((job) => job.reason)).toEqual(['expiry']);
    expect((await userRow(testApp, never._id)).status).toBe('active');
  });

  it("a blocked user expires too; its sessions already ended with the block, so only the block's job exists", async () => {
    const user = await expiringUser(testApp, inHours(clock, 1), 1);
    await api(testApp).users.update(user._id, { status: 'blocked' }).expect(200);
    expect((await venuesOf(testApp, user._id))[0]).toMatchObject({
      userStatus: 'blocked',
      usernameKey: expect.any(String),
    });

    clock.advance(2 * HOUR);
    expect(await users.expireDue(100)).toBe(1);
    expect(await getUser(testApp, user._id)).toMatchObject({ status: 'expired' });
    expect((await jobsOf(testApp, user._id)).map((job) => job.reason)).toEqual(['blocked']);
    expect(
      (await venuesOf(testApp, user._id)).every(
        (venue) => venue.userStatus === 'expired' && venue.usernameKey === null,
      ),
    ).toBe(true);
  });

  it('running it again expires nobody twice and writes no second job', async () => {
    const first = await expiringUser(testApp, inHours(clock, 1), 1);
    const second = await expiringUser(testApp, inHours(clock, 1), 1);
    clock.advance(2 * HOUR);
    expect(await users.expireDue(100)).toBe(2);
    const after = { first: await userRow(testApp, first._id), second: await userRow(testApp, second._id) };

    clock.advance(1000);
    expect(await users.expireDue(100)).toBe(0);
    expect(await users.expireDue(100)).toBe(0);
    expect(await userRow(testApp, first._id)).toEqual(after.first);
    expect(await userRow(testApp, second._id)).toEqual(after.second);
    expect((await jobsOf(testApp, first._id)).map((job) => job.reason)).toEqual(['expiry']);
    expect((await jobsOf(testApp, second._id)).map((job) => job.reason)).toEqual(['expiry']);
  });

  it('a limit bounds one call, earliest expiresAt first; the next calls take the rest', async () => {
    const created: Array<{ _id: string }> = [];
    for (const hours of [1.5, 1, 1.25]) created.push(await expiringUser(testApp, inHours(clock, hours), 0));
    clock.advance(2 * HOUR);
    expect(await users.expireDue(2)).toBe(2);
    const statuses = async () => Promise.all(created.map(async (user) => (await userRow(testApp, user._id)).status));
    // The 1 h and 1.25 h users went first.
    expect(await statuses()).toEqual(['active', 'expired', 'expired']);
    expect(await users.expireDue(2)).toBe(1);
    expect(await statuses()).toEqual(['expired', 'expired', 'expired']);
    expect(await users.expireDue(2)).toBe(0);
  });
});

describe.each(databaseKinds())(
  'the expiry sweeper runs on its own (EXPIRY_SWEEP_INTERVAL=1) [%s]',
  (kind: DatabaseKind) => {
    it('expires a due user within a bounded wait', async () => {
      const clock = new ManualClock(new Date());
      const testApp = await startTestApp(kind, { EXPIRY_SWEEP_INTERVAL: '1' }, { clock });
      try {
        const user = await expiringUser(testApp, inHours(clock, 1), 1);
        clock.advance(2 * HOUR);
        // Poll every 50 ms for at most 5 s (the sweep ticks every second).
        let status = (await userRow(testApp, user._id)).status;
        for (let poll = 0; poll < 100 && status !== 'expired'; poll++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          status = (await userRow(testApp, user._id)).status;
        }
        expect(status).toBe('expired');
        expect((await jobsOf(testApp, user._id)).map((job) => job.reason)).toEqual(['expiry']);
        expect((await sessionsOf(testApp, user._id)).map((session) => session.status)).toEqual(['expired']);
      } finally {
        await testApp.close();
      }
    }, 15_000);
  },
);

const onMySql = process.env.TEST_MYSQL_URL ? describe : describe.skip;

onMySql('two instances sweeping one MySQL/MariaDB database at once', () => {
  it('expire each user once and write one job per user', async () => {
    const database = await createTestDatabase('mysql');
    const clock = new ManualClock(new Date());
    const apps: TestApp[] = [];
    try {
      apps.push(await startTestApp('mysql', {}, { database, clock }));
      apps.push(await startTestApp('mysql', {}, { database, clock }));
      const created: string[] = [];
      for (let i = 0; i < 20; i++) created.push((await expiringUser(apps[0], inHours(clock, 1), 1))._id);
      clock.advance(2 * HOUR);

      const [a, b] = apps.map((app) => app.app.get(HotspotUsersService));
      const counts = await Promise.all([a.expireDue(100), b.expireDue(100), a.expireDue(100), b.expireDue(100)]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(created.length);
      expect(await Promise.all([a.expireDue(100), b.expireDue(100)])).toEqual([0, 0]);

      for (const id of created) {
        expect((await userRow(apps[1], id)).status).toBe('expired');
        expect((await jobsOf(apps[1], id)).map((job) => job.reason)).toEqual(['expiry']);
        expect((await sessionsOf(apps[1], id)).map((session) => session.status)).toEqual(['expired']);
      }
    } finally {
      for (const app of apps) await app.close();
      await database.drop();
    }
  }, 15_000);
});
