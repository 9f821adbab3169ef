import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { parseDatabaseUrl } from '../src/config/configuration.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { initializeDataSource } from '../src/database/migrations.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';

/** The table names are part of the contract: operators and tests read them. */
const APP_TABLES = [
  'api_tokens',
  'audit_events',
  'console_form_tokens',
  'console_sign_in_failures',
  'devices',
  'guest_identities',
  'hotspot_user_batch_passwords',
  'hotspot_user_batches',
  'hotspot_user_usage',
  'hotspot_user_name_words',
  'hotspot_user_venues',
  'hotspot_users',
  'idempotency_keys',
  'login_attempts',
  'nas_clients',
  'operator_passkeys',
  'operator_recovery_codes',
  'operator_sessions',
  'operators',
  'phone_challenges',
  'phone_code_counters',
  'plan_venues',
  'plans',
  'portal_passes',
  'sessions',
  'sms_messages',
  'terms_acceptances',
  'unauth_jobs',
  'venue_portals',
  'venue_user_buckets',
  'venue_user_count_changes',
  'venue_user_counts',
  'venues',
];

async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> =
    dataSource.options.type === 'better-sqlite3'
      ? await dataSource.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : await dataSource.query(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
        );
  return rows.map((row) => row.name).sort();
}

/** What TypeORM would still change to make the schema match the entities (nothing, when they agree). */
async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

describe.each(databaseKinds())('schema and migrations [%s]', (kind) => {
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

  it('never synchronises the schema from the entities', () => {
    expect(dataSource.options.synchronize).toBe(false);
  });

  it('a fresh database with migrations run has every table, and entities and migrations agree', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
    expect(await tableNames(dataSource)).toEqual([...APP_TABLES, 'migrations'].sort());
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('undoing every migration leaves no application table, and running them again is clean', async () => {
    const count = dataSource.migrations.length;
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i += 1) await dataSource.undoLastMigration({ transaction: 'each' });

    expect(await tableNames(dataSource)).toEqual(['migrations']);
    expect(await dataSource.query('SELECT * FROM migrations')).toEqual([]);
    expect(await dataSource.showMigrations()).toBe(true);
    // The check is not blind: against the empty database it wants every table created.
    const wanted = (await pendingSchemaChanges(dataSource)).join('\n');
    for (const table of APP_TABLES) expect(wanted).toMatch(new RegExp(`CREATE TABLE [\`"]${table}[\`"]`));

    const applied = await dataSource.runMigrations({ transaction: 'each' });
    expect(applied).toHaveLength(count);
    expect(await tableNames(dataSource)).toEqual([...APP_TABLES, 'migrations'].sort());
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
    expect(await dataSource.showMigrations()).toBe(false);
  });
});
