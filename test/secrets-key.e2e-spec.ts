import { randomBytes } from 'node:crypto';
import { SmsMessageEntity } from '../src/sms/entities/sms-message.entity.js';
import { contentOf } from '../src/sms/sms.rules.js';
import { SmsService } from '../src/sms/sms.service.js';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readKeyFile } from '../src/config/secrets-key-file.js';
import { NasClientEntity } from '../src/nas/entities/nas-client.entity.js';
import { openSecret } from '../src/nas/secret-box.js';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { openTotpSeed } from '../src/operators/totp-seal.js';
import { base32Decode } from '../src/operators/totp.js';
import { BatchPasswordEntity } from '../src/batches/entities/batch-password.entity.js';
import { ensureBuilt, ROOT } from './support/build.js';
import { CLI_MAIN, spawnCli } from './support/cli-io.js';
import { givenOperator, newTotpSecret } from './support/console.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from './support/databases.js';
import { freePort, startService } from './support/service-process.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MAIN = join(ROOT, 'dist/src/main.js');
const NAS_SECRET = 'Lobby-Secret-0123456789';
const OLD_SECRET = 'Old-Clear-Secret-0123456789';

/**
 * Secrets at rest (#39 finding 10): sealed out of the box with a key file beside the SQLite database
 * (or SECRETS_KEY_FILE), refused in production without a key, and moved to a new key by
 * `hotspot secrets rotate`, all or nothing.
 */
