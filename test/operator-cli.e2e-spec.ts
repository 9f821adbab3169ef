import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify as verifyPassword } from '@node-rs/argon2';
import { OperatorEntity } from '../src/operators/entities/operator.entity.js';
import { ensureBuilt } from './support/build.js';
import { CLI_MAIN, contextRuntime, spawnCliWithInput, type CliRun } from './support/cli-io.js';
import { runCliWithInput } from '../src/testing/cli.js';
import { databaseKinds } from './support/databases.js';
import { describeEachDatabase, startTestApp, type TestApp } from './support/test-app.js';

/** The DATABASE_URL a test app runs on, so a second (CLI) process can open the same database. */
function databaseUrlOf(testApp: TestApp): string {
  const options = testApp.dataSource.options as { type: string; database?: string; url?: string };
  if (options.type === 'better-sqlite3') return `sqlite:${options.database}`;
  return options.type === 'mariadb' ? options.url!.replace(/^mysql:/, 'mariadb:') : options.url!;
}

const ONE_TIME_PASSWORD = /^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/;

describeEachDatabase('operator CLI (in-process main(), the app services)', (current) => {
  const runWithInput = (input: string | undefined, ...argv: string[]): Promise<CliRun> =>
    runCliWithInput(contextRuntime(current().app), input, 'operator', ...argv);
  const run = (...argv: string[]) => runWithInput(undefined, ...argv);
  const stored = (emailKey: string) => current().dataSource.getRepository(OperatorEntity).findOneBy({ emailKey });
  const count = () => current().dataSource.getRepository(OperatorEntity).count();
  let counter = 0;
  const email = () => `Ops.${++counter}@Example.com`;

  it('create prints a one-time password alone on stdout; it is stored hashed and must be changed', async () => {
    const address = email();
    const result = await run('create', '--email', address, '--name', 'Ops', '--permissions', 'read,write');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[A-Z2-7-]{23}\n$/);
    const password = result.stdout.trim();
    expect(password).toMatch(ONE_TIME_PASSWORD);
    expect(result.stderr).toContain(`Created operator`);
    expect(result.stderr).not.toContain(password);

    const row = (await stored(address.toLowerCase()))!;
    expect(row).toMatchObject({
      email: address,
      name: 'Ops',
      permissions: ['read', 'write'],
      venueIds: null,
      status: 'active',
      rightsVersion: 1,
      totpSecret: null,
    });
    expect(Boolean(row.mustChangePassword)).toBe(true);
    expect(Boolean(row.admin)).toBe(false);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash, password)).toBe(true);
  });

  it('create --password-stdin stores the given password, prints none, and need not change it', async () => {
    const address = email();
    const result = await runWithInput(
      'a long passphrase of mine\n',
      'create',
      '--email',
      address,
      '--name',
      'Venue staff',
      '--permissions',
      'read',
      '--venues',
      'venue-a,venue-b',
      '--admin',
      '--password-stdin',
      '--json',
    );
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({
      email: address,
      venueIds: ['venue-a', 'venue-b'],
      admin: true,
      mustChangePassword: false,
      oneTimePassword: null,
    });
    expect(result.stdout + result.stderr).not.toContain('passphrase');
    const row = (await stored(address.toLowerCase()))!;
    expect(Boolean(row.mustChangePassword)).toBe(false);
    expect(await verifyPassword(row.passwordHash, 'a long passphrase of mine')).toBe(true);
  });

  it.each([
    ['short', 'password must be at least 10 characters'],
    ['Basketball', 'password is one of the most common passwords'],
    ['refused.one@example.com', 'password must not be your email or name'],
  ])('create --password-stdin refuses %j with exit 2 and stores nothing', async (password, message) => {
    const before = await count();
    const result = await runWithInput(
      password,
      'create',
      '--email',
      'refused.one@example.com',
      '--name',
      'Refused',
      '--permissions',
      'read',
      '--password-stdin',
    );
    expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining(message) });
    expect(result.stderr).not.toContain(password === 'short' ? 'short\n' : password);
    expect(await count()).toBe(before);
  });

  it('refuses a second operator with the same email in another case, even when both are created at once', async () => {
    const address = email();
    const argv = ['create', '--email', address, '--name', 'First', '--permissions', 'read'];
    expect((await run(...argv)).code).toBe(0);
    const again = await run('create', '--email', address.toUpperCase(), '--name', 'Second', '--permissions', 'read');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('exists already');

    const raced = email();
    const results = await Promise.all(
      [raced, raced.toLowerCase(), raced.toUpperCase()].map((spelling) =>
        run('create', '--email', spelling, '--name', 'Racer', '--permissions', 'read'),
      ),
    );
    expect(results.map((result) => result.code).sort()).toEqual([0, 1, 1]);
    for (const lost of results.filter((result) => result.code === 1)) expect(lost.stderr).toContain('exists already');
    expect(await current().dataSource.getRepository(OperatorEntity).countBy({ emailKey: raced.toLowerCase() })).toBe(1);
  });

  it('list shows every operator, never a password hash or TOTP secret', async () => {
    const address = email();
    await run('create', '--email', address, '--name', 'Listed', '--permissions', 'delete');
    const row = (await stored(address.toLowerCase()))!;
    await current().dataSource.getRepository(OperatorEntity).update({ id: row.id }, { totpSecret: 'sealed-totp-seed' });

    const json = await run('list', '--json');
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(listed.find((operator) => operator.id === row.id)).toEqual({
      id: row.id,
      email: address,
      name: 'Listed',
      permissions: ['delete'],
      admin: false,
      venueIds: null,
      status: 'active',
      mustChangePassword: true,
      oneTimePasswordExpiresAt: row.oneTimePasswordExpiresAt!.toISOString(),
      totpEnrolled: false,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      lastSignInAt: null,
    });
    const text = await run('list');
    for (const output of [json.stdout, text.stdout]) {
      expect(output).not.toContain(row.passwordHash);
      expect(output).not.toContain('argon2');
      expect(output).not.toContain('sealed-totp-seed');
    }
    expect(text.stdout).toContain(address);
    // The first start on the embedded database made an administrator; on MySQL it makes none.
    const firstAdmin = listed.find((operator) => operator.email === 'admin@localhost');
    if (current().kind === 'sqlite') expect(firstAdmin).toMatchObject({ admin: true, venueIds: null });
    else expect(firstAdmin).toBeUndefined();
  });

  it('disable and enable by id or by email in any case; each change moves rights_version on', async () => {
    const address = email();
    await run('create', '--email', address, '--name', 'Toggled', '--permissions', 'read');
    const { id } = (await stored(address.toLowerCase()))!;

    const disabled = await run('disable', address.toUpperCase(), '--json');
    expect(disabled.code).toBe(0);
    expect(JSON.parse(disabled.stdout)).toEqual({ id, email: address, status: 'disabled', changed: true });
    expect(await stored(address.toLowerCase())).toMatchObject({ status: 'disabled', rightsVersion: 2 });

    const again = await run('disable', id);
    expect(again).toMatchObject({ code: 0, stdout: `Operator ${id} ${address} was disabled already.\n` });
    expect(await stored(address.toLowerCase())).toMatchObject({ status: 'disabled', rightsVersion: 2 });

    const enabled = await run('enable', id);
    expect(enabled).toMatchObject({ code: 0, stdout: `Enabled operator ${id} ${address}.\n` });
    expect(await stored(address.toLowerCase())).toMatchObject({ status: 'active', rightsVersion: 3 });
  });

  it('reset-password prints a new one-time password; the old one no longer verifies', async () => {
    const address = email();
    const old = (await run('create', '--email', address, '--name', 'Reset', '--permissions', 'read')).stdout.trim();
    const result = await run('reset-password', address);
    expect(result.code).toBe(0);
    const fresh = result.stdout.trim();
    expect(fresh).toMatch(ONE_TIME_PASSWORD);
    expect(fresh).not.toBe(old);
    expect(result.stderr).not.toContain(fresh);
    const row = (await stored(address.toLowerCase()))!;
    expect(row.rightsVersion).toBe(2);
    expect(Boolean(row.mustChangePassword)).toBe(true);
    expect(await verifyPassword(row.passwordHash, fresh)).toBe(true);
    expect(await verifyPassword(row.passwordHash, old)).toBe(false);
  });

  it('reset-2fa forgets the TOTP secret, enrolment and last step', async () => {
    const address = email();
    await run('create', '--email', address, '--name', 'Lost phone', '--permissions', 'read');
    const repository = current().dataSource.getRepository(OperatorEntity);
    const { id } = (await stored(address.toLowerCase()))!;
    await repository.update(
      { id },
      { totpSecret: 'sealed-seed', totpEnrolledAt: new Date('2030-01-01T00:00:00.000Z'), totpLastStep: '12345' },
    );
    const result = await run('reset-2fa', id, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id, email: address, wasEnrolled: true });
    expect(await stored(address.toLowerCase())).toMatchObject({
      totpSecret: null,
      totpEnrolledAt: null,
      totpLastStep: null,
      rightsVersion: 2,
    });
    const again = await run('reset-2fa', id);
    expect(again.stdout).toContain('had no second factor');
    expect(await stored(address.toLowerCase())).toMatchObject({ rightsVersion: 2 });
  });

  it("a value that is one operator's id and another's email changes neither", async () => {
    const first = email();
    await run('create', '--email', first, '--name', 'One', '--permissions', 'read');
    const repository = current().dataSource.getRepository(OperatorEntity);
    const one = (await stored(first.toLowerCase()))!;
    const second = email();
    await run('create', '--email', second, '--name', 'Two', '--permissions', 'read');
    const two = (await stored(second.toLowerCase()))!;
    // Ids the service makes never look like an email; a row written by hand might.
    await repository.update({ id: two.id }, { id: first.toLowerCase() });

    const result = await run('disable', first.toLowerCase());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`is the id of operator ${second} and the email of another`);
    expect(await repository.findBy({ status: 'disabled' })).toEqual([]);
    expect((await stored(first.toLowerCase()))!.rightsVersion).toBe(one.rightsVersion);
  });

  it.each(['disable', 'enable', 'reset-password', 'reset-2fa'])('%s of an unknown operator exits 1', async (verb) => {
    expect(await run(verb, 'nobody@example.com')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No operator has the id or email "nobody@example.com".\n',
    });
  });

  it.each([
    [['create', '--email', 'not-an-email', '--name', 'X', '--permissions', 'read']],
    [['create', '--email', 'x@example.com', '--name', 'X', '--permissions', 'radius']],
    [['create', '--email', 'x@example.com', '--name', '', '--permissions', 'read']],
    [['create', '--email', 'x@example.com', '--name', 'X', '--permissions', 'read', '--venues', 'a b']],
    [['disable', 'has space']],
  ])('refuses %j with exit code 2 and changes nothing', async (argv) => {
    const before = await count();
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(await count()).toBe(before);
  });
});

