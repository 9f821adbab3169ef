import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import type { HotspotUserDto } from '../src/hotspot-users/dto/hotspot-user.response.js';
import { encodeClass } from '../src/radius/radius.rules.js';
import { readDateTime } from '../src/database/columns.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { api } from './support/api-client.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { jobsOf } from './support/rows.js';
import { eventLoopTurns, FINAL_STATUS, makeMove, type Move } from './support/status-moves.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * RADIUS accounting packets (Start, Interim-Update, retransmissions) and a change of the same user's
 * status (PUT blocked, POST expire, the expiry sweep, DELETE) race each other. Whichever commits
 * first, the user never ends up blocked, expired or deleted with an active session or device, and
 * every session ended by the change or by enforcement is in exactly one unauth job.
 */

const HOUR = 3600 * 1000;
const ROUNDS = 12;

describe.each(databaseKinds())('accounting racing status changes [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let clock: ManualClock;
  let token: string;
  let nas: TestNas;
  let round = 0;

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    testApp = await startTestApp(kind, {}, { clock });
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, 'venue-a');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** One accounting packet; every one is answered 204 (recorded, enforced or dropped). */
  async function packet(attributes: Record<string, string | number>): Promise<void> {
    await radiusCall(testApp, token, 'accounting', nas, rlmBody(attributes)).expect(204);
  }

  async function raceOnce(which: Move): Promise<void> {
    round += 1;
    const expiring = which === 'sweep';
    const user = await givenUser(testApp, {
      expiresAt: expiring ? new Date(clock.now().getTime() + HOUR).toISOString() : undefined,
    });
    // Packets name the user by Class (as FreeRADIUS echoes it) or by User-Name, alternately.
    const session = (index: number) => ({
      ...(index % 2 === 0 ? { Class: encodeClass(user._id) } : { 'User-Name': user.username! }),
      'Acct-Unique-Session-Id': `race-${kind}-${round}-${index}`,
      'Calling-Station-Id': mac(round, index),
    });
    // One session before the race, so every move has something to end.
    await packet({ ...session(0), 'Acct-Status-Type': 'Start' });
    if (expiring) clock.advance(2 * HOUR);

    // Interim-Updates of that session (some of them copies of one another) and Starts and
    // Interim-Updates of new ones, a few event-loop turns apart, differently from round to round, so
    // they land before, during and after the move.
    const spread = round % 5;
    const moved = eventLoopTurns(round % 3).then(() => makeMove(testApp, which, user._id));
    const packets = [
      { ...session(0), 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 60, 'Acct-Input-Octets': 100 },
      { ...session(0), 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 60, 'Acct-Input-Octets': 100 },
      { ...session(1), 'Acct-Status-Type': 'Start' },
      { ...session(1), 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 30 },
      { ...session(2), 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 90 },
      { ...session(0), 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 120, 'Acct-Input-Octets': 200 },
    ].map(async (attributes, i) => {
      await eventLoopTurns((i + 1) * spread);
      await packet(attributes);
    });
    await Promise.all([moved, ...packets]);
    // A sweep that found the user's row locked by a packet skips it; the next sweep expires it.
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
    if (FINAL_STATUS[which] === null) return;

    // Each session this service ended (the move, or enforcement of a later packet) is in one job.
    const ended: Array<{ id: string }> = await testApp.dataSource.query(
      "SELECT id FROM sessions WHERE user_id = ? AND status = 'expired' ORDER BY id",
      [user._id],
    );
    expect({ context, endedAny: ended.length > 0 }).toEqual({ context, endedAny: true });
    const inJobs = (await jobsOf(testApp, user._id)).flatMap((job) => job.sessions.map((s) => s.id));
    expect({ context, inJobs: [...inJobs].sort() }).toEqual({ context, inJobs: ended.map(({ id }) => id) });
  }

  function mac(roundNumber: number, index: number): string {
    const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
    return `02:5F:${hex(roundNumber >> 8)}:${hex(roundNumber & 0xff)}:00:${hex(index)}`;
  }

  it('a packet handled after a newer one of its session raises the counters but never moves lastUpdateAt back', async () => {
    const user = await givenUser(testApp);
    const session = {
      Class: encodeClass(user._id),
      'Acct-Unique-Session-Id': `reordered-${kind}`,
      'Calling-Station-Id': '02:5E:00:00:00:01',
    };
    const lastUpdate = async () => {
      const [row] = await testApp.dataSource.query<Array<{ last_accounting_at: Date | string; session_time: number }>>(
        'SELECT last_accounting_at, session_time FROM sessions WHERE accounting_unique_id = ?',
        [`reordered-${kind}`],
      );
      return { at: readDateTime(row.last_accounting_at).toISOString(), sessionTime: Number(row.session_time) };
    };
    await packet({ ...session, 'Acct-Status-Type': 'Start' });
    clock.advance(10 * 60_000);
    const newest = clock.now().toISOString();
    await packet({ ...session, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 600 });
    expect(await lastUpdate()).toEqual({ at: newest, sessionTime: 600 });
    // Handled later, but stamped earlier (two batches under way may commit in either order): the
    // common Interim-Update's batch, then the general path's Stop.
    clock.advance(-5 * 60_000);
    await packet({ ...session, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 700 });
    expect(await lastUpdate()).toEqual({ at: newest, sessionTime: 700 });
    await packet({ ...session, 'Acct-Status-Type': 'Stop', 'Acct-Session-Time': 800 });
    expect(await lastUpdate()).toEqual({ at: newest, sessionTime: 800 });
    clock.advance(5 * 60_000);
  });

  it.each<Move>(['blocked', 'expire', 'sweep', 'delete'])(
    'accounting racing %s leaves no active session or device behind, and each ended session is in one job',
    async (which) => {
      for (let i = 0; i < ROUNDS; i++) await raceOnce(which);
    },
    120_000,
  );
});

