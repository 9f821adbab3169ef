import type { Response } from 'supertest';
import { describeEachDatabase, type TestApp } from './support/test-app.js';

/**
 * Requests on different users never fail because they run at the same time. On MariaDB, creates
 * that first deleted their (not yet existing) venue rows took gap locks and deadlocked each other
 * once time-ordered ids put them in the same gap; those deadlocks surfaced as 500s. Here 64 changes
 * run at once, more than the pool's 20 connections (DB_POOL_SIZE).
 */

const USERS = '/api/v1/hotspot-users';
const COUNT = 64;

describeEachDatabase('concurrent changes of different users', (current) => {
  const auth = () => `Bearer ${current().adminToken}`;

  function create(venueIds: string[], index: number): PromiseLike<Response> {
    return current()
      .http.post(USERS)
      .set('Authorization', auth())
      .send({ name: `Concurrent ${index}`, loginMethod: 'guest', venueIds });
  }

  /** Status and body of every answer that is not `expected`, so a failure shows what went wrong. */
  function unexpected(responses: Response[], expected: number): Array<{ status: number; body: unknown }> {
    return responses.filter((r) => r.status !== expected).map((r) => ({ status: r.status, body: r.body }));
  }

  async function usersIn(testApp: TestApp, ids: string[]): Promise<number> {
    const rows = await testApp.database.run((em) =>
      em
        .createQueryBuilder()
        .select('COUNT(*)', 'count')
        .from('hotspot_users', 'u')
        .where('u.id IN (:...ids)', { ids })
        .getRawOne<{ count: string | number }>(),
    );
    return Number(rows?.count);
  }

  async function venueRowsOf(testApp: TestApp, ids: string[]): Promise<Array<{ userId: string; venueId: string }>> {
    return testApp.database.run((em) =>
      em
        .createQueryBuilder()
        .select(['uv.user_id AS userId', 'uv.venue_id AS venueId'])
        .from('hotspot_user_venues', 'uv')
        .where('uv.user_id IN (:...ids)', { ids })
        .orderBy('uv.user_id')
        .addOrderBy('uv.position')
        .getRawMany<{ userId: string; venueId: string }>(),
    );
  }

  it(`${COUNT} creates at once in one venue are all 201`, async () => {
    const responses = await Promise.all(Array.from({ length: COUNT }, (_, i) => create(['conc-one'], i)));
    expect(unexpected(responses, 201)).toEqual([]);
    const ids = responses.map((response) => response.body.data._id as string);
    expect(new Set(ids).size).toBe(COUNT);
    expect(await usersIn(current(), ids)).toBe(COUNT);
  });

  it(`${COUNT} creates at once spread over ${COUNT} venues are all 201`, async () => {
    const responses = await Promise.all(Array.from({ length: COUNT }, (_, i) => create([`conc-spread-${i}`], i)));
    expect(unexpected(responses, 201)).toEqual([]);
    const ids = responses.map((response) => response.body.data._id as string);
    expect(await usersIn(current(), ids)).toBe(COUNT);
  });

  it(`PUTs of ${COUNT} users at once (name changes and venue changes) are all 200`, async () => {
    const created = await Promise.all(Array.from({ length: COUNT }, (_, i) => create(['conc-put-a', 'conc-put-b'], i)));
    expect(unexpected(created, 201)).toEqual([]);
    const ids = created.map((response) => response.body.data._id as string);

    // Even users get a new name; odd ones leave venue b, join c, and keep a (moved to the end).
    const responses = await Promise.all(
      ids.map((id, i) =>
        current()
          .http.put(`${USERS}/${id}`)
          .set('Authorization', auth())
          .send(i % 2 === 0 ? { name: `Renamed ${i}` } : { venueIds: ['conc-put-c', 'conc-put-a'] }),
      ),
    );
    expect(unexpected(responses, 200)).toEqual([]);
    responses.forEach((response, i) => {
      if (i % 2 === 0) expect(response.body.data.name).toBe(`Renamed ${i}`);
      else expect(response.body.data.venueIds).toEqual(['conc-put-c', 'conc-put-a']);
    });

    const rows = await venueRowsOf(current(), ids);
    ids.forEach((id, i) => {
      const venues = rows.filter((row) => row.userId === id).map((row) => row.venueId);
      expect({ id, venues }).toEqual({
        id,
        venues: i % 2 === 0 ? ['conc-put-a', 'conc-put-b'] : ['conc-put-c', 'conc-put-a'],
      });
    });
  });

  it(`DELETEs of ${COUNT} users at once are all 200, while others are created`, async () => {
    const created = await Promise.all(Array.from({ length: COUNT }, (_, i) => create(['conc-del'], i)));
    expect(unexpected(created, 201)).toEqual([]);
    const ids = created.map((response) => response.body.data._id as string);

    const [deletes, creates] = await Promise.all([
      Promise.all(ids.map((id) => current().http.delete(`${USERS}/${id}`).set('Authorization', auth()))),
      Promise.all(Array.from({ length: 16 }, (_, i) => create(['conc-del'], i))),
    ]);
    expect(unexpected(deletes, 200)).toEqual([]);
    expect(unexpected(creates, 201)).toEqual([]);
    expect(await usersIn(current(), ids)).toBe(0);
    expect(await venueRowsOf(current(), ids)).toEqual([]);
  });
});