/** The real executable, as its own process, on the database a running app uses: stdin is a pipe. */
for (const kind of databaseKinds()) {
  describe(`hotspot operator executable [${kind}]`, () => {
    let testApp: TestApp;
    let cwd: string;
    let env: Record<string, string>;

    beforeAll(async () => {
      ensureBuilt([CLI_MAIN]);
      testApp = await startTestApp(kind);
      cwd = mkdtempSync(join(tmpdir(), 'hotspot-operator-cli-'));
      env = { DATABASE_URL: databaseUrlOf(testApp) };
    }, 180_000);
    afterAll(async () => {
      await testApp?.close();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    it('reads the password from a pipe with --password-stdin, and lists the operator', async () => {
      const created = await spawnCliWithInput(
        env,
        cwd,
        'piped passphrase 42\n',
        'operator',
        'create',
        '--email',
        'piped@example.com',
        '--name',
        'Piped',
        '--permissions',
        'read,write',
        '--password-stdin',
      );
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(/^Created operator \S+ piped@example.com "Piped"/);
      const row = await testApp.dataSource.getRepository(OperatorEntity).findOneBy({ emailKey: 'piped@example.com' });
      expect(await verifyPassword(row!.passwordHash, 'piped passphrase 42')).toBe(true);

      const listed = await spawnCliWithInput(env, cwd, undefined, 'operator', 'list', '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual(
        expect.arrayContaining([expect.objectContaining({ email: 'piped@example.com', mustChangePassword: false })]),
      );
    });

    it('prints a one-time password alone on stdout without --password-stdin', async () => {
      const created = await spawnCliWithInput(
        env,
        cwd,
        undefined,
        'operator',
        'create',
        '--email',
        'generated@example.com',
        '--name',
        'Generated',
        '--permissions',
        'read',
      );
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}\n$/);
      expect(created.stderr).toContain('shown only this once');
    });
  });
}
