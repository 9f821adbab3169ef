import type { DataSource, EntityManager } from 'typeorm';
import { DatabaseBusyError } from '../common/errors/database-errors.js';
import { DatabaseService } from './database.service.js';

const driverError = (message: string, code: string, errno: number) =>
  Object.assign(new Error(message), { driverError: { code, errno } });
const deadlock = () => driverError('Query failed', 'ER_LOCK_DEADLOCK', 1213);
const duplicateKey = () => driverError('Duplicate entry', 'ER_DUP_ENTRY', 1062);

/**
 * A MySQL DataSource whose transactions fail with the given errors, in order, then run the work;
 * no database behind it.
 */
function fakeMysql(errors: Array<() => Error>): { database: DatabaseService; transactions: () => number } {
  let transactions = 0;
  const manager = {
    transaction: async (work: (em: EntityManager) => Promise<unknown>) => {
      const next = errors[transactions];
      transactions += 1;
      if (next !== undefined) throw next();
      return work(manager as unknown as EntityManager);
    },
  };
  const dataSource = { options: { type: 'mysql' }, manager } as unknown as DataSource;
  return { database: new DatabaseService(dataSource), transactions: () => transactions };
}

describe('DatabaseService on MySQL (fake data source)', () => {
  it('runs a transaction InnoDB chose as a deadlock victim again', async () => {
    const { database, transactions } = fakeMysql([deadlock, deadlock]);
    await expect(database.transaction(async () => 'committed')).resolves.toBe('committed');
    expect(transactions()).toBe(3);
  });

  it('never retries a duplicate key: the 409 path sees it at once', async () => {
    const { database, transactions } = fakeMysql([duplicateKey]);
    await expect(database.transaction(async () => 'committed')).rejects.toMatchObject({
      driverError: { code: 'ER_DUP_ENTRY' },
    });
    expect(transactions()).toBe(1);
  });

  it('gives up after a handful of deadlocks with DatabaseBusyError (503 with Retry-After)', async () => {
    const { database, transactions } = fakeMysql(Array.from({ length: 20 }, () => deadlock));
    await expect(database.transaction(async () => 'committed')).rejects.toBeInstanceOf(DatabaseBusyError);
    expect(transactions()).toBeGreaterThanOrEqual(3);
    expect(transactions()).toBeLessThanOrEqual(8);
  });
});
