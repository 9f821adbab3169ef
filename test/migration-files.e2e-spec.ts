import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MigrationInterface } from 'typeorm';
import { MYSQL_MIGRATIONS } from '../migrations/mysql/index.js';
import { SQLITE_MIGRATIONS } from '../migrations/sqlite/index.js';
import { ROOT } from './support/build.js';

/**
 * TypeORM runs migrations in the order of their timestamps. A new migration dated before a released
 * one would run before it on a fresh database, and be skipped as "older" by nobody: so the lists are
 * strictly increasing, the released ones come first, unchanged, and `npm run migration:new` dates a
 * new pair after every existing migration.
 */

const LISTS: Record<string, Array<new () => MigrationInterface>> = {
  mysql: MYSQL_MIGRATIONS,
  sqlite: SQLITE_MIGRATIONS,
};
const RELEASED = JSON.parse(readFileSync(join(ROOT, 'migrations/released.json'), 'utf8')) as Record<string, string[]>;

const namesOf = (list: Array<new () => MigrationInterface>) => list.map((migration) => new migration().name!);
const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)?.[1]);

describe.each(Object.keys(LISTS))('the %s migrations', (dialect) => {
  const names = namesOf(LISTS[dialect]);

  it('are listed with strictly increasing timestamps, each name its class name', () => {
    for (const migration of LISTS[dialect]) expect(new migration().name).toBe(migration.name);
    const timestamps = names.map(timestampOf);
    expect(timestamps.every((timestamp) => Number.isInteger(timestamp))).toBe(true);
    expect(timestamps.every((timestamp, index) => index === 0 || timestamp > timestamps[index - 1])).toBe(true);
  });

  it('are every file of the folder, each file named after its migration', () => {
    const files = readdirSync(join(ROOT, 'migrations', dialect))
      .filter((file) => file !== 'index.ts')
      .sort();
    const expected = names.map((name) => `${timestampOf(name)}-${name.replace(/\d{13}$/, '')}.ts`).sort();
    expect(files).toEqual(expected);
  });

  it('begin with the released ones, in their order, and date every later one after them', () => {
    const released = Object.values(RELEASED).flat();
    expect(names.slice(0, released.length)).toEqual(released);
    const lastReleased = timestampOf(released[released.length - 1]);
    for (const name of names.slice(released.length)) expect(timestampOf(name)).toBeGreaterThan(lastReleased);
  });
});

it('both dialects have the same migrations', () => {
  expect(namesOf(MYSQL_MIGRATIONS)).toEqual(namesOf(SQLITE_MIGRATIONS));
});

describe('npm run migration:new', () => {
  let root: string;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'scripts/migrations.mjs'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, MIGRATIONS_ROOT: root },
    });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hotspot-migrations-'));
    cpSync(join(ROOT, 'migrations'), join(root, 'migrations'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes an empty pair dated after every existing migration and lists it in both indexes', () => {
    const latest = Math.max(...namesOf(MYSQL_MIGRATIONS).map(timestampOf));
    const result = run('new', 'AddGuestNotes');
    expect(result.status).toBe(0);
    const paths = result.stdout.trim().split('\n');
    expect(paths).toHaveLength(2);
    const timestamp = Number(/migrations\/mysql\/(\d{13})-AddGuestNotes\.ts/.exec(paths[0])?.[1]);
    expect(timestamp).toBeGreaterThan(latest);
    expect(paths[1]).toBe(`migrations/sqlite/${timestamp}-AddGuestNotes.ts`);
    for (const dialect of ['mysql', 'sqlite']) {
      const file = readFileSync(join(root, 'migrations', dialect, `${timestamp}-AddGuestNotes.ts`), 'utf8');
      expect(file).toContain(`export class AddGuestNotes${timestamp} implements MigrationInterface`);
      expect(file).toContain(`name = 'AddGuestNotes${timestamp}';`);
      const index = readFileSync(join(root, 'migrations', dialect, 'index.ts'), 'utf8');
      expect(index).toContain(`import { AddGuestNotes${timestamp} } from './${timestamp}-AddGuestNotes.js';`);
      expect(index.trimEnd()).toMatch(new RegExp(`  AddGuestNotes${timestamp},\\n\\];$`));
    }
    const next = run('next-timestamp');
    expect(Number(next.stdout)).toBeGreaterThan(timestamp);
  });

  it('refuses a name that is not PascalCase or that exists, and writes nothing', () => {
    const before = readdirSync(join(root, 'migrations/mysql')).length;
    for (const name of ['', 'lowercase', 'Has-Dash', 'NasAcceptsCoa', '../Escape']) {
      const result = run('new', name);
      expect(result.status).toBe(2);
      expect(result.stderr).not.toBe('');
    }
    expect(readdirSync(join(root, 'migrations/mysql'))).toHaveLength(before);
    expect(existsSync(join(root, 'migrations/mysql/lowercase.ts'))).toBe(false);
  });
});
