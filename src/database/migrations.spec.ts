import { takeMysqlMigrationLock } from './migrations.js';

/** A connection that answers each GET_LOCK with the next of `answers` (a value of `acquired`, or an error). */
function connection(...answers: Array<number | Error>) {
  const calls: unknown[][] = [];
  return {
    calls,
    query: (sql: string, parameters?: unknown[]) => {
      calls.push([sql, parameters]);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no more answers');
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve([{ acquired: answer }]);
    },
  };
}

/** The error mysql2 raises for a feature the server refuses (MariaDB Galera and GET_LOCK). */
function notSupported(): Error {
  return Object.assign(new Error("This version of MariaDB doesn't yet support 'GET_LOCK in cluster (WSREP_ON=ON)'"), {
    code: 'ER_NOT_SUPPORTED_YET',
    errno: 1235,
  });
}

describe('takeMysqlMigrationLock', () => {
  it('takes a free lock at once, without waiting or a word', async () => {
    const told: string[] = [];
    const db = connection(1);
    await expect(takeMysqlMigrationLock(db, 300_000, (message) => told.push(message))).resolves.toBe(true);
    expect(db.calls).toEqual([[expect.stringContaining('GET_LOCK('), [0]]]);
    expect(told).toEqual([]);
  });

  it('waits for a held lock, says so once, and takes it when let go', async () => {
    const told: string[] = [];
    const db = connection(0, 1);
    await expect(takeMysqlMigrationLock(db, 300_000, (message) => told.push(message))).resolves.toBe(true);
    expect(db.calls.map(([, parameters]) => parameters)).toEqual([[0], [300]]);
    expect(told).toEqual(['Another process is running the migrations: waiting for it, at most 300 s']);
  });

  it('gives up when the lock is still held after the wait', async () => {
    await expect(takeMysqlMigrationLock(connection(0, 0), 5_000, () => undefined)).rejects.toThrow(
      "Gave up waiting for another process's migrations after 5 s",
    );
  });

  it('goes on without a lock, saying so, on a server that has none (a Galera cluster)', async () => {
    const told: string[] = [];
    await expect(
      takeMysqlMigrationLock(connection(notSupported()), 300_000, (message) => told.push(message)),
    ).resolves.toBe(false);
    expect(told).toEqual([expect.stringContaining('This server has no named locks (GET_LOCK; a Galera cluster)')]);
  });

  it('lets any other error through', async () => {
    const refused = Object.assign(new Error('connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' });
    await expect(takeMysqlMigrationLock(connection(refused), 300_000, () => undefined)).rejects.toBe(refused);
  });
});
