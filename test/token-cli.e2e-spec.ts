import { jest } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { ApiTokenService } from '../src/auth/api-token.service.js';
import { hashTokenValue } from '../src/auth/token-value.js';
import { createCliContext, routeConsoleToStderr } from '../src/cli/cli-context.js';
import { runTokenCommand, type TokenCommandServices } from '../src/cli/token-command.js';
import { Clock } from '../src/common/clock.js';
import { loadConfig } from '../src/config/configuration.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { capture } from './support/cli-io.js';
import { describeEachDatabase, startTestApp, type TestApp } from './support/test-app.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(services: TokenCommandServices, ...argv: string[]): Promise<Run> {
  const captured = capture();
  const code = await runTokenCommand(argv, captured.io, services);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

function servicesOf(context: Pick<INestApplicationContext, 'get'>): TokenCommandServices {
  return { tokens: context.get(ApiTokenService), clock: context.get(Clock) };
}

/** The DATABASE_URL a test app runs on, so a second (CLI) context can open the same database. */
function databaseUrlOf(testApp: TestApp): string {
  const options = testApp.dataSource.options as { type: string; database?: string; url?: string };
  if (options.type === 'better-sqlite3') return `sqlite:${options.database}`;
  return options.type === 'mariadb' ? options.url!.replace(/^mysql:/, 'mariadb:') : options.url!;
}

const FUTURE = '2099-06-30T12:00:00Z';

