import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { newId } from '../src/common/ids.js';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { initializeDataSource } from '../src/database/migrations.js';
import { HotspotUserVenueEntity } from '../src/hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../src/hotspot-users/entities/hotspot-user.entity.js';
import { guestPage } from '../src/hotspot-users/hotspot-users.repository.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { givenGuest } from './support/factories.js';
import { describeEachDatabase } from './support/test-app.js';

/**
 * The migration VenueRowsInBatch marks the venue rows of the batches' accounts that were there before
 * it: from a database holding a batch account and a user of no batch, the migrations are undone down
 * to before the column, then run again.
 */
describe.each(databaseKinds())('the migration of the venue rows batch marker [%s]', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const parsed = parseDatabaseUrl(database.url);
    if ('error' in parsed) throw new Error(parsed.error);
    dataSource = await initializeDataSource({
      ...buildDataSourceOptions(parsed.value, { migrationsRun: true }),
      logging: false,
    });
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  const hasColumn = async () => {
    const runner = dataSource.createQueryRunner();
    try {
      const table = await runner.getTable('hotspot_user_venues');
      return table?.columns.some((column) => column.name === 'in_batch') ?? false;
    } finally {
      await runner.release();
    }
  };

  it('marks the rows of every batch account already there, and no other', async () => {
    const now = new Date('2026-01-02T03:04:05.000Z');
    const user = (name: string, batchId: string | null) =>
      Object.assign(new HotspotUserEntity(), {
        id: newId(),
        name,
        username: null,
        email: null,
        phone: null,
        room: null,
        macAddress: null,
        loginMethod: 'guest',
        status: 'active',
        passwordHash: null,
        expiresAt: null,
        validFor: null,
        firstLoginAt: null,
        metadata: {},
        createdAt: now,
        updatedAt: now,
        batchId,
        planId: null,
        version: 1,
      } satisfies HotspotUserEntity);
    const voucher = user('Voucher', newId());
    const guest = user('Guest', null);
    for (const one of [voucher, guest]) {
      await dataSource.manager.insert(HotspotUserEntity, one);
      for (const venueId of ['migrated-a', 'migrated-b']) {
        await dataSource.manager.insert(HotspotUserVenueEntity, {
          userId: one.id,
          venueId,
          position: venueId === 'migrated-a' ? 0 : 1,
          userStatus: 'active',
          userCreatedAt: now,
          inBatch: false,
        });
      }
    }
    let undone = 0;
    while (await hasColumn()) {
      await dataSource.undoLastMigration({ transaction: 'each' });
      undone += 1;
    }
    expect(undone).toBeGreaterThan(0);
    expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(undone);

    const rows = await dataSource.manager.find(HotspotUserVenueEntity, { order: { venueId: 'ASC' } });
    const marked = (id: string) => rows.filter((row) => row.userId === id).map((row) => row.inBatch);
    expect(marked(voucher.id)).toEqual([true, true]);
    expect(marked(guest.id)).toEqual([false, false]);
  });
});

describeEachDatabase('the list without batch accounts', (current) => {
  const VENUE = 'guests-plan-venue';

  it('reads its page from one range of the index that holds the batch marker, in its order', async () => {
    const testApp = current();
    // Enough rows in the venue that a scan would cost more than the range; a third marked as vouchers.
    const ids: string[] = [];
    for (let i = 0; i < 60; i += 1) ids.push((await givenGuest(testApp, { name: `Plan ${i}`, venueIds: [VENUE] }))._id);
    await testApp.dataSource
      .createQueryBuilder()
      .update(HotspotUserVenueEntity)
      .set({ inBatch: true })
      .where('userId IN (:...ids)', { ids: ids.filter((_id, i) => i % 3 === 0) })
      .execute();
    for (const [status, index] of [
      [undefined, 'idx_user_venues_guests'],
      ['active', 'idx_user_venues_guests_by_status'],
    ] as const) {
      const { sql, params } = guestPage(VENUE, status, { offset: 20, limit: 20 });
      const rows: Array<{ user_id: string; total: number | string }> = await testApp.dataSource.query(sql, params);
      expect([status, rows.length, Number(rows[0].total)]).toEqual([status, 20, 40]);
      if (testApp.kind === 'sqlite') {
        await testApp.dataSource.query('ANALYZE');
        const plan: Array<{ detail: string }> = await testApp.dataSource.query(`EXPLAIN QUERY PLAN ${sql}`, params);
        const details = plan.map((row) => row.detail).join('\n');
        expect(details).toMatch(
          new RegExp(`SEARCH hotspot_user_venues USING COVERING INDEX ${index} \\(venue_id=\\? AND in_batch=\\?`),
        );
        expect(details).not.toMatch(/TEMP B-TREE/);
        expect(details).not.toMatch(/SCAN hotspot_user_venues\b(?! USING)/);
      } else {
        await testApp.dataSource.query('ANALYZE TABLE hotspot_user_venues');
        const plan: Array<{ table: string | null; key: string | null; type: string; Extra: string | null }> =
          await testApp.dataSource.query(`EXPLAIN ${sql}`, params);
        const page = plan.find((row) => row.table === 'hotspot_user_venues' && row.key === index);
        expect([index, page?.key]).toEqual([index, index]);
        expect(page?.Extra ?? '').not.toMatch(/filesort/);
        expect(plan.filter((row) => row.type === 'ALL' && row.table !== null && !row.table.startsWith('<'))).toEqual(
          [],
        );
      }
    }
  });
});