/**
 * A burst such as a NAS sends when its users come back after an outage: many users' sessions, each
 * reported several times at once, some not recorded yet. Every packet is answered 204 (never a 503
 * from contention) and each session ends up with the highest counters reported. The one-statement
 * Interim-Update once read the user's row with a lock after locking the session's (or the gap where
 * a new one goes), the general path takes them the other way round, and InnoDB deadlocks between the
 * two outlasted the retries under such a burst.
 */
describe.each(databaseKinds())('a burst of accounting packets on many users [%s]', (kind: DatabaseKind) => {
  const USERS = 24;
  const COPIES = 3;
  let testApp: TestApp;
  let token: string;
  let nas: TestNas;

  beforeAll(async () => {
    testApp = await startTestApp(kind);
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, 'venue-a');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  // SQLite runs one transaction at a time: there is no row lock to wait for.
  (kind === 'mysql' ? it : it.skip)(
    "updates a known session while a transaction holds its user's row, as the general path does",
    async () => {
      const user = await givenUser(testApp);
      const session = {
        Class: encodeClass(user._id),
        'Acct-Unique-Session-Id': `held-${kind}`,
        'Calling-Station-Id': '02:5D:00:00:00:01',
      };
      await radiusCall(testApp, token, 'accounting', nas, rlmBody({ ...session, 'Acct-Status-Type': 'Start' })).expect(
        204,
      );
      const holder = testApp.dataSource.createQueryRunner();
      await holder.startTransaction();
      try {
        await holder.query('SELECT id FROM hotspot_users WHERE id = ? FOR UPDATE', [user._id]);
        const interim = rlmBody({ ...session, 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 77 });
        // Well under DB_TIMEOUT_MS (5 s): waiting for the user's row would run into it.
        const response = await radiusCall(testApp, token, 'accounting', nas, interim).timeout(2000);
        expect(response.status).toBe(204);
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      const [stored] = await testApp.dataSource.query<Array<{ session_time: number }>>(
        'SELECT session_time FROM sessions WHERE accounting_unique_id = ?',
        [`held-${kind}`],
      );
      expect(Number(stored?.session_time)).toBe(77);
    },
    30_000,
  );

  // SQLite runs one transaction at a time: nothing can commit between the Stop's read and its write.
  (kind === 'mysql' ? it : it.skip)(
    'a Stop keeps the higher counters an Interim-Update committed while the Stop waited for the session',
    async () => {
      const user = await givenUser(testApp);
      const session = {
        Class: encodeClass(user._id),
        'Acct-Unique-Session-Id': `stop-after-batch-${kind}`,
        'Calling-Station-Id': '02:5D:00:00:00:02',
      };
      await radiusCall(testApp, token, 'accounting', nas, rlmBody({ ...session, 'Acct-Status-Type': 'Start' })).expect(
        204,
      );
      // An Interim-Update's batched write, under way: it holds the session's row, as that write does.
      const batch = testApp.dataSource.createQueryRunner();
      await batch.startTransaction();
      let stop: Promise<{ status: number }> | undefined;
      try {
        await batch.query(
          'UPDATE sessions SET input_octets = 5000, session_time = 500 WHERE accounting_unique_id = ?',
          [`stop-after-batch-${kind}`],
        );
        const stopBody = rlmBody({
          ...session,
          'Acct-Status-Type': 'Stop',
          'Acct-Session-Time': 100,
          'Acct-Input-Octets': 1000,
          'Acct-Terminate-Cause': 'User-Request',
        });
        stop = radiusCall(testApp, token, 'accounting', nas, stopBody).then((response) => response);
        await waitForStatementOnSessions(testApp);
        await batch.commitTransaction();
      } finally {
        if (batch.isTransactionActive) await batch.rollbackTransaction();
        await batch.release();
      }
      expect((await stop).status).toBe(204);
      const [stored] = await testApp.dataSource.query<
        Array<{ status: string; input_octets: string; session_time: number }>
      >(
        'SELECT status, CAST(input_octets AS CHAR) AS input_octets, session_time FROM sessions WHERE accounting_unique_id = ?',
        [`stop-after-batch-${kind}`],
      );
      expect({ ...stored, session_time: Number(stored?.session_time) }).toEqual({
        status: 'stopped',
        input_octets: '5000',
        session_time: 500,
      });
    },
    30_000,
  );

  it('applies packets arriving together, each as it would alone: known, new device, new session, blocked user', async () => {
    const [known, roaming, starting, blocked] = [
      await givenUser(testApp),
      await givenUser(testApp),
      await givenUser(testApp),
      await givenUser(testApp),
    ];
    const session = (user: HotspotUserDto, name: string, mac: string) => ({
      Class: encodeClass(user._id),
      'Acct-Unique-Session-Id': `mixed-${kind}-${name}`,
      'Calling-Station-Id': mac,
    });
    const call = (attributes: Record<string, string | number>) =>
      radiusCall(testApp, token, 'accounting', nas, rlmBody(attributes));
    for (const [user, name] of [
      [known, 'known'],
      [roaming, 'roaming'],
      [blocked, 'blocked'],
    ] as const)
      await call({ ...session(user, name, '02:5F:00:00:00:01'), 'Acct-Status-Type': 'Start' }).expect(204);
    await api(testApp).users.update(blocked._id, { status: 'blocked' }).expect(200);
    // Past 2^53 octets: the counters must survive the batch's write exactly.
    const interim = { 'Acct-Status-Type': 'Interim-Update', 'Acct-Input-Gigawords': 3_000_000, 'Acct-Input-Octets': 7 };
    const statuses = await Promise.all(
      [
        session(known, 'known', '02:5F:00:00:00:01'),
        session(roaming, 'roaming', '02:5F:00:00:00:02'),
        session(starting, 'starting', '02:5F:00:00:00:03'),
        session(blocked, 'blocked', '02:5F:00:00:00:01'),
      ].map(
        async (attributes, index) =>
          (await call({ ...attributes, ...interim, 'Acct-Session-Time': 100 + index })).status,
      ),
    );
    expect(statuses).toEqual([204, 204, 204, 204]);

    const rows: Array<{ accounting_unique_id: string; status: string; session_time: number; input_octets: string }> =
      await testApp.dataSource.query(
        'SELECT accounting_unique_id, status, session_time, CAST(input_octets AS CHAR) AS input_octets FROM sessions WHERE accounting_unique_id LIKE ? ORDER BY accounting_unique_id',
        [`mixed-${kind}-%`],
      );
    const octets = String(3_000_000n * 2n ** 32n + 7n);
    expect(
      rows.map((row) => [
        row.accounting_unique_id.split('-').at(-1),
        row.status,
        Number(row.session_time),
        String(row.input_octets),
      ]),
    ).toEqual([
      ['blocked', 'expired', 103, octets],
      ['known', 'active', 100, octets],
      ['roaming', 'active', 101, octets],
      ['starting', 'active', 102, octets],
    ]);
    const devices: Array<{ user_id: string; mac_address: string; status: string }> = await testApp.dataSource.query(
      'SELECT user_id, mac_address, status FROM devices WHERE user_id IN (?, ?, ?) ORDER BY mac_address',
      [known._id, roaming._id, starting._id],
    );
    expect(devices.map((d) => [d.user_id, d.mac_address, d.status])).toEqual(
      expect.arrayContaining([
        [known._id, '02:5F:00:00:00:01', 'active'],
        [roaming._id, '02:5F:00:00:00:02', 'active'],
        [starting._id, '02:5F:00:00:00:03', 'active'],
      ]),
    );
    const blockedDevices: Array<{ status: string }> = await testApp.dataSource.query(
      'SELECT status FROM devices WHERE user_id = ?',
      [blocked._id],
    );
    expect(blockedDevices.map((d) => d.status)).not.toContain('active');
  }, 60_000);

  it('updates two sessions of one user on one device when their packets arrive together', async () => {
    const user = await givenUser(testApp);
    const session = (name: string) => ({
      Class: encodeClass(user._id),
      'Acct-Unique-Session-Id': `twin-${kind}-${name}`,
      'Calling-Station-Id': '02:5F:00:00:00:09',
    });
    for (const name of ['a', 'b'])
      await radiusCall(
        testApp,
        token,
        'accounting',
        nas,
        rlmBody({ ...session(name), 'Acct-Status-Type': 'Start' }),
      ).expect(204);
    const statuses = await Promise.all(
      ['a', 'b'].map(
        async (name) =>
          (
            await radiusCall(
              testApp,
              token,
              'accounting',
              nas,
              rlmBody({ ...session(name), 'Acct-Status-Type': 'Interim-Update', 'Acct-Session-Time': 42 }),
            )
          ).status,
      ),
    );
    expect(statuses).toEqual([204, 204]);
    const rows: Array<{ status: string; session_time: number }> = await testApp.dataSource.query(
      'SELECT status, session_time FROM sessions WHERE accounting_unique_id LIKE ? ORDER BY accounting_unique_id',
      [`twin-${kind}-%`],
    );
    expect(rows.map((row) => [row.status, Number(row.session_time)])).toEqual([
      ['active', 42],
      ['active', 42],
    ]);
  }, 30_000);

  // InnoDB's own count; the suites run one at a time, so only this test's packets can move it.
  (kind === 'mysql' ? it : it.skip)(
    'records a burst of new sessions and devices of many users without a deadlock',
    async () => {
      const deadlocks = async () => {
        const [row] = await testApp.dataSource.query<Array<{ Value: string }>>(
          "SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'",
        );
        return Number(row.Value);
      };
      const users: HotspotUserDto[] = [];
      for (let i = 0; i < 40; i++) users.push(await givenUser(testApp));
      const before = await deadlocks();
      const statuses = await Promise.all(
        users.map(async (user, i) => {
          const attributes = {
            Class: encodeClass(user._id),
            'Acct-Status-Type': 'Interim-Update',
            'Acct-Unique-Session-Id': `new-${kind}-${String(i).padStart(2, '0')}`,
            'Calling-Station-Id': `02:60:00:00:00:${String(i).padStart(2, '0')}`,
            'Acct-Session-Time': 10,
          };
          return (await radiusCall(testApp, token, 'accounting', nas, rlmBody(attributes))).status;
        }),
      );
      expect(statuses.filter((status) => status !== 204)).toEqual([]);
      expect((await deadlocks()) - before).toBe(0);
    },
    60_000,
  );

  it('answers every packet 204 and keeps the highest counters of each session', async () => {
    const users: HotspotUserDto[] = [];
    for (let i = 0; i < USERS; i++) users.push(await givenUser(testApp));
    const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
    const packets = (wave: number) =>
      users.flatMap((user, i) =>
        Array.from({ length: COPIES }, (_, copy) => ({
          ...(copy % 2 === 0 ? { Class: encodeClass(user._id) } : { 'User-Name': user.username! }),
          'Acct-Status-Type': 'Interim-Update',
          'Acct-Unique-Session-Id': `burst-${kind}-${i}`,
          'Calling-Station-Id': `02:5E:00:00:00:${hex(i)}`,
          'Acct-Session-Time': 60 * wave + copy,
          'Acct-Input-Octets': 1000 * wave + copy,
        })),
      );
    // The first wave finds no session (each is created by one of its copies), the second finds them all.
    for (const wave of [1, 2]) {
      const statuses = await Promise.all(
        packets(wave).map(async (attributes) => {
          const response = await radiusCall(testApp, token, 'accounting', nas, rlmBody(attributes));
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status !== 204)).toEqual([]);
    }

    const sessions: Array<{ user_id: string; status: string; session_time: number; input_octets: string }> =
      await testApp.dataSource.query(
        'SELECT user_id, status, session_time, input_octets FROM sessions WHERE accounting_unique_id LIKE ?',
        [`burst-${kind}-%`],
      );
    expect(sessions).toHaveLength(USERS);
    for (const session of sessions) {
      expect({
        status: session.status,
        time: Number(session.session_time),
        octets: String(session.input_octets),
      }).toEqual({ status: 'active', time: 120 + COPIES - 1, octets: String(2000 + COPIES - 1) });
    }
  }, 60_000);
});

/**
 * Until another connection to the test's database is in the middle of a statement on sessions: one
 * waiting for a row lock (bounded: 100 polls, 20 ms apart).
 */
async function waitForStatementOnSessions(testApp: TestApp): Promise<void> {
  for (let poll = 0; poll < 100; poll++) {
    const running = await testApp.dataSource.query<unknown[]>(
      `SELECT ID FROM information_schema.PROCESSLIST
       WHERE DB = DATABASE() AND ID <> CONNECTION_ID() AND COMMAND = 'Query' AND INFO LIKE '%sessions%'`,
    );
    if (running.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no statement on sessions came to wait');
}
