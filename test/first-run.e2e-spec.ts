import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { FIRST_START_CREDENTIALS_FILE } from '../src/common/logging/first-start-credentials.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { initializeDataSource } from '../src/database/migrations.js';
import { verify as verifyPassword } from '@node-rs/argon2';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { checkoutCommit, ensureBuilt, ROOT } from './support/build.js';
import { CLI_MAIN } from './support/cli-io.js';
import { createTestDatabase } from './support/databases.js';
import { freePort, startService, type Service } from './support/service-process.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * What an operator sees when starting the compiled service (`node dist/src/main.js`) for the first
 * time, its output piped as under a process manager: the service's own lines only (Nest's start-up
 * lines are debug), then the listening line naming the database, then a line naming the 0600 file
 * that holds the generated credentials (on a terminal they are printed too); on SIGTERM a final
 * "Stopped" line. LOG_FORMAT picks pretty or JSON lines.
 */

const MAIN = join(ROOT, 'dist/src/main.js');
const FRAMEWORK_CONTEXTS = ['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication'];

interface LogLine {
  level: string;
  msg?: unknown;
  context?: string;
  [field: string]: unknown;
}

/** The JSON log lines in the output, in order (the banner's plain lines are not log lines). */
function jsonLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The operators stored in the SQLite file at `path`, read as the service reads them. */
async function operatorsIn(path: string): Promise<OperatorEntity[]> {
  const dataSource = await initializeDataSource(
    buildDataSourceOptions({ type: 'sqlite', path }, { migrationsRun: false }),
  );
  try {
    return await dataSource.getRepository(OperatorEntity).find();
  } finally {
    await dataSource.destroy();
  }
}

const FIRST_ADMIN_BLOCK = 'No console operator existed, so an administrator was created';

