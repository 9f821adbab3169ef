import 'reflect-metadata';
import { type DataSource, type MigrationInterface } from 'typeorm';
import { MYSQL_MIGRATIONS } from '../migrations/mysql/index.js';
import { UnauthJobNotSent1797753603000 as MysqlUnauthJobNotSent } from '../migrations/mysql/1797753603000-UnauthJobNotSent.js';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite/index.js';
import { UnauthJobNotSent1797753603000 as SqliteUnauthJobNotSent } from '../migrations/sqlite/1797753603000-UnauthJobNotSent.js';
import { createTestDatabase, databaseKinds, openWithMigrations, type TestDatabase } from './support/databases.js';

/**
 * The migration that records why a done job left sessions unsent: jobs done before it that only the
 * log dispatcher took, with sessions, are marked as sent nowhere (the quick start's old default);
 * every other job keeps none.
 */

const AT = '2030-01-01T00:00:00.000Z';
const SESSION = '[{"id":"s1","venueId":"venue-a","macAddress":"AA:BB:CC:DD:EE:01","ipAddress":null,"nasId":null}]';
const delivery = (status: string) => `{"status":"${status}","attempts":1,"lastError":null,"at":"${AT}"}`;
const RADIUS_ACKED = `{"status":"done","attempts":1,"lastError":null,"at":"${AT}","sessions":{"s1":{"result":"acked","errorCause":null,"detail":null,"nas":"n","attempts":1,"at":"${AT}"}}}`;

/** id, status, sessions, deliveries, and the reason the migration must leave. */
const JOBS: Array<[string, string, string, string | null, string | null]> = [
  ['log-only', 'done', SESSION, `{"log":${delivery('done')}}`, 'no-radius-dispatcher'],
  ['log-no-session', 'done', '[]', `{"log":${delivery('done')}}`, null],
  ['log-and-webhook', 'done', SESSION, `{"log":${delivery('done')},"webhook":${delivery('done')}}`, null],
  ['log-and-radius', 'done', SESSION, `{"log":${delivery('done')},"radius":${RADIUS_ACKED}}`, null],
  ['webhook-then-log', 'done', SESSION, `{"webhook":${delivery('done')},"log":${delivery('done')}}`, null],
  ['log-failed', 'failed', SESSION, `{"log":${delivery('failed')}}`, null],
  ['log-pending', 'pending', SESSION, null, null],
];

describe.each(databaseKinds())('migration UnauthJobNotSent [%s]', (kind) => {
  let database: TestDatabase;
  const dataSources: DataSource[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    for (const dataSource of dataSources) if (dataSource.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  async function open(migrations: Array<new () => MigrationInterface>): Promise<DataSource> {
    const dataSource = await openWithMigrations(database, migrations);
    dataSources.push(dataSource);
    return dataSource;
  }

  it('marks the done jobs with sessions that only the log took, and no other', async () => {
    const all = kind === 'sqlite' ? SQLITE_MIGRATIONS : MYSQL_MIGRATIONS;
    const migration = kind === 'sqlite' ? SqliteUnauthJobNotSent : MysqlUnauthJobNotSent;
    const before = await open(all.slice(0, all.indexOf(migration)));
    await before.runMigrations({ transaction: 'each' });
    for (const [id, status, sessions, deliveries] of JOBS) {
      await before.query(
        'INSERT INTO unauth_jobs (id, user_id, username, reason, sessions, status, deliveries, attempts,' +
          ' next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [id, 'user-1', 'guest', 'blocked', sessions, status, deliveries, 1, AT, AT, AT].map((value) =>
          value === AT ? '2030-01-01 00:00:00.000' : value,
        ),
      );
    }
    await before.destroy();

    const after = await open(all);
    const applied = await after.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toContain('UnauthJobNotSent1797753603000');
    const rows: Array<{ id: string; not_sent_reason: string | null }> = await after.query(
      'SELECT id, not_sent_reason FROM unauth_jobs',
    );
    const reasons = Object.fromEntries(rows.map((row) => [row.id, row.not_sent_reason]));
    expect(reasons).toEqual(Object.fromEntries(JOBS.map(([id, , , , reason]) => [id, reason])));
  });
});
