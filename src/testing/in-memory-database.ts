import { Clock } from '../common/clock.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { DatabaseService } from '../database/database.service.js';
import { initializeDataSource } from '../database/migrations.js';

/** A clock the test moves by hand. */
export class ManualClock extends Clock {
  constructor(private current: Date = new Date('2026-11-22T10:00:00.000Z')) {
    super();
  }

  override now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** A migrated in-memory SQLite database for unit tests of services (real SQL, no server). */
export async function openInMemoryDatabase(): Promise<{ database: DatabaseService; close: () => Promise<void> }> {
  const dataSource = await initializeDataSource(
    buildDataSourceOptions({ type: 'sqlite', path: ':memory:' }, { migrationsRun: true }),
  );
  return { database: new DatabaseService(dataSource), close: () => dataSource.destroy() };
}
