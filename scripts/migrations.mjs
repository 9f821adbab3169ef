// Migration files, one pair per change (migrations/mysql and migrations/sqlite), each listed in its
// folder's index.ts, oldest first, with timestamps in strictly increasing order.
//
//   node scripts/migrations.mjs new Name        empty pair, dated after every existing migration
//   node scripts/migrations.mjs generate PATH   (npm run migration:generate -- migrations/<dialect>/Name)
//                                               brings DATABASE_URL's scratch database up to date, then
//                                               writes what the entities add to it, dated after every
//                                               existing migration, and lists it in the index
//   node scripts/migrations.mjs next-timestamp  the timestamp the next migration takes
//
// Some early migrations are dated in the future: databases in the field know them by name, so they
// stay, and a new one is dated after the latest of them rather than today.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIALECTS = { mysql: 'MYSQL_MIGRATIONS', sqlite: 'SQLITE_MIGRATIONS' };
const NAME_PATTERN = /^[A-Z][A-Za-z0-9]{2,63}$/;
const FILE_PATTERN = /^(\d{13})-([A-Z][A-Za-z0-9]*)\.ts$/;

/** Every migration file of `dialect`: [{timestamp, name, file}], oldest first. */
export function migrationFiles(root, dialect) {
  return readdirSync(join(root, 'migrations', dialect))
    .map((file) => FILE_PATTERN.exec(file))
    .filter((match) => match !== null)
    .map(([file, timestamp, name]) => ({ timestamp: Number(timestamp), name, file }))
    .sort((a, b) => a.timestamp - b.timestamp);
}

/** Later than every existing migration of either dialect, in whole seconds, and not before now. */
export function nextTimestamp(root, now = Date.now()) {
  const latest = Math.max(0, ...Object.keys(DIALECTS).flatMap((d) => migrationFiles(root, d).map((m) => m.timestamp)));
  return Math.max(Math.floor(now / 1000) * 1000, latest + 1000);
}

/** Adds the import and the list entry of migration `name` at `timestamp` to the dialect's index.ts. */
export function listInIndex(root, dialect, timestamp, name) {
  const path = join(root, 'migrations', dialect, 'index.ts');
  const className = `${name}${timestamp}`;
  let text = readFileSync(path, 'utf8');
  const imports = [...text.matchAll(/^import \{ \w+ \} from '\.\/\d{13}-\w+\.js';$/gm)];
  const line = `import { ${className} } from './${timestamp}-${name}.js';`;
  const lastImport = imports.at(-1);
  if (lastImport === undefined) throw new Error(`${relative(root, path)}: no migration import found`);
  const afterImports = lastImport.index + lastImport[0].length;
  text = `${text.slice(0, afterImports)}\n${line}${text.slice(afterImports)}`;
  const listEnd = text.lastIndexOf('\n];');
  if (listEnd < 0) throw new Error(`${relative(root, path)}: the list of ${DIALECTS[dialect]} was not found`);
  text = `${text.slice(0, listEnd)}\n  ${className},${text.slice(listEnd)}`;
  writeFileSync(path, text);
}

function emptyMigration(timestamp, name, dialect) {
  const className = `${name}${timestamp}`;
  const comment =
    dialect === 'mysql' ? '/** TODO: what this change is for. */' : '/** See the mysql migration of the same name. */';
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';

${comment}
export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {}

  async down(queryRunner: QueryRunner): Promise<void> {}
}
`;
}

/** Creates the empty pair of migration `name`; returns the paths written. */
export function createMigration(root, name, now = Date.now()) {
  if (!NAME_PATTERN.test(name)) {
    throw new Error(`the name must be PascalCase, 3-64 letters and digits, such as AddUserNotes (not "${name}")`);
  }
  for (const dialect of Object.keys(DIALECTS)) {
    if (migrationFiles(root, dialect).some((migration) => migration.name === name)) {
      throw new Error(`a migration named ${name} exists already in migrations/${dialect}`);
    }
  }
  const timestamp = nextTimestamp(root, now);
  return Object.keys(DIALECTS).map((dialect) => {
    const path = join(root, 'migrations', dialect, `${timestamp}-${name}.ts`);
    writeFileSync(path, emptyMigration(timestamp, name, dialect));
    listInIndex(root, dialect, timestamp, name);
    return relative(root, path);
  });
}

function typeorm(args) {
  const cli = join(ROOT, 'node_modules/typeorm/cli.js');
  const result = spawnSync(process.execPath, [cli, ...args, '-d', 'dist/src/database/data-source.js'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function generate(path) {
  const match = /^migrations\/(mysql|sqlite)\/([A-Z][A-Za-z0-9]{2,63})$/.exec(relative(ROOT, resolve(path ?? '')));
  if (match === null)
    throw new Error('usage: npm run migration:generate -- migrations/<mysql|sqlite>/<PascalCaseName>');
  const [, dialect, name] = match;
  const timestamp = nextTimestamp(ROOT);
  // A scratch database that lacks the released migrations would make the new one re-create the schema.
  typeorm(['migration:run']);
  typeorm(['migration:generate', `migrations/${dialect}/${name}`, '--pretty', '-t', String(timestamp)]);
  if (existsSync(join(ROOT, 'migrations', dialect, `${timestamp}-${name}.ts`))) {
    listInIndex(ROOT, dialect, timestamp, name);
    process.stdout.write(`listed ${name}${timestamp} in migrations/${dialect}/index.ts\n`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, argument] = process.argv.slice(2);
  const root = process.env.MIGRATIONS_ROOT ? resolve(process.env.MIGRATIONS_ROOT) : ROOT;
  try {
    if (command === 'new') {
      for (const path of createMigration(root, argument ?? '')) process.stdout.write(`${path}\n`);
    } else if (command === 'next-timestamp') {
      process.stdout.write(`${nextTimestamp(root)}\n`);
    } else if (command === 'generate') {
      generate(argument);
    } else {
      throw new Error(`usage: node ${basename(process.argv[1])} new <Name> | generate <path> | next-timestamp`);
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
