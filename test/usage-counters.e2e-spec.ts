import { encodeClass } from '../src/radius/radius.rules.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { UsageService } from '../src/usage/usage.service.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Users' usage, folded from the sessions' counters that REST accounting raises: what a user used in
 * total and per day (the venue's), never counted twice (copies, reordered packets, a second fold),
 * never lost, and exact with packets and folds of two instances on one database at once.
 */

const GIGAWORD = 4_294_967_296;

interface UsageRow {
  period: string;
  input_octets: string;
  output_octets: string;
  session_seconds: string;
}

describe.each(databaseKinds())('usage counters [%s]', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  let clock: ManualClock;
  let token: string;
  let nas: TestNas;
  let sequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    clock = new ManualClock(new Date('2026-11-28T12:00:00.000Z'));
    first = await startTestApp(kind, {}, { database, clock });
    second = await startTestApp(kind, {}, { database, clock });
    token = await first.createToken({ permissions: ['radius'] });
    nas = await givenNas(first, 'venue-usage');
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
  });

  function packet(app: TestApp, attributes: Record<string, string | number>) {
    return radiusCall(app, token, 'accounting', nas, rlmBody(attributes)).expect(204);
  }

  function sessionOf(userId: string, index = 0) {
    sequence += 1;
    return {
      Class: encodeClass(userId),
      'Acct-Unique-Session-Id': `usage-${kind}-${sequence}-${index}`,
      'Calling-Station-Id': `02:55:00:00:${(sequence >> 8).toString(16).padStart(2, '0')}:${(sequence & 0xff).toString(16).padStart(2, '0')}`,
    };
  }

  async function usageOf(userId: string): Promise<Record<string, [string, string, string]>> {
    const rows = await first.dataSource.query<UsageRow[]>(
      `SELECT period, CAST(input_octets AS CHAR) AS input_octets, CAST(output_octets AS CHAR) AS output_octets,
         CAST(session_seconds AS CHAR) AS session_seconds FROM hotspot_user_usage WHERE user_id = ? ORDER BY period`,
      [userId],
    );
    return Object.fromEntries(
      rows.map((row) => [
        row.period,
        [String(row.input_octets), String(row.output_octets), String(row.session_seconds)],
      ]),
    );
  }

  it("adds a session's counters once, however often and in whatever order the NAS reports them", async () => {
    const user = await givenUser(first, { venueIds: ['venue-usage'] });
    const session = sessionOf(user._id);
    await packet(first, { ...session, 'Acct-Status-Type': 'Start' });
    const interim = {
      ...session,
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 60,
      'Acct-Input-Octets': 1000,
      'Acct-Output-Octets': 5000,
    };
    await packet(first, interim);
    await packet(second, interim);
    expect((await first.app.get(UsageService).fold()).userIds).toEqual(new Set([user._id]));
    expect(await usageOf(user._id)).toEqual({
      '2026-11-28': ['1000', '5000', '60'],
      total: ['1000', '5000', '60'],
    });

    // Past 4 GiB (Gigawords), then a late copy of the first Interim-Update, then the Stop.
    await packet(first, {
      ...interim,
      'Acct-Session-Time': 120,
      'Acct-Input-Octets': 10,
      'Acct-Input-Gigawords': 1,
    });
    await packet(second, interim);
    await first.app.get(UsageService).fold();
    await second.app.get(UsageService).fold();
    expect((await usageOf(user._id)).total).toEqual([String(GIGAWORD + 10), '5000', '120']);
    await packet(first, {
      ...session,
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Time': 130,
      'Acct-Input-Octets': 20,
      'Acct-Input-Gigawords': 1,
      'Acct-Output-Octets': 6000,
    });
    await second.app.get(UsageService).fold();
    expect(await usageOf(user._id)).toEqual({
      '2026-11-28': [String(GIGAWORD + 20), '6000', '130'],
      total: [String(GIGAWORD + 20), '6000', '130'],
    });
    // Nothing left to fold: a fold adds nothing more.
    expect((await first.app.get(UsageService).fold()).sessions).toBe(0);
    expect((await usageOf(user._id)).total).toEqual([String(GIGAWORD + 20), '6000', '130']);
  });

  it("counts a day in the venue's time zone", async () => {
    await first.app.get(VenuesService).set('venue-usage', { timeZone: 'Europe/Istanbul' });
    const user = await givenUser(first, { venueIds: ['venue-usage'] });
    const session = sessionOf(user._id);
    clock.advance(9.5 * 3600 * 1000);
    try {
      await packet(first, { ...session, 'Acct-Status-Type': 'Start' });
      await packet(first, {
        ...session,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 5,
        'Acct-Input-Octets': 7,
        'Acct-Output-Octets': 9,
      });
      await first.app.get(UsageService).fold();
      expect(await usageOf(user._id)).toEqual({ '2026-11-29': ['7', '9', '5'], total: ['7', '9', '5'] });
    } finally {
      clock.advance(-9.5 * 3600 * 1000);
      await first.app.get(VenuesService).set('venue-usage', { timeZone: null });
    }
  });

  it("deletes the days' usage older than 40 days, never the total", async () => {
    const user = await givenUser(first, { venueIds: ['venue-usage'] });
    for (const period of ['2026-10-18', '2026-10-19', 'total'])
      await first.dataSource.query(
        'INSERT INTO hotspot_user_usage (user_id, period, input_octets, output_octets, session_seconds) VALUES (?, ?, 1, 2, 3)',
        [user._id, period],
      );
    expect(await first.app.get(UsageService).forgetOldDays()).toBeGreaterThanOrEqual(1);
    expect(Object.keys(await usageOf(user._id))).toEqual(['2026-10-19', 'total']);
  });

  it('is exact with packets of many sessions and folds of two instances running at once', async () => {
    const user = await givenUser(first, { venueIds: ['venue-usage'] });
    const sessions = Array.from({ length: 4 }, (_, index) => sessionOf(user._id, index));
    for (const session of sessions) await packet(first, { ...session, 'Acct-Status-Type': 'Start' });
    const rounds = 8;
    const work: Promise<unknown>[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      sessions.forEach((session, index) => {
        const app = (round + index) % 2 === 0 ? first : second;
        work.push(
          packet(app, {
            ...session,
            'Acct-Status-Type': 'Interim-Update',
            'Acct-Session-Time': round * 10,
            'Acct-Input-Octets': round * 100 + index,
            'Acct-Output-Octets': round * 1000,
          }),
        );
      });
      work.push(first.app.get(UsageService).fold(), second.app.get(UsageService).fold());
    }
    await Promise.all(work);
    await first.app.get(UsageService).fold();
    const expected = [String(rounds * 100 * 4 + 0 + 1 + 2 + 3), String(rounds * 1000 * 4), String(rounds * 10 * 4)];
    expect(await usageOf(user._id)).toEqual({ '2026-11-28': expected, total: expected });
  });
});
