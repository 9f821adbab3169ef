import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs one INSERT, UPDATE or DELETE written as plain SQL (`?` placeholders) and returns how many
 * rows it changed; EntityManager.query gives that on neither driver. On the caller's transaction
 * when there is one.
 */
export async function changedRows(em: EntityManager, sql: string, parameters: readonly unknown[]): Promise<number> {
  const runner = em.queryRunner ?? em.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, [...parameters], true);
    return result.affected ?? 0;
  } finally {
    if (em.queryRunner === undefined) await runner.release();
  }
}

/**
 * Whether `source` is the embedded SQLite database, whose SQL differs from MySQL's in places (no
 * multi-table UPDATE, no row locks). The one test of the dialect: DatabaseService and the
 * repositories both ask here.
 */
export function isSqlite(source: DataSource): boolean {
  return source.options.type === 'better-sqlite3';
}