for (const kind of databaseKinds()) {
  describe(`secrets at rest [${kind}]`, () => {
    let database: TestDatabase;
    let cwd: string;
    let keyFile: string;
    let env: Record<string, string>;
    let testApp: TestApp | undefined;
    const cli = (...argv: string[]) => spawnCli(env, cwd, ...argv);

    beforeAll(() => ensureBuilt([CLI_MAIN, MAIN]), 120_000);

    beforeEach(async () => {
      database = await createTestDatabase(kind);
      cwd = mkdtempSync(join(tmpdir(), 'hotspot-secrets-'));
      if (kind === 'sqlite') {
        // The default: the key file beside the database, nothing set.
        keyFile = join(dirname(database.url.slice('sqlite:'.length)), 'secrets.key');
        env = { DATABASE_URL: database.url };
      } else {
        keyFile = join(cwd, 'keys', 'secrets.key');
        env = { DATABASE_URL: database.url, SECRETS_KEY_FILE: keyFile };
      }
    });

    afterEach(async () => {
      await testApp?.close();
      testApp = undefined;
      await database.drop();
      rmSync(cwd, { recursive: true, force: true });
    });

    /** What the database holds now: every sealed secret, by what it belongs to. */
    async function stored(app: TestApp) {
      const nases = await app.dataSource.getRepository(NasClientEntity).find();
      const operators = await app.dataSource.getRepository(OperatorEntity).find();
      const passwords = await app.dataSource.getRepository(BatchPasswordEntity).find();
      return { nases, operators: operators.filter((o) => o.totpSecret !== null), passwords };
    }

    it('seals from the first command with a 0600 key file, and rotate moves every secret to a new key', async () => {
      const added = await cli(
        'nas',
        'add',
        '--venue',
        'lobby',
        '--name',
        'lobby-ap',
        '--ip',
        '192.0.2.1',
        '--secret',
        NAS_SECRET,
      );
      expect(added.code).toBe(0);
      expect(added.stderr).not.toContain('stored in clear');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const oldKey = readKeyFile(keyFile);

      // The app under the same key; a secret stored in clear before the key existed; a TOTP seed; a batch.
      testApp = await startTestApp(kind, { SECRETS_KEY: oldKey.toString('hex') }, { database });
      await testApp.dataSource.query(
        `INSERT INTO nas_clients (id, venue_id, name, ip_address, secret, coa_port, vendor, require_message_authenticator, created_at)
         VALUES ('old-nas', 'lobby', 'old-ap', '192.0.2.2', ?, 3799, 'other', 0, '2026-11-25 09:00:00.000')`,
        [`plain:${OLD_SECRET}`],
      );
      const seed = newTotpSecret();
      const operator = await givenOperator(testApp, { totpSecret: seed });
      const batch = await cli('batch', 'create', '--venue', 'lobby', '--count', '3', '--valid-for', '86400', '--json');
      expect(batch.code).toBe(0);
      // An SMS not yet sent (a phone code's), its text sealed under the old key.
      const smsId = await testApp.database.transaction((em) =>
        testApp!.app.get(SmsService).enqueue(em, {
          recipient: '+905551234567',
          text: 'Your code is 123456',
          sendBefore: new Date(Date.now() + 600_000),
          now: new Date(),
        }),
      );
      const before = await stored(testApp);
      expect(before.nases.find((n) => n.name === 'lobby-ap')?.storedSecret).toMatch(/^aes256gcm:/);
      expect(before.passwords).toHaveLength(3);
      const clearPasswords = new Map(
        before.passwords.map((row) => [row.userId, openSecret(row.sealedPassword, row.batchId, 'batch', oldKey)]),
      );

      const rotated = await cli('secrets', 'rotate');
      expect(rotated.code).toBe(0);
      expect(rotated.stdout).toBe(
        'Re-sealed 2 NAS secret(s), 1 TOTP key(s), 3 batch password(s) and 0 portal faskey(s) under a new key.\n' +
          'Re-sealed 1 unsent SMS text(s).\n' +
          `The key file ${keyFile} holds the new key. Restart the service and the worker.\n`,
      );
      const newKey = readKeyFile(keyFile);
      expect(newKey.equals(oldKey)).toBe(false);
      expect(existsSync(`${keyFile}.new`)).toBe(false);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);

      const after = await stored(testApp);
      for (const nas of after.nases) {
        expect(nas.storedSecret).toMatch(/^aes256gcm:/);
        expect(() => openSecret(nas.storedSecret, nas.id, nas.name, oldKey)).toThrow();
      }
      const open = (name: string) => {
        const nas = after.nases.find((n) => n.name === name)!;
        return openSecret(nas.storedSecret, nas.id, nas.name, newKey);
      };
      expect([open('lobby-ap'), open('old-ap')]).toEqual([NAS_SECRET, OLD_SECRET]);
      const [sealedSeed] = after.operators;
      expect(sealedSeed.id).toBe(operator.id);
      expect(openTotpSeed(sealedSeed.totpSecret!, operator.id, newKey).equals(base32Decode(seed))).toBe(true);
      for (const row of after.passwords) {
        expect(openSecret(row.sealedPassword, row.batchId, 'batch', newKey)).toBe(clearPasswords.get(row.userId));
      }
      const sms = await testApp.dataSource.getRepository(SmsMessageEntity).findOneByOrFail({ id: smsId });
      expect(contentOf(openSecret(sms.sealedContent!, `sms:${smsId}`, 'sms', newKey)).text).toBe('Your code is 123456');
      // The operator's sessions did not end for it.
      expect(
        (await testApp.dataSource.getRepository(OperatorEntity).findOneByOrFail({ id: operator.id })).rightsVersion,
      ).toBe(operator.rightsVersion);
    }, 90_000);

    it('with SECRETS_KEY, prints the new key alone; with a wrong key, changes nothing', async () => {
      const key = randomBytes(32);
      const withKey = { DATABASE_URL: database.url, SECRETS_KEY: key.toString('base64') };
      const added = await spawnCli(
        withKey,
        cwd,
        'nas',
        'add',
        '--venue',
        'v',
        '--name',
        'ap',
        '--ip',
        '192.0.2.9',
        '--secret',
        NAS_SECRET,
      );
      expect(added.code).toBe(0);

      const wrong = await spawnCli(
        { ...withKey, SECRETS_KEY: randomBytes(32).toString('hex') },
        cwd,
        'secrets',
        'rotate',
      );
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain('cannot be decrypted with SECRETS_KEY');
      expect(wrong.stderr).toContain('Nothing was changed.');
      testApp = await startTestApp(kind, { SECRETS_KEY: key.toString('hex') }, { database });
      const [nas] = await testApp.dataSource.getRepository(NasClientEntity).find();
      expect(openSecret(nas.storedSecret, nas.id, nas.name, key)).toBe(NAS_SECRET);

      const rotated = await spawnCli(withKey, cwd, 'secrets', 'rotate');
      expect(rotated.code).toBe(0);
      expect(rotated.stderr).toContain('set it as SECRETS_KEY on every instance and restart them');
      const printed = rotated.stdout.trim();
      expect(rotated.stdout).toBe(`${printed}\n`);
      const newKey = Buffer.from(printed, 'base64');
      expect(newKey).toHaveLength(32);
      const [moved] = await testApp.dataSource.getRepository(NasClientEntity).find();
      expect(openSecret(moved.storedSecret, moved.id, moved.name, newKey)).toBe(NAS_SECRET);
      expect(existsSync(keyFile)).toBe(false);
    }, 60_000);

    it('refuses to start in production without SECRETS_KEY or SECRETS_KEY_FILE, naming the variable', async () => {
      const service = startService(
        MAIN,
        { DATABASE_URL: database.url, NODE_ENV: 'production', PORT: String(await freePort()), HOST: '127.0.0.1' },
        cwd,
      );
      expect((await service.exited(15_000)).code).toBe(1);
      expect(service.output()).toContain('SECRETS_KEY: must be set (or SECRETS_KEY_FILE) when NODE_ENV=production');
      expect(existsSync(keyFile)).toBe(false);
    }, 30_000);

    (kind === 'sqlite' ? it : it.skip)(
      'refuses a key file others can read',
      async () => {
        expect((await cli('venue', 'list')).code).toBe(0);
        chmodSync(keyFile, 0o644);
        const refused = await cli('venue', 'list');
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(`SECRETS_KEY_FILE: ${keyFile} can be read by others (mode 0644)`);
        expect(refused.stderr).not.toContain(readFileSync(keyFile, 'utf8').trim());
      },
      30_000,
    );
  });
}
