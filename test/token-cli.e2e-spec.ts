import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiTokenService } from '../src/auth/api-token.service.js';
import { hashTokenValue, visiblePrefix } from '../src/auth/token-value.js';
import { ensureBuilt } from './support/build.js';
import { CLI_MAIN, contextRuntime, runCli, spawnCli, type CliRun } from './support/cli-io.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { describeEachDatabase, startTestApp, type TestApp } from './support/test-app.js';

/** The DATABASE_URL a test app runs on, so a second (CLI) process can open the same database. */
function databaseUrlOf(testApp: TestApp): string {
  const options = testApp.dataSource.options as { type: string; database?: string; url?: string };
  if (options.type === 'better-sqlite3') return `sqlite:${options.database}`;
  return options.type === 'mariadb' ? options.url!.replace(/^mysql:/, 'mariadb:') : options.url!;
}

const FUTURE = '2099-06-30T12:00:00Z';

describeEachDatabase('token CLI (in-process main(), the app services)', (current) => {
  const run = (...argv: string[]): Promise<CliRun> => runCli(contextRuntime(current().app), 'token', ...argv);
  const get = (token: string) => current().http.get('/api/v1').set('Authorization', `Bearer ${token}`);

  it('create prints the token value alone on stdout, and the value authenticates', async () => {
    const result = await run('create', '--name', 'portal', '--permissions', 'read');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^hsp_[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toContain('shown only this once');
    expect(result.stderr).not.toContain(result.stdout.trim());
    await get(result.stdout.trim()).expect(200);
  });

  it('create --json prints one JSON object with the value and the normalised fields', async () => {
    const result = await run(
      'create',
      '--name',
      '  venue admin  ',
      '--permissions',
      'write, read',
      '--venues',
      'ist-1,ank:2,ist-1',
      '--expires-at',
      '2099-06-30T15:00:00.123456+03:00',
      '--json',
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const body = JSON.parse(lines[0]);
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'id', 'name', 'permissions', 'prefix', 'token', 'venueIds']);
    expect(body).toMatchObject({
      name: 'venue admin',
      permissions: ['read', 'write'],
      venueIds: ['ist-1', 'ank:2'],
      expiresAt: '2099-06-30T12:00:00.123Z',
    });
    expect(body.token).toMatch(/^hsp_/);
    expect(body.prefix).toBe(body.token.slice(0, 10));
    await get(body.token).expect(200);
  });

  it('list shows the tokens without values or hashes', async () => {
    const created = JSON.parse((await run('create', '--name', 'lister', '--permissions', 'delete', '--json')).stdout);
    const text = await run('list');
    expect(text.code).toBe(0);
    const [header, ...rows] = text.stdout.trimEnd().split('\n');
    expect(header).toMatch(
      /^ID\s+NAME\s+PREFIX\s+PERMISSIONS\s+VENUES\s+STATUS\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED$/,
    );
    const row = rows.find((line) => line.startsWith(created.id));
    expect(row).toBeDefined();
    expect(row).toContain('lister');
    // The public prefix and 6 characters of the random part, to tell tokens apart: no more.
    expect(row!.split(/\s{2,}/)[2]).toBe(`${created.token.slice(0, 10)}…`);
    expect(text.stdout).not.toContain(created.token.slice(0, 11));
    expect(row).toContain('(all)');
    expect(row).toContain('active');
    expect(text.stdout).not.toContain(created.token);
    expect(text.stdout).not.toContain(hashTokenValue(created.token));

    const json = await run('list', '--json');
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout);
    expect(Array.isArray(list)).toBe(true);
    const entry = list.find((item: { id: string }) => item.id === created.id);
    expect(entry).toEqual({
      id: created.id,
      name: 'lister',
      prefix: created.token.slice(0, 10),
      permissions: ['delete'],
      venueIds: null,
      status: 'active',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect(json.stdout).not.toContain(created.token);
    expect(json.stdout).not.toContain(hashTokenValue(created.token));
    // The bootstrap token of the test app is listed too, the same way.
    const bootstrap = current().adminToken;
    expect(list.find((item: { name: string }) => item.name === 'bootstrap')).toMatchObject({
      prefix: visiblePrefix(bootstrap),
    });
    expect(json.stdout).not.toContain(bootstrap.slice(0, visiblePrefix(bootstrap).length + 1));
  });

  it('revoke by id makes the token fail with 401 and shows it as revoked', async () => {
    const created = JSON.parse((await run('create', '--name', 'to-revoke', '--permissions', 'read', '--json')).stdout);
    await get(created.token).expect(200);
    const result = await run('revoke', created.id);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Revoked token ${created.id}`);
    await get(created.token).expect(401);

    const list = JSON.parse((await run('list', '--json')).stdout);
    const entry = list.find((item: { id: string }) => item.id === created.id);
    expect(entry.status).toBe('revoked');
    expect(entry.revokedAt).not.toBeNull();

    const again = await run('revoke', created.id, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: created.id, alreadyRevoked: true });
  });

  it('revoke by token value works and never echoes the value', async () => {
    const token = (await run('create', '--name', 'by-value', '--permissions', 'read')).stdout.trim();
    await get(token).expect(200);
    const result = await run('revoke', token);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(token);
    await get(token).expect(401);
  });

  it('revoke of an unknown id or value exits 1 with nothing on stdout', async () => {
    const secretLooking = 'hsp_not-a-real-token-value-aaaaaaaaaaaaaaaaaaaa';
    const result = await run('revoke', secretLooking);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'No token matches that id or value.\n' });
    expect((await run('revoke', '0190d5a0-0000-7000-8000-000000000000')).code).toBe(1);
  });

  it.each([
    [[]],
    [['frobnicate']],
    [['create']],
    [['create', '--permissions', 'read']],
    [['create', '--name', 'x']],
    [['create', '--name', '', '--permissions', 'read']],
    [['create', '--name', '   ', '--permissions', 'read']],
    [['create', '--name', 'x'.repeat(101), '--permissions', 'read']],
    [['create', '--name', 'tab\there', '--permissions', 'read']],
    [['create', '--name', 'x', '--permissions', '']],
    [['create', '--name', 'x', '--permissions', 'admin']],
    [['create', '--name', 'x', '--permissions', 'read,']],
    [['create', '--name', 'x', '--permissions', 'READ']],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', '']],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'a b']],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'a,,b']],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'v'.repeat(65)]],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'café']],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-06-30']],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-06-30T12:00:00']],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-02-30T12:00:00Z']],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-06-30T24:00:00Z']],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', 'tomorrow']],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2001-01-01T00:00:00Z']],
    [['create', '--name', 'x', '--permissions', 'read', '--bogus']],
    [['create', '--name', 'x', '--name', 'y', '--permissions', 'read']],
    [['create', '--name', 'x', '--permissions', 'read', 'extra']],
    [['create', '--name']],
    [['list', 'extra']],
    [['list', '--all']],
    [['revoke']],
    [['revoke', 'a', 'b']],
    [['revoke', '']],
  ])('refuses %j with exit code 2, a message on stderr and nothing on stdout', async (argv) => {
    const before = await current().app.get(ApiTokenService).count();
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.length).toBeGreaterThan(0);
    expect(await current().app.get(ApiTokenService).count()).toBe(before);
  });

  it('help prints the usage on stdout', async () => {
    const result = await run('help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('create --name NAME --permissions');
  });

  it('a venue-restricted token with an expiry authenticates for GET /api/v1', async () => {
    const result = await run(
      'create',
      '--name',
      'scoped',
      '--permissions',
      'read',
      '--venues',
      'venue-a',
      '--expires-at',
      FUTURE,
    );
    expect(result.code).toBe(0);
    await get(result.stdout.trim()).expect(200);
  });
});

/**
 * The real executable: `node dist/src/cli/main.js` as its own process, with its own application
 * context, on the database a running app uses.
 */
for (const kind of databaseKinds()) {
  describe(`hotspot executable [${kind}]`, () => {
    let testApp: TestApp;
    let cwd: string;
    let env: Record<string, string>;
    const cli = (...argv: string[]) => spawnCli(env, cwd, ...argv);

    beforeAll(async () => {
      ensureBuilt([CLI_MAIN]);
      // No token cache in the app, so a revoke by another process shows at once.
      testApp = await startTestApp(kind, { TOKEN_CACHE_TTL_SECONDS: '0' });
      cwd = mkdtempSync(join(tmpdir(), 'hotspot-cli-'));
      env = { DATABASE_URL: databaseUrlOf(testApp) };
    }, 180_000);
    afterAll(async () => {
      await testApp?.close();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    it('creates a token the app accepts and revokes it so the app refuses it', async () => {
      const created = await cli('token', 'create', '--name', 'from-cli', '--permissions', 'read,write');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^hsp_[A-Za-z0-9_-]{43}\n$/);
      expect(created.stderr).toContain('shown only this once');
      const token = created.stdout.trim();
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);

      const revoked = await cli('token', 'revoke', token);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout + revoked.stderr).not.toContain(token);
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(401);
    });

    it('exits 1 when the operation fails, with the reason on stderr and nothing on stdout', async () => {
      expect(await cli('token', 'revoke', '0190d5a0-0000-7000-8000-000000000000')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'No token matches that id or value.\n',
      });
      const session = await cli(
        'session',
        'start',
        '--user',
        'nobody',
        '--venue',
        'venue-a',
        '--mac',
        '02:00:00:00:00:01',
      );
      expect(session).toEqual({ code: 1, stdout: '', stderr: 'no such user nobody\n' });
    });

    it('exits 2 on bad usage before touching the database, naming the problem on stderr', async () => {
      const before = await testApp.app.get(ApiTokenService).count();
      for (const argv of [
        ['token', 'create', '--name', 'x', '--permissions', 'read', '--bogus'],
        ['token', 'create', '--name', 'x', '--permissions', 'admin'],
        ['token', 'create', '--permissions', 'read'],
        ['session', 'start', '--user', 'u', '--venue', 'v', '--mac', 'not-a-mac'],
        ['jobs', 'list', '--status', 'lost'],
        ['frobnicate'],
        ['token'],
      ]) {
        const result = await cli(...argv);
        expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 2, stdout: '' });
        expect(result.stderr).toMatch(/error|Usage/);
      }
      expect(await testApp.app.get(ApiTokenService).count()).toBe(before);
    });

    it('prints generated help on stdout with exit 0, for the program and each command', async () => {
      const program = await cli('--help');
      expect(program.code).toBe(0);
      expect(program.stdout).toContain('Usage: hotspot');
      for (const command of ['token', 'session', 'jobs'])
        expect(program.stdout).toMatch(new RegExp(`^  ${command}\\s`, 'm'));
      const create = await cli('token', 'create', '--help');
      expect(create.code).toBe(0);
      expect(create.stdout).toContain('Usage: hotspot token create');
      for (const option of ['--name', '--permissions', '--venues', '--expires-at', '--json']) {
        expect(create.stdout).toContain(option);
      }
    });

    it('lists the unauth jobs as JSON', async () => {
      const listed = await cli('jobs', 'list', '--user', 'nobody', '--json');
      expect(listed).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    });
  });

  describe(`token list with an operator-chosen BOOTSTRAP_TOKEN [${kind}]`, () => {
    const CHOSEN = 'OperatorChosenSecret.0123456789-abcdefXYZ';
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp(kind, { BOOTSTRAP_TOKEN: CHOSEN });
    });
    afterAll(async () => {
      await testApp?.close();
    });

    it('reveals none of its characters', async () => {
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${CHOSEN}`).expect(200);

      const json = await runCli(contextRuntime(testApp.app), 'token', 'list', '--json');
      expect(json.code).toBe(0);
      const [entry] = JSON.parse(json.stdout);
      expect(entry).toMatchObject({ name: 'bootstrap', prefix: '' });

      const text = await runCli(contextRuntime(testApp.app), 'token', 'list');
      const row = text.stdout.trimEnd().split('\n')[1];
      expect(row.split(/\s{2,}/).slice(0, 3)).toEqual([entry.id, 'bootstrap', '…']);
      // Not even its first character next to where the prefix stands.
      for (const output of [json.stdout, text.stdout]) expect(output).not.toMatch(/\bO|Operator/);
    });
  });

  describe(`hotspot executable on a fresh database [${kind}]`, () => {
    let database: TestDatabase;
    let cwd: string;

    beforeAll(async () => {
      ensureBuilt([CLI_MAIN]);
      database = await createTestDatabase(kind);
      cwd = mkdtempSync(join(tmpdir(), 'hotspot-cli-'));
    }, 180_000);
    afterAll(async () => {
      await database?.drop();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    it('runs the migrations and creates no bootstrap token (even on SQLite with no BOOTSTRAP_TOKEN)', async () => {
      // Migration output must not reach stdout: the result is the only thing there.
      const listed = await spawnCli({ DATABASE_URL: database.url }, cwd, 'token', 'list', '--json');
      expect(listed).toMatchObject({ code: 0, stdout: '[]\n' });
      // A new SQLite file is worth a word (a mistyped path would go unnoticed); a server database is not.
      if (kind === 'sqlite') {
        const path = database.url.slice('sqlite:'.length);
        expect(listed.stderr).toContain(`There was no database at ${path}: created a new, empty one`);
      } else {
        expect(listed.stderr).toBe('');
      }
      expect(await spawnCli({ DATABASE_URL: database.url }, cwd, 'token', 'list', '--json')).toEqual({
        code: 0,
        stdout: '[]\n',
        stderr: '',
      });
      const text = await spawnCli({ DATABASE_URL: database.url }, cwd, 'token', 'list');
      expect(text.code).toBe(0);
      expect(text.stdout).toBe('');
      expect(text.stderr).toContain('No tokens');
    });
  });
}

describe('hotspot executable without a database to reach', () => {
  it('stops at once with exit 1 and says why, without a retry it does not make or the password', async () => {
    ensureBuilt([CLI_MAIN]);
    // A port that was free a moment ago: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const cwd = mkdtempSync(join(tmpdir(), 'hotspot-cli-'));
    try {
      const url = `mysql://root:the-db-password@127.0.0.1:${port}/nowhere`;
      const run = await spawnCli({ DATABASE_URL: url }, cwd, 'token', 'list');
      expect(run).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr).toContain(`Could not start: connect ECONNREFUSED 127.0.0.1:${port}`);
      expect(run.stderr).not.toContain('Retrying');
      expect(run.stderr).not.toContain('the-db-password');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
