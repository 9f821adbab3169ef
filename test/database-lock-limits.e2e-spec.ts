import mysql from 'mysql2/promise';
import { VenueCountsService } from '../src/hotspot-users/venue-counts.service.js';
import { guestBody } from './support/factories.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * What another client's locks may do to the service on MySQL/MariaDB. A second connection of the
 * test's own (not the app's pool, whose connections carry the service's limits) plays a client that
 * holds locks and never lets go, as an instance cut off from the database does:
 *
 * - every connection of the app carries server-side limits tied to DB_TIMEOUT_MS;
 * - a request that waits on such a lock answers 503 at its deadline, and the server stops waiting
 *   on its behalf soon after, so no connection is held for an answer already sent;
 * - no row is locked by every write of a venue: with the venue's counter rows locked and a counter
 *   change left uncommitted, the venue's creates, blocks and deletes go on; the fold neither waits
 *   for the open change nor loses it, and the list's total stays exact throughout.
 */

const USERS = '/api/v1/hotspot-users';
const DB_TIMEOUT_MS = 2000;
const serverUrl = process.env.TEST_MYSQL_URL;
const describeWithServer = serverUrl ? describe : describe.skip;
const title = serverUrl
  ? 'lock limits on the database server [mysql]'
  : 'lock limits on the database server [skipped: set TEST_MYSQL_URL=mysql://user:pass@127.0.0.1:3306 to run it]';

