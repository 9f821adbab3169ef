import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './support/build.js';
import { CLI_MAIN, spawnCli } from './support/cli-io.js';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The DATABASE_URL a test app runs on, so the CLI process opens the same database. */
function databaseUrlOf(testApp: TestApp): string {
  const options = testApp.dataSource.options as { type: string; database?: string; url?: string };
  if (options.type === 'better-sqlite3') return `sqlite:${options.database}`;
  return options.type === 'mariadb' ? options.url!.replace(/^mysql:/, 'mariadb:') : options.url!;
}

interface VenueRow {
  id: string;
  display_name: string | null;
  time_zone: string | null;
  ssid: string | null;
  portal_url: string | null;
}

/** `hotspot venue …` (and the venue warning of `nas add`) as the real executable, on the database of a running app. */
for (const kind of databaseKinds()) {
  describe(`hotspot venue executable [${kind}]`, () => {
    let testApp: TestApp;
    let cwd: string;
    let env: Record<string, string>;
    const cli = (...argv: string[]) => spawnCli(env, cwd, ...argv);
    const rows = (): Promise<VenueRow[]> =>
      testApp.dataSource.query('SELECT id, display_name, time_zone, ssid, portal_url FROM venues ORDER BY id');

    beforeAll(async () => {
      ensureBuilt([CLI_MAIN]);
      testApp = await startTestApp(kind);
      cwd = mkdtempSync(join(tmpdir(), 'hotspot-venue-cli-'));
      env = { DATABASE_URL: databaseUrlOf(testApp) };
    }, 180_000);
    afterAll(async () => {
      await testApp?.close();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    it('list says on stderr that none is registered', async () => {
      const listed = await cli('venue', 'list');
      expect(listed).toMatchObject({ code: 0, stdout: '' });
      expect(listed.stderr).toContain('No venues registered');
      expect(JSON.parse((await cli('venue', 'list', '--json')).stdout)).toEqual([]);
    });

    it('set registers a venue, then changes and clears only the fields given', async () => {
      const created = await cli(
        'venue',
        'set',
        'lobby',
        '--name',
        'Hotel Lobby',
        '--time-zone',
        'Europe/Berlin',
        '--ssid',
        'Otel Misafir ğ',
        '--json',
      );
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({
        id: 'lobby',
        displayName: 'Hotel Lobby',
        timeZone: 'Europe/Berlin',
        ssid: 'Otel Misafir ğ',
        portalUrl: null,
      });
      const changed = await cli(
        'venue',
        'set',
        'lobby',
        '--portal-url',
        'https://portal.example/login',
        '--clear-ssid',
        '--check-out',
        '11:00',
      );
      expect(changed.code).toBe(0);
      expect(changed.stdout).toBe(
        'Changed venue lobby: name "Hotel Lobby", time zone Europe/Berlin, SSID -, ' +
          'portal URL https://portal.example/login, check-out 11:00, default plan -.\n',
      );
      expect(await rows()).toEqual([
        {
          id: 'lobby',
          display_name: 'Hotel Lobby',
          time_zone: 'Europe/Berlin',
          ssid: null,
          portal_url: 'https://portal.example/login',
        },
      ]);
      const emptied = await cli('venue', 'set', 'lobby', '--name', '');
      expect(emptied.code).toBe(0);
      expect((await rows())[0].display_name).toBeNull();
    });

    it('refuses bad values with exit code 2 and stores nothing', async () => {
      const before = await rows();
      for (const argv of [
        ['lob by'],
        ['bad-zone', '--time-zone', 'Mars/Olympus_Mons'],
        ['long-ssid', '--ssid', 'x'.repeat(33)],
        ['bad-url', '--portal-url', 'javascript:alert(1)'],
        ['bad-check-out', '--check-out', '12 noon'],
      ]) {
        const refused = await cli('venue', 'set', ...argv);
        expect(refused.code).toBe(2);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toMatch(/^error: /);
      }
      expect(await rows()).toEqual(before);
    });

    it('list prints the registered venues, by id', async () => {
      expect((await cli('venue', 'set', 'annex')).code).toBe(0);
      const listed = await cli('venue', 'list', '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).map((venue: { id: string }) => venue.id)).toEqual(['annex', 'lobby']);
      const table = await cli('venue', 'list');
      expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+TIME ZONE\s+SSID\s+PORTAL URL\s+CHECK-OUT\s+UPDATED$/);
    });

    it('nas add warns about an unregistered venue without failing, and not about a registered one', async () => {
      const secret = 'Nas-Secret-0123456789';
      const typo = await cli(
        'nas',
        'add',
        '--venue',
        'lobyy',
        '--name',
        'typo-ap',
        '--ip',
        '192.0.2.50',
        '--secret',
        secret,
      );
      expect(typo.code).toBe(0);
      expect(typo.stderr).toContain('Warning: the venue "lobyy" is not registered');
      const known = await cli(
        'nas',
        'add',
        '--venue',
        'lobby',
        '--name',
        'lobby-ap',
        '--ip',
        '192.0.2.51',
        '--secret',
        secret,
      );
      expect(known.code).toBe(0);
      expect(known.stderr).not.toContain('is not registered');
      const names: Array<{ name: string }> = await testApp.dataSource.query(
        'SELECT name FROM nas_clients ORDER BY name',
      );
      expect(names.map((row) => row.name)).toEqual(['lobby-ap', 'typo-ap']);
    });
  });
}
