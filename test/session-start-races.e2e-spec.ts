import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import type { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { SessionRequestError } from '../src/sessions/sessions.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { createUser, startSession } from './support/factories.js';
import { jobsOf } from './support/rows.js';
import { eventLoopTurns, FINAL_STATUS, makeMove, type Move } from './support/status-moves.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A session start and a change of the same user's status (PUT blocked, POST expire, the expiry
 * sweep, DELETE) race each other. Whichever commits first, the user never ends up blocked, expired
 * or deleted with an active session or device, and every session the change ended is in an unauth
 * job, so the network side disconnects it. Starts may be refused, but only with a SessionRequestError.
 */

const HOUR = 3600 * 1000;
const ROUNDS = 25;
const STARTS_PER_ROUND = 4;

/** The one refusal a start that comes after the move may get. */
const REFUSAL: Record<Move, (userId: string) => string> = {
  blocked: (userId) => `user ${userId} is blocked`,
  expire: (userId) => `user ${userId} is expired`,
  sweep: (userId) => `user ${userId} is expired`,
  delete: (userId) => `no such user ${userId}`,
};

describe.each(databaseKinds())('session starts racing status changes [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let clock: ManualClock;
  let round = 0;

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    testApp = await startTestApp(kind, {}, { clock });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** A start that may be refused, as the move makes it; any other error fails the test. */
  async function tryStart(which: Move, userId: string, mac: string): Promise<SessionEntity | null> {
    try {
      return await startSession(testApp, { userId, macAddress: mac, ipAddress: '10.9.0.1', nasId: 'nas-race' });
    } catch (error) {
      if (error instanceof SessionRequestError && error.message === REFUSAL[which](userId)) return null;
      throw error;
    }
  }

  async function raceOnce(which: Move): Promise<void> {
    round += 1;
    const expiring = which === 'sweep';
    const user = await createUser(testApp, {
      venueIds: ['venue-a'],
      expiresAt: expiring ? new Date(clock.now().getTime() + HOUR).toISOString() : null,
    });
    // One session before the race, so every move has something to end.
    const before = await startSession(testApp, { userId: user._id, macAddress: mac(round, 0) });
    if (expiring) clock.advance(2 * HOUR);

    // The move and the starts are launched a few event-loop turns apart, differently from round to
    // round, so the starts land before, during and after the move.
    const spread = round % 6;
    const moved = eventLoopTurns(round % 3).then(() => makeMove(testApp, which, user._id));
    const starts = Array.from({ length: STARTS_PER_ROUND }, async (_, i) => {
      await eventLoopTurns((i + 1) * spread);
      return tryStart(which, user._id, mac(round, i + 1));
    });
    const [, ...started] = await Promise.all([moved, ...starts]);
    // A sweep that found the user's row locked by a start skips it; the next sweep expires it.
    if (expiring) await testApp.app.get(HotspotUsersService).expireDue(10);

    const context = `${which}, round ${round}`;
    const users: Array<{ status: string }> = await testApp.dataSource.query(
      'SELECT status FROM hotspot_users WHERE id = ?',
      [user._id],
    );
    expect({ context, status: users[0]?.status ?? null }).toEqual({ context, status: FINAL_STATUS[which] });
    const active = await testApp.dataSource.query(
      `SELECT 'session' AS row_kind, id FROM sessions WHERE user_id = ? AND status = 'active'
       UNION ALL SELECT 'device' AS row_kind, id FROM devices WHERE user_id = ? AND status = 'active'`,
      [user._id, user._id],
    );
    expect({ context, active }).toEqual({ context, active: [] });

    const startedIds = [before, ...started].flatMap((session) => (session === null ? [] : [session.id]));
    const jobSessionIds = new Set((await jobsOf(testApp, user._id)).flatMap((job) => job.sessions.map((s) => s.id)));
    expect({ context, notInAJob: startedIds.filter((id) => !jobSessionIds.has(id)) }).toEqual({
      context,
      notInAJob: [],
    });
  }

  function mac(roundNumber: number, index: number): string {
    const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
    return `02:5E:${hex(roundNumber >> 8)}:${hex(roundNumber & 0xff)}:00:${hex(index)}`;
  }

  /** Checked in SQL over every user the races of `which` (and the tests before) left behind. */
  async function assertNothingLeftActive(which: Move): Promise<void> {
    const sessions = await testApp.dataSource.query(
      `SELECT s.id, u.status FROM sessions s JOIN hotspot_users u ON u.id = s.user_id
       WHERE s.status = 'active' AND u.status <> 'active'`,
    );
    expect(sessions).toEqual([]);
    const devices = await testApp.dataSource.query(
      `SELECT d.id, u.status FROM devices d JOIN hotspot_users u ON u.id = d.user_id
       WHERE d.status = 'active' AND u.status <> 'active'`,
    );
    expect(devices).toEqual([]);
    // Every session this service ended is listed in a job of its user.
    const ended: Array<{ id: string; user_id: string }> = await testApp.dataSource.query(
      "SELECT id, user_id FROM sessions WHERE status = 'expired'",
    );
    // Every round of a move that keeps the user ended at least the session started before the race;
    // a deleted user's sessions are gone with it.
    expect(ended.length).toBeGreaterThanOrEqual(FINAL_STATUS[which] === null ? 0 : ROUNDS);
    const byUser = new Map<string, Set<string>>();
    for (const { id, user_id: userId } of ended) {
      if (!byUser.has(userId)) {
        byUser.set(userId, new Set((await jobsOf(testApp, userId)).flatMap((job) => job.sessions.map((s) => s.id))));
      }
      expect({ id, inAJob: byUser.get(userId)?.has(id) }).toEqual({ id, inAJob: true });
    }
  }

  it('starts in a venue racing a PUT that takes that venue leave no session there, and every ended one is in a job', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      round += 1;
      const user = await createUser(testApp, { venueIds: ['venue-a', 'venue-b'] });
      const before = await startSession(testApp, { userId: user._id, macAddress: mac(round, 0) });
      const spread = round % 6;
      const moved = eventLoopTurns(round % 3).then(() =>
        testApp.http
          .put(`/api/v1/hotspot-users/${user._id}`)
          .set('Authorization', `Bearer ${testApp.adminToken}`)
          .send({ venueIds: ['venue-b'] })
          .expect(200),
      );
      const starts = Array.from({ length: STARTS_PER_ROUND }, async (_, index) => {
        await eventLoopTurns((index + 1) * spread);
        try {
          return await startSession(testApp, { userId: user._id, macAddress: mac(round, index + 1) });
        } catch (error) {
          const refusal = `user ${user._id} does not belong to venue venue-a`;
          if (error instanceof SessionRequestError && error.message === refusal) return null;
          throw error;
        }
      });
      const [, ...started] = await Promise.all([moved, ...starts]);

      const context = `round ${round}`;
      const active = await testApp.dataSource.query(
        "SELECT id FROM sessions WHERE user_id = ? AND venue_id = 'venue-a' AND status = 'active'",
        [user._id],
      );
      expect({ context, active }).toEqual({ context, active: [] });
      const startedIds = [before, ...started].flatMap((session) => (session === null ? [] : [session.id]));
      const jobs = await jobsOf(testApp, user._id);
      expect({ context, reasons: [...new Set(jobs.map((job) => job.reason))] }).toEqual({
        context,
        reasons: ['venue-removed'],
      });
      const inJobs = new Set(jobs.flatMap((job) => job.sessions.map((session) => session.id)));
      expect({ context, notInAJob: startedIds.filter((id) => !inJobs.has(id)) }).toEqual({ context, notInAJob: [] });
    }
  }, 120_000);

  it.each<Move>(['blocked', 'expire', 'sweep', 'delete'])(
    'starts racing %s leave no active session behind, and every ended session is in a job',
    async (which) => {
      for (let i = 0; i < ROUNDS; i++) await raceOnce(which);
      await assertNothingLeftActive(which);
    },
    120_000,
  );
});
