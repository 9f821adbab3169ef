import type { Response } from 'supertest';
import { HotspotUsersService } from '../src/hotspot-users/hotspot-users.service.js';
import { countBucket } from '../src/hotspot-users/venue-counts.rules.js';
import { VenueCountsService } from '../src/hotspot-users/venue-counts.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The list's total and deep pages come from per-venue counters (by status, and by status and hour
 * of creation): every change inserts its moves in its own transaction, and a fold adds them to the
 * counters. After each round of a seeded random series of concurrent creates, deletes, status
 * moves, venue changes, POST expires, expiry sweeps and folds, the counters with the changes not
 * yet folded equal COUNT(*) over the venue rows, and every page of the list equals the same page
 * read with a plain OFFSET.
 */

const USERS = '/api/v1/hotspot-users';
const VENUES = ['cnt-a', 'cnt-b', 'cnt-c'];
const ROUNDS = 6;
const CHANGES_PER_ROUND = 16;
const MINUTE = 60_000;

/** A small seeded generator (mulberry32): the same series on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Row = Record<string, string | number>;

function keyed(rows: Row[], keys: string[]): Record<string, number> {
  const map: Record<string, number> = {};
  for (const row of rows) {
    const count = Number(row.n);
    if (count !== 0) map[keys.map((key) => String(row[key])).join('|')] = count;
  }
  return map;
}

describe.each(databaseKinds())('venue user counters [%s]', (kind: DatabaseKind) => {
  let testApp: TestApp;
  let clock: ManualClock;
  const next = random(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const someVenues = () =>
    VENUES.filter(() => next() < 0.5)
      .concat(pick(VENUES))
      .filter((v, i, all) => all.indexOf(v) === i);
  const users: string[] = [];
  let serial = 0;

  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-11-22T10:50:00.000Z'));
    testApp = await startTestApp(kind, {}, { clock });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const auth = () => `Bearer ${testApp.adminToken}`;

  function create(): PromiseLike<Response> {
    serial += 1;
    const expiring = next() < 0.3;
    const body = expiring
      ? {
          name: `Counted ${serial}`,
          loginMethod: 'username_password',
          username: `counted${serial}`,
          password: 'secret',
          venueIds: someVenues(),
          expiresAt: new Date(clock.now().getTime() + 30 * MINUTE).toISOString(),
        }
      : { name: `Counted ${serial}`, loginMethod: 'guest', venueIds: someVenues() };
    return testApp.http
      .post(USERS)
      .set('Authorization', auth())
      .send(body)
      .then((response) => {
        if (response.status === 201) users.push(response.body.data._id as string);
        return response;
      });
  }

  function change(): PromiseLike<Response | number> {
    const roll = next();
    if (roll < 0.3 || users.length === 0) return create();
    const id = pick(users);
    const http = testApp.http;
    if (roll < 0.4) return http.delete(`${USERS}/${id}`).set('Authorization', auth());
    if (roll < 0.55) return http.put(`${USERS}/${id}`).set('Authorization', auth()).send({ status: 'blocked' });
    if (roll < 0.65) return http.put(`${USERS}/${id}`).set('Authorization', auth()).send({ status: 'active' });
    if (roll < 0.8) return http.put(`${USERS}/${id}`).set('Authorization', auth()).send({ venueIds: someVenues() });
    if (roll < 0.9) return http.post(`${USERS}/${id}/expire`).set('Authorization', auth());
    return testApp.app.get(HotspotUsersService).expireDue(100);
  }

  async function counted(): Promise<{ counters: Record<string, number>; actual: Record<string, number> }> {
    const counters = keyed(
      await testApp.dataSource.query(
        `SELECT venue_id, user_status, SUM(n) AS n FROM (
           SELECT venue_id, user_status, user_count AS n FROM venue_user_counts
           UNION ALL SELECT venue_id, user_status, delta FROM venue_user_count_changes
         ) c GROUP BY venue_id, user_status`,
      ),
      ['venue_id', 'user_status'],
    );
    const actual = keyed(
      await testApp.dataSource.query(
        'SELECT venue_id, user_status, COUNT(*) AS n FROM hotspot_user_venues GROUP BY venue_id, user_status',
      ),
      ['venue_id', 'user_status'],
    );
    return { counters, actual };
  }

  async function bucketed(): Promise<{ counters: Record<string, number>; actual: Record<string, number> }> {
    const counters = keyed(
      await testApp.dataSource.query(
        `SELECT venue_id, bucket, user_status, SUM(n) AS n FROM (
           SELECT venue_id, bucket, user_status, user_count AS n FROM venue_user_buckets
           UNION ALL SELECT venue_id, bucket, user_status, delta FROM venue_user_count_changes
         ) c GROUP BY venue_id, bucket, user_status`,
      ),
      ['venue_id', 'bucket', 'user_status'],
    );
    const rows: Array<{ venueId: string; userStatus: string; userCreatedAt: Date }> = await testApp.dataSource
      .createQueryBuilder()
      .select(['uv.venue_id AS venueId', 'uv.user_status AS userStatus', 'uv.user_created_at AS userCreatedAt'])
      .from('hotspot_user_venues', 'uv')
      .getRawMany();
    const actual: Record<string, number> = {};
    for (const row of rows) {
      // Raw datetimes: MySQL gives a Date, SQLite the stored UTC text.
      const createdAt =
        row.userCreatedAt instanceof Date
          ? row.userCreatedAt
          : new Date(`${String(row.userCreatedAt).replace(' ', 'T')}Z`);
      const key = `${row.venueId}|${countBucket(createdAt)}|${row.userStatus}`;
      actual[key] = (actual[key] ?? 0) + 1;
    }
    return { counters, actual };
  }

  /** Every page of the venue's list (limit 3), as the API answers it and as a plain OFFSET reads it. */
  async function pages(venueId: string, status?: string): Promise<{ api: unknown[]; offset: unknown[] }> {
    const byStatus = status === undefined ? '' : ' AND user_status = ?';
    const ids: Array<{ user_id: string }> = await testApp.dataSource.query(
      `SELECT user_id FROM hotspot_user_venues WHERE venue_id = ?${byStatus} ORDER BY user_created_at DESC, user_id DESC`,
      status === undefined ? [venueId] : [venueId, status],
    );
    const offset: unknown[] = [];
    const api: unknown[] = [];
    const pageCount = Math.ceil(ids.length / 3) + 1;
    for (let page = 1; page <= pageCount; page += 1) {
      offset.push({ total: ids.length, ids: ids.slice((page - 1) * 3, page * 3).map((row) => row.user_id) });
      const query = { venueId, page, limit: 3, ...(status === undefined ? {} : { status }) };
      const response = await testApp.http.get(USERS).query(query).set('Authorization', auth()).expect(200);
      api.push({
        total: response.body.pagination.total,
        ids: response.body.data.map((user: { _id: string }) => user._id),
      });
    }
    return { api, offset };
  }

  it('after each round of concurrent changes, counters equal COUNT(*) and every page equals a plain OFFSET read', async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const results = await Promise.all(Array.from({ length: CHANGES_PER_ROUND }, () => change()));
      const statuses = results.filter((result): result is Response => typeof result === 'object').map((r) => r.status);
      // 404: deleted by another change of the round; 409: PUT on a user already expired.
      expect(statuses.filter((status) => ![200, 201, 404, 409].includes(status))).toEqual([]);

      const counts = await counted();
      expect(counts.counters).toEqual(counts.actual);
      const buckets = await bucketed();
      expect(buckets.counters).toEqual(buckets.actual);
      // Every other round, a fold moves the changes into the counters while the next round's changes run.
      if (round % 2 === 0) await Promise.all([testApp.app.get(VenueCountsService).fold(), change(), change()]);
      // The next round's users land in other hours; earlier users' expiresAt pass.
      clock.advance(40 * MINUTE);
    }
    expect(Object.keys((await bucketed()).actual).length).toBeGreaterThan(VENUES.length * 2);
    // Folded whole (here, or by the app's own timer), the changes are gone and the counters alone are exact.
    await testApp.app.get(VenueCountsService).fold();
    expect(await testApp.dataSource.query('SELECT id FROM venue_user_count_changes')).toEqual([]);
    const folded = keyed(
      await testApp.dataSource.query('SELECT venue_id, user_status, user_count AS n FROM venue_user_counts'),
      ['venue_id', 'user_status'],
    );
    expect(folded).toEqual((await counted()).actual);
    for (const venueId of VENUES) {
      for (const status of [undefined, 'active', 'blocked', 'expired']) {
        const { api, offset } = await pages(venueId, status);
        expect(api).toEqual(offset);
      }
    }
  });
});
