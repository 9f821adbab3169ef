import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './support/build.js';
import { CLI_MAIN, spawnCli } from './support/cli-io.js';
import { databaseKinds } from './support/databases.js';
import { makeTestCertificates } from './support/eap.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { NasClientEntity } from '../src/nas/entities/nas-client.entity.js';
import { NasAddressTakenError, NasService } from '../src/nas/nas.service.js';

/** The DATABASE_URL a test app runs on, so the CLI process opens the same database. */
function databaseUrlOf(testApp: TestApp): string {
  const options = testApp.dataSource.options as { type: string; database?: string; url?: string };
  if (options.type === 'better-sqlite3') return `sqlite:${options.database}`;
  return options.type === 'mariadb' ? options.url!.replace(/^mysql:/, 'mariadb:') : options.url!;
}

const SECRET = 'Nas-Secret-0123456789';

/** `hotspot nas …` and `hotspot radius-config` as the real executable, on the database of a running app. */
for (const kind of databaseKinds()) {
  describe(`hotspot nas and radius-config executable [${kind}]`, () => {
    let testApp: TestApp;
    let cwd: string;
    let env: Record<string, string>;
    const key = randomBytes(32).toString('base64');
    const cli = (...argv: string[]) => spawnCli({ ...env, SECRETS_KEY: key }, cwd, ...argv);
    const cliWithoutKey = (...argv: string[]) => spawnCli(env, cwd, ...argv);
    /** radius-config into `out` with `token`, through `run` (the CLI with SECRETS_KEY unless given). */
    const radiusConfig = (out: string, token: string, run = cli) =>
      run('radius-config', '--out', out, '--api-url', 'http://127.0.0.1:3000', '--token', token);
    const storedSecret = async (name: string): Promise<string> =>
      (
        await testApp.dataSource.query<Array<{ secret: string }>>('SELECT secret FROM nas_clients WHERE name = ?', [
          name,
        ])
      )[0].secret;

    beforeAll(async () => {
      ensureBuilt([CLI_MAIN]);
      testApp = await startTestApp(kind);
      cwd = mkdtempSync(join(tmpdir(), 'hotspot-nas-cli-'));
      env = { DATABASE_URL: databaseUrlOf(testApp) };
    }, 180_000);
    afterAll(async () => {
      await testApp?.close();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    it('add stores the secret encrypted with SECRETS_KEY and prints the NAS without it; a second add of the name fails', async () => {
      const added = await cli(
        'nas',
        'add',
        '--venue',
        'lobby',
        '--name',
        'lobby-ap',
        '--ip',
        '192.0.2.0/24',
        '--secret',
        SECRET,
        '--vendor',
        'mikrotik',
        '--json',
      );
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({
        name: 'lobby-ap',
        venueId: 'lobby',
        ipAddress: '192.0.2.0/24',
        coaPort: 3799,
        vendor: 'mikrotik',
      });
      expect(added.stdout + added.stderr).not.toContain(SECRET);
      expect(await storedSecret('lobby-ap')).toMatch(/^aes256gcm:/);
      expect(await storedSecret('lobby-ap')).not.toContain(SECRET);

      const again = await cli(
        'nas',
        'add',
        '--venue',
        'lobby',
        '--name',
        'lobby-ap',
        '--ip',
        '192.0.2.9',
        '--secret',
        SECRET,
      );
      expect(again).toMatchObject({ code: 1, stdout: '' });
      expect(again.stderr).toContain('A NAS named "lobby-ap" is registered already.');

      // The address of lobby-ap: FreeRADIUS could not tell the two apart, and would not start.
      const sameAddress = await cli(
        'nas',
        'add',
        '--venue',
        'lobby',
        '--name',
        'lobby-ap-2',
        '--ip',
        '192.0.2.0/24',
        '--secret',
        SECRET,
      );
      expect(sameAddress).toMatchObject({ code: 1, stdout: '' });
      expect(sameAddress.stderr).toContain('The address 192.0.2.0/24 is registered already, for the NAS "lobby-ap".');

      const list = await cli('nas', 'list', '--json');
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout).map((nas: { name: string }) => nas.name)).toEqual(['lobby-ap']);
      expect(list.stdout).not.toContain(SECRET);

      // Whether it takes CoA-Requests: shown in the list, changed with set.
      const marked = await cli('nas', 'set', 'lobby-ap', '--no-coa', '--json');
      expect(marked.code).toBe(0);
      expect(JSON.parse(marked.stdout)).toMatchObject({ name: 'lobby-ap', acceptsCoa: false });
      expect((await cli('nas', 'list')).stdout).toMatch(/^\S+\s+lobby-ap\s+lobby\s+192\.0\.2\.0\/24\s+3799\s+no\s/m);
      expect((await cli('nas', 'set', 'lobby-ap', '--coa')).stdout).toContain('accepts CoA');
      expect(JSON.parse((await cli('nas', 'list', '--json')).stdout)).toEqual([
        expect.objectContaining({ name: 'lobby-ap', acceptsCoa: true }),
      ]);
      expect(await cli('nas', 'set', 'no-such-nas', '--coa')).toMatchObject({ code: 1, stdout: '' });
    });

    it('radius-config writes the secret into clients.conf only, and fails clearly without the key', async () => {
      const out = join(cwd, 'raddb');
      const token = await testApp.createToken({ permissions: ['radius'] });
      const written = await radiusConfig(out, token);
      expect(written.code).toBe(0);
      expect(written.stdout).toBe(`${out}\n`);
      expect(written.stdout + written.stderr).not.toContain(SECRET);
      expect(written.stdout + written.stderr).not.toContain(token);
      expect(readFileSync(join(out, 'clients.conf'), 'utf8')).toContain(`secret = '${SECRET}'`);

      const withoutKey = await radiusConfig(out, token, cliWithoutKey);
      expect(withoutKey).toMatchObject({ code: 1, stdout: '' });
      // On SQLite a command without SECRETS_KEY takes the key file beside the database: another key.
      expect(withoutKey.stderr).toContain(
        kind === 'sqlite'
          ? 'The secret of NAS "lobby-ap" cannot be decrypted with SECRETS_KEY'
          : 'The secret of NAS "lobby-ap" is stored encrypted and SECRETS_KEY is not set',
      );
      expect(withoutKey.stderr).not.toContain(SECRET);

      const badToken = await radiusConfig(out, 'x"y');
      expect(badToken.code).toBe(2);

      // Tokens FreeRADIUS could not use: every login would be rejected and every accounting packet lost.
      const revoked = await testApp.createToken({ permissions: ['radius'] });
      expect((await cli('token', 'revoke', revoked)).code).toBe(0);
      const unusable: Array<[string, string]> = [
        [await testApp.createToken({ permissions: ['read', 'write', 'delete'] }), 'without the radius permission'],
        [revoked, 'a token that is revoked'],
        ['hsp_not-a-token-of-this-database-0123456789', 'not a token of this database'],
      ];
      for (const [value, reason] of unusable) {
        const refused = await radiusConfig(out, value);
        expect(refused).toMatchObject({ code: 1, stdout: '' });
        expect(refused.stderr).toContain(reason);
        expect(refused.stderr).not.toContain(value);
      }
    });

    it('radius-config --eap copies the certificates (key 0600), a later run keeps EAP, --no-eap removes it; bad files are named', async () => {
      const out = join(cwd, 'raddb-eap');
      const certs = join(cwd, 'certs');
      const other = join(cwd, 'other-certs');
      mkdirSync(certs);
      mkdirSync(other);
      const given = makeTestCertificates(certs);
      const foreign = makeTestCertificates(other);
      const token = await testApp.createToken({ permissions: ['radius'] });
      const withEap = (...extra: string[]) =>
        cli('radius-config', '--out', out, '--api-url', 'http://127.0.0.1:3000', '--token', token, '--json', ...extra);
      const key = readFileSync(given.privateKeyPath, 'utf8');

      const written = await withEap(
        '--eap',
        '--eap-cert',
        given.certificatePath,
        '--eap-key',
        given.privateKeyPath,
        '--eap-ca',
        given.caPath,
      );
      expect(written.code).toBe(0);
      expect(JSON.parse(written.stdout)).toMatchObject({ eap: true });
      expect(readFileSync(join(out, 'certs/server.key'), 'utf8')).toBe(key);
      expect(statSync(join(out, 'certs/server.key')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(out, 'mods-enabled/eap'), 'utf8')).toContain('default_eap_type = ttls');

      // A regeneration (e.g. after a NAS was added) keeps EAP without repeating the options.
      const again = await withEap();
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ eap: true });
      expect(readFileSync(join(out, 'sites-enabled/hotspot'), 'utf8')).toMatch(/authenticate \{\s+eap/);

      const refused: Array<[string[], number, string]> = [
        [['--eap', '--eap-cert', given.certificatePath], 2, '--eap needs --eap-cert and --eap-key'],
        [['--eap-cert', given.certificatePath], 2, 'go with --eap'],
        [
          ['--eap', '--eap-cert', join(certs, 'none.pem'), '--eap-key', given.privateKeyPath],
          1,
          `The EAP server certificate ${join(certs, 'none.pem')} does not exist.`,
        ],
        [
          ['--eap', '--eap-cert', given.certificatePath, '--eap-key', foreign.privateKeyPath],
          1,
          'The EAP private key does not belong to the EAP server certificate.',
        ],
        [
          ['--eap', '--eap-cert', given.certificatePath, '--eap-key', given.privateKeyPath, '--eap-ca', foreign.caPath],
          1,
          'not issued by a certificate of the CA chain',
        ],
      ];
      for (const [extra, code, message] of refused) {
        const result = await withEap(...extra);
        expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' });
        expect(result.stderr).toContain(message);
        expect(result.stderr).not.toContain(key.split('\n')[1]);
      }

      const dropped = await withEap('--no-eap');
      expect(dropped.code).toBe(0);
      expect(JSON.parse(dropped.stdout)).toMatchObject({ eap: false });
      expect(existsSync(join(out, 'certs/server.key'))).toBe(false);
      expect(existsSync(join(out, 'mods-enabled/eap'))).toBe(false);
    });

    it('add without SECRETS_KEY: sealed with the key file beside SQLite, in clear with a warning on MySQL; remove by name, then exit 1', async () => {
      const added = await cliWithoutKey(
        'nas',
        'add',
        '--venue',
        'bar',
        '--name',
        'bar-ap',
        '--ip',
        '2001:db8::1',
        '--secret',
        SECRET,
        '--coa-port',
        '0',
      );
      expect(added.code).toBe(0);
      if (kind === 'sqlite') {
        expect(added.stderr).not.toContain('stored in clear');
        expect(await storedSecret('bar-ap')).toMatch(/^aes256gcm:/);
      } else {
        expect(added.stderr).toContain('SECRETS_KEY is not set, so the shared secret is stored in clear');
        expect(await storedSecret('bar-ap')).toBe(`plain:${SECRET}`);
      }

      expect(await cli('nas', 'remove', 'bar-ap')).toMatchObject({ code: 0 });
      const missing = await cli('nas', 'remove', 'bar-ap');
      expect(missing).toMatchObject({ code: 1, stdout: '' });
    });

    it('several adds of one address at once register one NAS', async () => {
      const registry = testApp.app.get(NasService);
      const adds = await Promise.allSettled(
        Array.from({ length: 8 }, (_, index) =>
          registry.add({ venueId: 'bar', name: `race-${index}`, ipAddress: '203.0.113.7', secret: SECRET }),
        ),
      );
      expect(adds.filter((add) => add.status === 'fulfilled')).toHaveLength(1);
      for (const add of adds) {
        if (add.status === 'rejected') expect(add.reason).toBeInstanceOf(NasAddressTakenError);
      }
      const [row] = await testApp.dataSource.query<Array<{ n: unknown }>>(
        'SELECT COUNT(*) AS n FROM nas_clients WHERE ip_address = ?',
        ['203.0.113.7'],
      );
      expect(Number(row.n)).toBe(1);
    });

    // SQLite runs one write transaction at a time: nothing can insert between the check and the insert.
    (kind === 'mysql' ? it : it.skip)(
      'an add waits for a transaction inserting the same address, then refuses it',
      async () => {
        const other = testApp.dataSource.createQueryRunner();
        await other.startTransaction();
        let add: Promise<unknown> | undefined;
        try {
          await other.manager.insert(NasClientEntity, {
            id: randomUUID(),
            venueId: 'bar',
            name: 'held-ap',
            ipAddress: '203.0.113.9',
            storedSecret: `plain:${SECRET}`,
            coaPort: 3799,
            vendor: 'other',
            requireMessageAuthenticator: false,
            createdAt: new Date(),
          });
          add = testApp.app
            .get(NasService)
            .add({ venueId: 'bar', name: 'late-ap', ipAddress: '203.0.113.9', secret: SECRET })
            .then(
              () => 'added',
              (error: unknown) => error,
            );
          // Without the lock, the add would read past the uncommitted row and be done by now.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await other.commitTransaction();
        } finally {
          if (other.isTransactionActive) await other.rollbackTransaction();
          await other.release();
        }
        expect(await add).toBeInstanceOf(NasAddressTakenError);
        const [row] = await testApp.dataSource.query<Array<{ n: unknown }>>(
          'SELECT COUNT(*) AS n FROM nas_clients WHERE ip_address = ?',
          ['203.0.113.9'],
        );
        expect(Number(row.n)).toBe(1);
      },
    );

    it("remove refuses a value that is one NAS's id and another's name, and removes neither", async () => {
      const first = await cli(
        'nas',
        'add',
        '--venue',
        'bar',
        '--name',
        'first-ap',
        '--ip',
        '198.51.100.1',
        '--secret',
        SECRET,
        '--json',
      );
      expect(first.code).toBe(0);
      const firstId = (JSON.parse(first.stdout) as { id: string }).id;
      // Names allow the characters of an id.
      const second = await cli(
        'nas',
        'add',
        '--venue',
        'bar',
        '--name',
        firstId,
        '--ip',
        '198.51.100.2',
        '--secret',
        SECRET,
      );
      expect(second.code).toBe(0);

      const ambiguous = await cli('nas', 'remove', firstId);
      expect(ambiguous).toMatchObject({ code: 1, stdout: '' });
      expect(ambiguous.stderr).toContain(
        `is the id of NAS "first-ap" and the name of another NAS: nothing was removed`,
      );
      const names = async () =>
        (JSON.parse((await cli('nas', 'list', '--json')).stdout) as Array<{ name: string }>).map((nas) => nas.name);
      expect(await names()).toEqual(expect.arrayContaining(['first-ap', firstId]));

      expect(await cli('nas', 'remove', 'first-ap')).toMatchObject({ code: 0 });
      expect(await cli('nas', 'remove', firstId)).toMatchObject({ code: 0 });
      expect(await names()).not.toEqual(expect.arrayContaining(['first-ap']));
      expect(await names()).not.toEqual(expect.arrayContaining([firstId]));
    });

    it('bad usage is exit 2 with nothing stored', async () => {
      const bad = await cli('nas', 'add', '--venue', 'lobby', '--name', 'x y', '--ip', '192.0.2.1', '--secret', SECRET);
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr).not.toContain(SECRET);
      const help = await cli('--help');
      expect(help.stdout).toMatch(/nas\s/);
      expect(help.stdout).toContain('radius-config');
    });
  });
}