describeWithServer(title, () => {
  let testApp: TestApp;
  let holder: mysql.Connection;
  const auth = () => `Bearer ${testApp.adminToken}`;

  beforeAll(async () => {
    testApp = await startTestApp('mysql', { DB_TIMEOUT_MS: String(DB_TIMEOUT_MS), LOG_LEVEL: 'error' });
  }, 30_000);

  beforeEach(async () => {
    holder = await mysql.createConnection(databaseUrl());
  });

  afterEach(async () => {
    await holder.end();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** The app's own database, as its data source reached it (mysql2 knows only the mysql scheme). */
  function databaseUrl(): string {
    const url = new URL((testApp.dataSource.options as { url: string }).url);
    url.protocol = 'mysql:';
    return url.toString();
  }

  /** Transactions of the server now waiting on a lock. */
  async function lockWaits(): Promise<number> {
    const [rows] = await holder.query<mysql.RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'",
    );
    return Number(rows[0].n);
  }

  it('sets the limits on every connection of the pool', async () => {
    const rows = await Promise.all(
      Array.from({ length: 4 }, () =>
        testApp.database.run((em) =>
          em.query<Array<Record<string, number | string>>>(
            'SELECT @@innodb_lock_wait_timeout AS lockWait, @@lock_wait_timeout AS metadataWait, @@idle_transaction_timeout AS idleInTransaction, @@wait_timeout AS idle',
          ),
        ),
      ),
    );
    for (const [row] of rows) {
      expect(Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]))).toEqual({
        lockWait: 2,
        metadataWait: 2,
        idleInTransaction: 3,
        idle: 10,
      });
    }
  });

  it('a request waiting on a lock answers 503 at its deadline, and the server stops waiting soon after', async () => {
    const created = await testApp.http.post(USERS).set('Authorization', auth()).send(guestBody()).expect(201);
    const id = created.body.data._id as string;
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM hotspot_users WHERE id = ? FOR UPDATE', [id]);

    const started = Date.now();
    const blocked = await testApp.http.put(`${USERS}/${id}`).set('Authorization', auth()).send({ status: 'blocked' });
    expect(blocked.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(DB_TIMEOUT_MS + 2000);

    // The server's own wait (2 s) ends within a lock wait of the answer; by default it lasts 50 s.
    const answered = Date.now();
    let waits = await lockWaits();
    while (waits > 0 && Date.now() - answered < 4000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      waits = await lockWaits();
    }
    expect(waits).toBe(0);
    await holder.query('ROLLBACK');
  }, 20_000);

  it("no row is locked by every write of a venue: the venue's counter rows locked, its writes go on", async () => {
    const venueId = 'busy-venue';
    const first = await testApp.http
      .post(USERS)
      .set('Authorization', auth())
      .send(guestBody({ venueIds: [venueId] }))
      .expect(201);
    await testApp.app.get(VenueCountsService).fold();
    // One client holds every counter row of the venue; another has a counter change not committed.
    await holder.query('BEGIN');
    const [locked] = await holder.query<mysql.RowDataPacket[]>(
      'SELECT venue_id FROM venue_user_counts WHERE venue_id = ? FOR UPDATE',
      [venueId],
    );
    expect(locked.length).toBeGreaterThan(0);
    await holder.query('SELECT venue_id FROM venue_user_buckets WHERE venue_id = ? FOR UPDATE', [venueId]);
    const writer = await mysql.createConnection(databaseUrl());
    try {
      await writer.query('BEGIN');
      await writer.query(
        "INSERT INTO venue_user_count_changes (id, venue_id, user_status, bucket, delta) VALUES ('00000000-uncommitted', ?, 'active', 0, 1)",
        [venueId],
      );

      const started = Date.now();
      const created = await Promise.all(
        Array.from({ length: 6 }, () =>
          testApp.http
            .post(USERS)
            .set('Authorization', auth())
            .send(guestBody({ venueIds: [venueId] })),
        ),
      );
      expect(created.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const id = created[0].body.data._id as string;
      await testApp.http.put(`${USERS}/${id}`).set('Authorization', auth()).send({ status: 'blocked' }).expect(200);
      await testApp.http
        .delete(`${USERS}/${first.body.data._id as string}`)
        .set('Authorization', auth())
        .expect(200);
      // Well under a lock wait: nothing waited on the held rows.
      expect(Date.now() - started).toBeLessThan(DB_TIMEOUT_MS);
      await expectTotals(venueId, { all: 6, active: 5, blocked: 1 });
      await holder.query('ROLLBACK');

      // The fold skips the open change rather than waiting for it, and folds the rest.
      // (Here or by the app's own timer, whichever comes first.)
      const foldStarted = Date.now();
      await testApp.app.get(VenueCountsService).fold();
      expect(Date.now() - foldStarted).toBeLessThan(DB_TIMEOUT_MS);
      expect(await changeIds()).toEqual(['00000000-uncommitted']);
      await expectTotals(venueId, { all: 6, active: 5, blocked: 1 });
      await writer.query('ROLLBACK');
    } finally {
      await writer.end();
    }
    await testApp.app.get(VenueCountsService).fold();
    expect(await changeIds()).toEqual([]);
    await expectTotals(venueId, { all: 6, active: 5, blocked: 1 });
  }, 20_000);

  it("one process folds at a time: while another holds the fold's lock, a fold returns at once and leaves the changes", async () => {
    await testApp.app.get(VenueCountsService).fold();
    const lock = "CONCAT('hotspot_count_fold_', SHA1(DATABASE()))";
    const [[taken]] = await holder.query<mysql.RowDataPacket[]>(`SELECT GET_LOCK(${lock}, 2) AS acquired`);
    expect(Number(taken.acquired)).toBe(1);
    try {
      await testApp.http
        .post(USERS)
        .set('Authorization', auth())
        .send(guestBody({ venueIds: ['fold-venue'] }))
        .expect(201);
      const started = Date.now();
      expect(await testApp.app.get(VenueCountsService).fold()).toBe(0);
      expect(Date.now() - started).toBeLessThan(DB_TIMEOUT_MS);
      expect((await changeIds()).length).toBeGreaterThan(0);
    } finally {
      await holder.query(`DO RELEASE_LOCK(${lock})`);
    }
    // Here or by the app's own timer, whichever comes first.
    await testApp.app.get(VenueCountsService).fold();
    expect(await changeIds()).toEqual([]);
  });

  /** The counter changes not folded yet, committed or not (READ UNCOMMITTED). */
  async function changeIds(): Promise<string[]> {
    await holder.query('SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED');
    const [rows] = await holder.query<mysql.RowDataPacket[]>('SELECT id FROM venue_user_count_changes ORDER BY id');
    return rows.map((row) => String(row.id));
  }

  async function expectTotals(venueId: string, expected: { all: number; active: number; blocked: number }) {
    const totals: Record<string, number> = {};
    for (const [key, status] of [
      ['all', undefined],
      ['active', 'active'],
      ['blocked', 'blocked'],
    ] as const) {
      const response = await testApp.http
        .get(USERS)
        .query({ venueId, ...(status === undefined ? {} : { status }) })
        .set('Authorization', auth())
        .expect(200);
      totals[key] = response.body.pagination.total as number;
    }
    const [rows] = await holder.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM hotspot_user_venues WHERE venue_id = ?',
      [venueId],
    );
    expect(Number(rows[0].n)).toBe(expected.all);
    expect(totals).toEqual(expected);
  }
});