describeEachDatabase('token CLI (in-process, the app services)', (current) => {
  const services = () => servicesOf(current().app);
  const get = (token: string) => current().http.get('/api/v1').set('Authorization', `Bearer ${token}`);

  it('create prints the token value alone on stdout, and the value authenticates', async () => {
    const result = await run(services(), 'create', '--name', 'portal', '--permissions', 'read');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^hsp_[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toContain('shown only this once');
    expect(result.stderr).not.toContain(result.stdout.trim());
    await get(result.stdout.trim()).expect(200);
  });

  it('create --json prints one JSON object with the value and the normalised fields', async () => {
    const result = await run(
      services(),
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
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'id', 'name', 'permissions', 'token', 'venueIds']);
    expect(body).toMatchObject({
      name: 'venue admin',
      permissions: ['read', 'write'],
      venueIds: ['ist-1', 'ank:2'],
      expiresAt: '2099-06-30T12:00:00.123Z',
    });
    expect(body.token).toMatch(/^hsp_/);
    await get(body.token).expect(200);
  });

  it('list shows the tokens without values or hashes', async () => {
    const created = JSON.parse(
      (await run(services(), 'create', '--name', 'lister', '--permissions', 'delete', '--json')).stdout,
    );
    const text = await run(services(), 'list');
    expect(text.code).toBe(0);
    const [header, ...rows] = text.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+PREFIX\s+PERMISSIONS\s+VENUES\s+STATUS\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED$/);
    const row = rows.find((line) => line.startsWith(created.id));
    expect(row).toBeDefined();
    expect(row).toContain('lister');
    // The public prefix alone: nothing of the random part.
    expect(row!.split(/\s{2,}/)[2]).toBe('hsp_…');
    expect(text.stdout).not.toContain(created.token.slice(0, 5));
    expect(row).toContain('(all)');
    expect(row).toContain('active');
    expect(text.stdout).not.toContain(created.token);
    expect(text.stdout).not.toContain(hashTokenValue(created.token));

    const json = await run(services(), 'list', '--json');
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout);
    expect(Array.isArray(list)).toBe(true);
    const entry = list.find((item: { id: string }) => item.id === created.id);
    expect(entry).toEqual({
      id: created.id,
      name: 'lister',
      prefix: 'hsp_',
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
    // The bootstrap token of the test app is listed too, by its public prefix alone.
    expect(list.find((item: { name: string }) => item.name === 'bootstrap')).toMatchObject({ prefix: 'hsp_' });
    expect(json.stdout).not.toContain(current().adminToken.slice(0, 5));
  });

  it('revoke by id makes the token fail with 401 and shows it as revoked', async () => {
    const created = JSON.parse(
      (await run(services(), 'create', '--name', 'to-revoke', '--permissions', 'read', '--json')).stdout,
    );
    await get(created.token).expect(200);
    const result = await run(services(), 'revoke', created.id);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Revoked token ${created.id}`);
    await get(created.token).expect(401);

    const list = JSON.parse((await run(services(), 'list', '--json')).stdout);
    const entry = list.find((item: { id: string }) => item.id === created.id);
    expect(entry.status).toBe('revoked');
    expect(entry.revokedAt).not.toBeNull();

    const again = await run(services(), 'revoke', created.id, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: created.id, alreadyRevoked: true });
  });

  it('revoke by token value works and never echoes the value', async () => {
    const token = (await run(services(), 'create', '--name', 'by-value', '--permissions', 'read')).stdout.trim();
    await get(token).expect(200);
    const result = await run(services(), 'revoke', token);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(token);
    await get(token).expect(401);
  });

  it('revoke of an unknown id or value exits 1 with nothing on stdout', async () => {
    const secretLooking = 'hsp_not-a-real-token-value-aaaaaaaaaaaaaaaaaaaa';
    const result = await run(services(), 'revoke', secretLooking);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'No token matches that id or value.\n' });
    expect((await run(services(), 'revoke', '0190d5a0-0000-7000-8000-000000000000')).code).toBe(1);
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
    const result = await run(services(), ...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.length).toBeGreaterThan(0);
    expect(await current().app.get(ApiTokenService).count()).toBe(before);
  });

  it('help prints the usage on stdout', async () => {
    const result = await run(services(), 'help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('create --name NAME --permissions');
  });

  it('a venue-restricted token with an expiry authenticates for GET /api/v1', async () => {
    const result = await run(
      services(),
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

/** The real wiring: a separate CLI application context on the database a running app uses. */
for (const kind of databaseKinds()) {
  describe(`token CLI (own application context) [${kind}]`, () => {
    let testApp: TestApp;
    let cli: INestApplicationContext;

    beforeAll(async () => {
      // No token cache in the app, so a revoke by another process shows at once.
      testApp = await startTestApp(kind, { TOKEN_CACHE_TTL_SECONDS: '0' });
      const config = loadConfig({ DATABASE_URL: databaseUrlOf(testApp), LOG_LEVEL: 'error' });
      cli = await createCliContext(config, { providers: [ApiTokenService], logger: false });
    });
    afterAll(async () => {
      await cli?.close();
      await testApp?.close();
    });

    it('creates a token the app accepts and revokes it so the app refuses it', async () => {
      const created = await run(servicesOf(cli), 'create', '--name', 'from-cli', '--permissions', 'read,write');
      expect(created.code).toBe(0);
      const token = created.stdout.trim();
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(200);

      const revoked = await run(servicesOf(cli), 'revoke', token);
      expect(revoked.code).toBe(0);
      await testApp.http.get('/api/v1').set('Authorization', `Bearer ${token}`).expect(401);
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

      const json = await run(servicesOf(testApp.app), 'list', '--json');
      expect(json.code).toBe(0);
      const [entry] = JSON.parse(json.stdout);
      expect(entry).toMatchObject({ name: 'bootstrap', prefix: '' });

      const text = await run(servicesOf(testApp.app), 'list');
      const row = text.stdout.trimEnd().split('\n')[1];
      expect(row.split(/\s{2,}/).slice(0, 3)).toEqual([entry.id, 'bootstrap', '…']);
      // Not even its first character next to where the prefix stands.
      for (const output of [json.stdout, text.stdout]) expect(output).not.toMatch(/\bO|Operator/);
    });
  });

  describe(`token CLI on a fresh database [${kind}]`, () => {
    let database: TestDatabase;
    let cli: INestApplicationContext | undefined;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await cli?.close();
      await database?.drop();
    });

    it('runs the migrations and creates no bootstrap token (even on SQLite with no BOOTSTRAP_TOKEN)', async () => {
      const writes = jest.spyOn(process.stdout, 'write');
      try {
        cli = await createCliContext(loadConfig({ DATABASE_URL: database.url }), {
          providers: [ApiTokenService],
          logger: false,
        });
        expect(writes).not.toHaveBeenCalled();
      } finally {
        writes.mockRestore();
      }
      const listed = await run(servicesOf(cli), 'list', '--json');
      expect(listed).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
      const text = await run(servicesOf(cli), 'list');
      expect(text.code).toBe(0);
      expect(text.stdout).toBe('');
      expect(text.stderr).toContain('No tokens');
    });
  });
}

describe('routeConsoleToStderr', () => {
  it('sends console.log and console.info to stderr until restored', () => {
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const restore = routeConsoleToStderr();
    let stdoutCalls: unknown[][];
    let stderrCalls: unknown[][];
    try {
      console.log('query: %s', 'SELECT 1');
      console.info('migration done');
    } finally {
      restore();
      stdoutCalls = [...stdout.mock.calls];
      stderrCalls = [...stderr.mock.calls];
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expect(stdoutCalls).toEqual([]);
    expect(stderrCalls).toEqual([['query: SELECT 1\n'], ['migration done\n']]);
  });
});
