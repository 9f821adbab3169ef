import { encodeClass } from '../src/radius/radius.rules.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UsageService } from '../src/usage/usage.service.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { givenPlanRow, putOnPlan } from './support/plans.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { jobsOf } from './support/rows.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A plan's limits at login (used up, devices, sessions) and during a session (the usage sweep ends
 * the sessions of a user whose quota or time allowance ran out, with an unauth job of reason quota).
 */

const PASSWORD = 'secret-1';
const DAY = 86_400_000;

describe.each(databaseKinds())('plan limits enforced [%s]', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let clock: ManualClock;
  let token: string;
  let nas: TestNas;
  let sequence = 0;

  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-11-28T09:00:00.000Z'));
    database = await createTestDatabase(kind);
    testApp = await startTestApp(kind, { RADIUS_MAX_SESSIONS_PER_USER: '1' }, { clock, database });
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, 'venue-a');
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
  });

  const authorize = (username: string, mac: string) =>
    radiusCall(
      testApp,
      token,
      'authorize',
      nas,
      rlmBody({ 'User-Name': username, 'User-Password': PASSWORD, 'Calling-Station-Id': mac }),
    );

  function macOf(index: number): string {
    return `02:AB:00:00:${(index >> 8).toString(16).padStart(2, '0')}:${(index & 0xff).toString(16).padStart(2, '0')}`.toUpperCase();
  }

  /** A session of the user on `mac`: its Start, and a function sending its Interim-Updates. */
  async function online(userId: string, mac: string) {
    sequence += 1;
    const base = {
      Class: encodeClass(userId),
      'Acct-Unique-Session-Id': `plan-${kind}-${sequence}`,
      'Calling-Station-Id': mac,
    };
    const send = (attributes: Record<string, string | number>) =>
      radiusCall(testApp, token, 'accounting', nas, rlmBody({ ...base, ...attributes })).expect(204);
    await send({ 'Acct-Status-Type': 'Start' });
    return (input: number, output: number, seconds: number) =>
      send({
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Input-Octets': input,
        'Acct-Output-Octets': output,
        'Acct-Session-Time': seconds,
      });
  }

  const sweep = () => testApp.app.get(UsageService).sweep();

  it('ends the session once the daily quota is used up (job of reason quota), refuses logins until the next day', async () => {
    const plan = await givenPlanRow(testApp, {
      quotaBytes: 1000,
      quotaPeriod: 'day',
      dailyTimeSeconds: 3600,
      maxSessions: 2,
    });
    const user = await givenUser(testApp);
    await putOnPlan(testApp, user._id, plan);
    const mac = macOf(++sequence);

    const accepted = await authorize(user.username!, mac).expect(200);
    // The day's time allowance caps the session.
    expect(accepted.body['reply:Session-Timeout']).toBe(3600);
    const interim = await online(user._id, mac);
    await interim(300, 300, 60);
    expect(await sweep()).toEqual([]);
    const left = await authorize(user.username!, mac).expect(200);
    expect(left.body['reply:Session-Timeout']).toBe(3540);

    await interim(500, 700, 120);
    const jobIds = await sweep();
    expect(jobIds).toHaveLength(1);
    const [job] = await jobsOf(testApp, user._id);
    expect(job).toMatchObject({ id: jobIds[0], reason: 'quota', status: 'pending' });
    expect(job.sessions).toHaveLength(1);
    const [session] = await testApp.dataSource.query<Array<{ status: string; terminate_cause: string }>>(
      'SELECT status, terminate_cause FROM sessions WHERE user_id = ?',
      [user._id],
    );
    expect(session).toEqual({ status: 'expired', terminate_cause: 'quota' });
    // A second sweep writes no second job.
    expect(await sweep()).toEqual([]);

    const refused = await authorize(user.username!, mac).expect(401);
    expect(refused.body['reply:Reply-Message'].value).toBe('Data or time allowance used up');
    clock.advance(DAY);
    try {
      await authorize(user.username!, mac).expect(200);
    } finally {
      clock.advance(-DAY);
    }
  });

  it('ends a session past its time allowance in total, and one past a per-session quota alone', async () => {
    const timed = await givenPlanRow(testApp, { totalTimeSeconds: 100 });
    const user = await givenUser(testApp);
    await putOnPlan(testApp, user._id, timed);
    const interim = await online(user._id, macOf(++sequence));
    await interim(1, 1, 100);
    expect(await sweep()).toHaveLength(1);
    expect((await jobsOf(testApp, user._id)).map((job) => job.reason)).toEqual(['quota']);

    const perSession = await givenPlanRow(testApp, { quotaBytes: 1000, quotaPeriod: 'session', maxSessions: 2 });
    const other = await givenUser(testApp);
    await putOnPlan(testApp, other._id, perSession);
    const heavy = await online(other._id, macOf(++sequence));
    const light = await online(other._id, macOf(++sequence));
    await heavy(900, 200, 10);
    await light(100, 100, 10);
    expect(await sweep()).toHaveLength(1);
    const [job] = await jobsOf(testApp, other._id);
    expect(job.sessions).toHaveLength(1);
    const active = await testApp.dataSource.query<unknown[]>(
      "SELECT id FROM sessions WHERE user_id = ? AND status = 'active'",
      [other._id],
    );
    expect(active).toHaveLength(1);
  });

  it('refuses a new device past maxDevices, and the sessions past maxSessions (instead of RADIUS_MAX_SESSIONS_PER_USER)', async () => {
    const plan = await givenPlanRow(testApp, { maxDevices: 1, maxSessions: 2 });
    const user = await givenUser(testApp);
    await putOnPlan(testApp, user._id, plan);
    const first = macOf(++sequence);
    await authorize(user.username!, first).expect(200);
    await online(user._id, first);
    const refused = await authorize(user.username!, macOf(++sequence)).expect(401);
    expect(refused.body['reply:Reply-Message'].value).toBe('Too many devices');
    // RADIUS_MAX_SESSIONS_PER_USER is 1; the plan allows 2.
    await authorize(user.username!, first).expect(200);
    await online(user._id, first);
    const third = await authorize(user.username!, first).expect(401);
    expect(third.body['reply:Reply-Message'].value).toBe('Too many simultaneous sessions');
  });

  it('two instances sweeping at once write one job; an instance started later folds what was recorded before it', async () => {
    const plan = await givenPlanRow(testApp, { quotaBytes: 100, quotaPeriod: 'total' });
    const user = await givenUser(testApp);
    await putOnPlan(testApp, user._id, plan);
    const interim = await online(user._id, macOf(++sequence));
    await interim(60, 10, 5);
    const other = await startTestApp(kind, {}, { database, clock });
    try {
      // Recorded while no instance sweeps; the other instance, started now, folds it.
      await interim(90, 20, 10);
      const [first, second] = await Promise.all([other.app.get(UsageService).sweep(), sweep()]);
      expect([...first, ...second]).toHaveLength(1);
      expect((await jobsOf(testApp, user._id)).map((job) => job.reason)).toEqual(['quota']);
      const [usage] = await testApp.dataSource.query<Array<{ bytes: string }>>(
        "SELECT CAST(input_octets + output_octets AS CHAR) AS bytes FROM hotspot_user_usage WHERE user_id = ? AND period = 'total'",
        [user._id],
      );
      expect(String(usage.bytes)).toBe('110');
    } finally {
      await other.close();
    }
  });

  it("applies the venue's default plan to a user without one", async () => {
    const plan = await givenPlanRow(testApp, { quotaBytes: 10, quotaPeriod: 'total' });
    await testApp.app.get(VenuesService).set('venue-default', { timeZone: 'UTC' });
    await testApp.dataSource.query("UPDATE venues SET default_plan_id = ? WHERE id = 'venue-default'", [plan]);
    const defaultNas = await givenNas(testApp, 'venue-default');
    const user = await givenUser(testApp, { venueIds: ['venue-default'] });
    sequence += 1;
    const base = { Class: encodeClass(user._id), 'Acct-Unique-Session-Id': `default-${kind}-${sequence}` };
    await radiusCall(
      testApp,
      token,
      'accounting',
      defaultNas,
      rlmBody({ ...base, 'Acct-Status-Type': 'Start' }),
    ).expect(204);
    await radiusCall(
      testApp,
      token,
      'accounting',
      defaultNas,
      rlmBody({
        ...base,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Input-Octets': 11,
        'Acct-Output-Octets': 0,
        'Acct-Session-Time': 1,
      }),
    ).expect(204);
    expect(await sweep()).toHaveLength(1);
    const refused = await radiusCall(
      testApp,
      token,
      'authorize',
      defaultNas,
      rlmBody({ 'User-Name': user.username!, 'User-Password': PASSWORD }),
    ).expect(401);
    expect(refused.body['reply:Reply-Message'].value).toBe('Data or time allowance used up');
  });
});