describe('first start of the compiled service', () => {
  let dir: string;
  let port: number;
  const services: Service[] = [];

  beforeAll(() => {
    ensureBuilt([MAIN, CLI_MAIN]);
  }, 120_000);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotspot-first-run-'));
    port = await freePort();
  });

  afterEach(() => {
    for (const service of services.splice(0)) {
      if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  function start(env: Record<string, string>): Service {
    const service = startService(MAIN, { PORT: String(port), HOST: '127.0.0.1', ...env }, dir);
    services.push(service);
    return service;
  }

  /** The credentials file a first start wrote beside the database: its text, after checking it is private. */
  function credentialsFile(): string {
    const path = join(dir, 'data', FIRST_START_CREDENTIALS_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    return readFileSync(path, 'utf8');
  }

  it('JSON when piped: no framework lines at info, the credentials in a 0600 file named by the last line, "Stopped" last', async () => {
    const service = start({ DATABASE_URL: 'sqlite:data/hotspot.sqlite' });
    await service.waitForOutput(/readable by this user only/, 20_000);

    const output = service.output();
    const lines = jsonLines(output);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(typeof line.msg).toBe('string');
    expect(lines.filter((line) => FRAMEWORK_CONTEXTS.includes(String(line.context)))).toEqual([]);

    const sqlitePath = join(dir, 'data/hotspot.sqlite');
    const file = join(dir, 'data', FIRST_START_CREDENTIALS_FILE);
    expect(lines.at(-2)).toMatchObject({ level: 'info', context: 'Main' });
    expect(String(lines.at(-2)?.msg)).toContain(`database: SQLite file ${sqlitePath}`);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', context: 'Main' });
    expect(String(lines.at(-1)?.msg)).toContain(`were written to ${file}, readable by this user only`);
    // Nothing but log lines: the output (a process manager's log) holds no token and no password.
    expect(output.split('\n').filter((line) => line !== '' && !line.startsWith('{'))).toEqual([]);
    expect(output).not.toContain('hsp_');

    const credentials = credentialsFile();
    expect(credentials).toContain('No API token existed, so one was created');
    expect(credentials).toContain(`Database: SQLite file ${sqlitePath}`);
    // The token written works.
    const token = /^ {4}(hsp_\S+)$/m.exec(credentials)?.[1];
    const status = await fetch(`http://127.0.0.1:${port}/api/v1`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    });
    expect(status.status).toBe(200);

    service.child.kill('SIGTERM');
    expect((await service.exited(15_000)).code).toBe(0);
    expect(jsonLines(service.output()).at(-1)).toMatchObject({ level: 'info', context: 'Main', msg: 'Stopped' });
  }, 40_000);

  it('on a terminal, prints the token and the administrator after the listening line, and keeps them in the file', async () => {
    // `script` gives the service a terminal; its process group is ended as a whole.
    const child = spawn('script', ['-qfec', `${process.execPath} ${MAIN}`, '/dev/null'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: 'sqlite:data/hotspot.sqlite' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      const deadline = Date.now() + 20_000;
      while (!output.includes('(readable by you only)') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const text = output.replaceAll('\r\n', '\n');
      const listening = text.indexOf('Hotspot API listening on');
      expect(listening).toBeGreaterThan(-1);
      expect(text.indexOf('No API token existed, so one was created')).toBeGreaterThan(listening);
      expect(text.indexOf(FIRST_ADMIN_BLOCK)).toBeGreaterThan(text.indexOf('No API token existed'));
      const file = join(dir, 'data', FIRST_START_CREDENTIALS_FILE);
      expect(text).toContain(`They are also in ${file} (readable by you only).`);
      const shownToken = /^ {4}(hsp_\S+)$/m.exec(text)?.[1];
      expect(shownToken).toBeDefined();
      expect(credentialsFile()).toContain(`    ${shownToken}\n`);
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }
  }, 40_000);

  it('creates the first console administrator once and writes how to sign in beside the token, never in a log line', async () => {
    const first = start({ DATABASE_URL: 'sqlite:data/hotspot.sqlite' });
    await first.waitForOutput(/readable by this user only/, 20_000);
    first.child.kill('SIGTERM');
    expect((await first.exited(15_000)).code).toBe(0);
    const output = first.output();
    const credentials = credentialsFile();
    const block = credentials.slice(credentials.indexOf(FIRST_ADMIN_BLOCK));
    expect(credentials.indexOf(FIRST_ADMIN_BLOCK)).toBeGreaterThan(credentials.indexOf('No API token existed'));
    expect(block).toContain(`    http://127.0.0.1:${port}/admin/login\n`);
    expect(block).toContain('    Email:    admin@localhost\n');
    const password = /^ {4}Password: (\S+)$/m.exec(block)?.[1];
    expect(password).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/);
    expect(block).toContain('shown only once and must be changed at the first sign-in');
    expect(output).not.toContain(String(password));

    const [admin, ...others] = await operatorsIn(join(dir, 'data/hotspot.sqlite'));
    expect(others).toEqual([]);
    expect(admin).toMatchObject({
      email: 'admin@localhost',
      emailKey: 'admin@localhost',
      permissions: ['read', 'write', 'delete'],
      venueIds: null,
      status: 'active',
      totpSecret: null,
    });
    expect(Boolean(admin.admin)).toBe(true);
    expect(Boolean(admin.mustChangePassword)).toBe(true);
    // The one-time password works for 72 hours (OPERATOR_ONE_TIME_PASSWORD_HOURS).
    expect(admin.oneTimePasswordExpiresAt!.getTime() - admin.createdAt.getTime()).toBe(72 * 3_600_000);
    expect(await verifyPassword(admin.passwordHash, String(password))).toBe(true);

    // A second start finds the operator and the token: nothing generated, no file written again.
    rmSync(join(dir, 'data', FIRST_START_CREDENTIALS_FILE));
    const second = start({ DATABASE_URL: 'sqlite:data/hotspot.sqlite' });
    await second.waitForOutput(/Hotspot API listening on/, 20_000);
    second.child.kill('SIGTERM');
    expect((await second.exited(15_000)).code).toBe(0);
    expect(second.output()).not.toContain('readable by this user only');
    expect(existsSync(join(dir, 'data', FIRST_START_CREDENTIALS_FILE))).toBe(false);
    expect((await operatorsIn(join(dir, 'data/hotspot.sqlite'))).map((operator) => operator.id)).toEqual([admin.id]);
  }, 60_000);

  it('names the first administrator ADMIN_EMAIL, and writes the block alone when the token was configured', async () => {
    const service = start({
      DATABASE_URL: 'sqlite:data/hotspot.sqlite',
      BOOTSTRAP_TOKEN: 'hsp_' + 'b'.repeat(40),
      ADMIN_EMAIL: 'Root@WiFi.example',
    });
    await service.waitForOutput(/readable by this user only/, 20_000);
    const credentials = credentialsFile();
    expect(credentials).not.toContain('No API token existed');
    expect(credentials.indexOf(FIRST_ADMIN_BLOCK)).toBeGreaterThan(-1);
    expect(credentials).toContain('    Email:    Root@WiFi.example\n');
    const [admin] = await operatorsIn(join(dir, 'data/hotspot.sqlite'));
    expect(admin).toMatchObject({ email: 'Root@WiFi.example', emailKey: 'root@wifi.example' });
  }, 40_000);

  it("shows Nest's start-up lines at LOG_LEVEL=debug, as debug lines", async () => {
    const service = start({
      DATABASE_URL: 'sqlite:data/hotspot.sqlite',
      LOG_LEVEL: 'debug',
      BOOTSTRAP_TOKEN: 'hsp_' + 'a'.repeat(40),
    });
    await service.waitForOutput(/Hotspot API listening on/, 20_000);
    const framework = jsonLines(service.output()).filter((line) => FRAMEWORK_CONTEXTS.includes(String(line.context)));
    expect(framework.map((line) => line.msg)).toEqual(expect.arrayContaining(['AppModule dependencies initialized']));
    expect(new Set(framework.map((line) => line.level))).toEqual(new Set(['debug']));
  }, 40_000);

  it('LOG_FORMAT=pretty writes human-readable lines, even when piped', async () => {
    const service = start({ DATABASE_URL: 'sqlite:data/hotspot.sqlite', LOG_FORMAT: 'pretty' });
    await service.waitForOutput(/readable by this user only/, 20_000);
    service.child.kill('SIGTERM');
    expect((await service.exited(15_000)).code).toBe(0);
    const output = service.output();
    expect(output).not.toMatch(/^\{/m);
    expect(output).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Main\] Hotspot API listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1/m,
    );
    // The build it runs: the package version and the commit it was built from.
    const commit = checkoutCommit();
    expect(output).toContain(
      `/api/v1 (version ${PACKAGE_VERSION}${commit === null ? '' : `+${commit.slice(0, 12)}`}, docs:`,
    );
    expect(output.trimEnd()).toMatch(/\n\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[Main\] Stopped$/);
  }, 40_000);

  it('refuses an unknown LOG_FORMAT at start-up, naming the variable', async () => {
    const service = start({ DATABASE_URL: 'sqlite:data/hotspot.sqlite', LOG_FORMAT: 'text' });
    expect((await service.exited(15_000)).code).toBe(1);
    expect(service.output()).toContain('LOG_FORMAT: must be one of pretty, json');
  }, 20_000);

  const onMysql = process.env.TEST_MYSQL_URL ? it : it.skip;
  onMysql(
    'on MySQL without a token, logs the exact command that creates one, password masked; it works as shown',
    async () => {
      const database = await createTestDatabase('mysql');
      const server = new URL(String(process.env.TEST_MYSQL_URL));
      const admin = await mysql.createConnection({
        host: server.hostname,
        port: Number(server.port || 3306),
        user: decodeURIComponent(server.username),
        password: decodeURIComponent(server.password),
      });
      const user = `hotspot_fr_${randomBytes(4).toString('hex')}`;
      const password = `pw-${randomBytes(6).toString('hex')}&x`;
      try {
        await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [user, '%', password]);
        await admin.query(`GRANT ALL PRIVILEGES ON \`${new URL(database.url).pathname.slice(1)}\`.* TO ?@?`, [
          user,
          '%',
        ]);
        const url = new URL(database.url);
        url.username = user;
        url.password = encodeURIComponent(password);
        const service = start({ DATABASE_URL: url.toString() });
        await service.waitForOutput(/No API token exists/, 20_000);
        const lines = jsonLines(service.output());
        const warning = lines.at(-1);
        expect(warning).toMatchObject({ level: 'warn', context: 'Main' });
        expect(String(lines.at(-2)?.msg)).toMatch(
          /Hotspot API listening on .*database: (MySQL|MariaDB) database hotspot_test_/,
        );
        const message = String(warning?.msg);
        expect(message).not.toContain(password);
        expect(message).not.toContain(encodeURIComponent(password));
        const command =
          /: (DATABASE_URL=.* node dist\/src\/cli\/main\.js token create --name admin --permissions read,write,delete);/.exec(
            message,
          )?.[1];
        expect(command).toContain(`${user}:****@`);

        // The command as shown, run from the service's folder with the password put in.
        const run = spawnSync('sh', ['-c', String(command).replace('****', encodeURIComponent(password))], {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '' },
          encoding: 'utf8',
          timeout: 30_000,
        });
        expect(run.stderr).not.toMatch(/error/i);
        expect(run.status).toBe(0);
        expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^hsp_\S{43}$/);

        service.child.kill('SIGTERM');
        expect((await service.exited(15_000)).code).toBe(0);
        // No console administrator either: it is made with `hotspot operator create` on MySQL.
        expect(service.output()).not.toContain(FIRST_ADMIN_BLOCK);
        const [rows] = await admin.query<mysql.RowDataPacket[]>(
          `SELECT COUNT(*) AS operators FROM \`${new URL(database.url).pathname.slice(1)}\`.operators`,
        );
        expect(Number(rows[0].operators)).toBe(0);
      } finally {
        await admin.query('DROP USER IF EXISTS ?@?', [user, '%']).catch(() => undefined);
        await admin.end();
        await database.drop();
      }
    },
    60_000,
  );
});
