import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { DataSource, type MigrationInterface } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/configuration.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';

export type DatabaseKind = 'sqlite' | 'mysql';

/** A database made for one test run; `drop` removes it. */
export interface TestDatabase {
  kind: DatabaseKind;
  /** A DATABASE_URL the app accepts. */
  url: string;
  drop(): Promise<void>;
}

/** SQLite always; MySQL/MariaDB too when TEST_MYSQL_URL names a server. */
export function databaseKinds(): DatabaseKind[] {
  return process.env.TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];
}

function uniqueName(): string {
  return `hotspot_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const name = uniqueName();
  if (kind === 'sqlite') {
    // A folder of its own: what a process keeps beside the database (the key file) stays with it.
    const folder = mkdtempSync(join(tmpdir(), `${name}-`));
    const path = join(folder, 'hotspot.sqlite');
    return {
      kind,
      url: `sqlite:${path}`,
      drop: async () => {
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.TEST_MYSQL_URL;
  if (!serverUrl) throw new Error('TEST_MYSQL_URL is not set');
  const server = new URL(serverUrl);
  const connect = () =>
    mysql.createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
    });
  const admin = await connect();
  let isMariaDb: boolean;
  try {
    const [rows] = await admin.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
    isMariaDb = String(rows[0].version).includes('MariaDB');
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  // The mariadb scheme makes TypeORM read MariaDB's schema correctly (the migration check needs it).
  url.protocol = isMariaDb ? 'mariadb:' : 'mysql:';
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    drop: async () => {
      const connection = await connect();
      try {
        await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await connection.end();
      }
    },
  };
}

/**
 * A data source on `database` that knows only `migrations` (a release's set, to build the schema
 * that release left), not yet migrated; the caller destroys it.
 */
export function openWithMigrations(
  database: TestDatabase,
  migrations: Array<new () => MigrationInterface>,
): Promise<DataSource> {
  const parsed = parseDatabaseUrl(database.url);
  if ('error' in parsed) throw new Error(parsed.error);
  return new DataSource({ ...buildDataSourceOptions(parsed.value), migrations, logging: false }).initialize();
}
