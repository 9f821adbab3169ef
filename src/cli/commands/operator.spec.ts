import type { OperatorView } from '../../operators/operator-rules.js';
import {
  OperatorAmbiguousError,
  OperatorEmailTakenError,
  OperatorValidationError,
  type CreateOperatorInput,
  type OperatorRightsChanges,
} from '../../operators/operators.service.js';
import { FakeRuntime, runCli, runCliWithInput } from '../../testing/cli.js';
import { OPERATOR_SERVICE, type OperatorDirectory } from './operator.js';

const ONE_TIME = 'ABCDE-FGHIJ-KLMNO-PQRST';
const ID = '0190d5a0-0000-7000-8000-000000000001';

function view(overrides: Partial<OperatorView> = {}): OperatorView {
  return {
    id: ID,
    email: 'Ops@Example.com',
    name: 'Ops',
    permissions: ['read'],
    admin: false,
    venueIds: null,
    status: 'active',
    mustChangePassword: true,
    oneTimePasswordExpiresAt: '2029-12-04T00:00:00.000Z',
    totpEnrolled: false,
    createdAt: '2029-12-01T00:00:00.000Z',
    updatedAt: '2029-12-01T00:00:00.000Z',
    lastSignInAt: null,
    ...overrides,
  };
}

/** An operator directory that records its calls and answers what the test set. */
class FakeOperators implements OperatorDirectory {
  created: CreateOperatorInput[] = [];
  calls: string[] = [];
  operators: OperatorView[] = [];
  found: OperatorView | null = view();
  changed = true;
  failure: Error | null = null;

  create(input: CreateOperatorInput) {
    this.created.push(input);
    if (this.failure !== null) return Promise.reject(this.failure);
    const operator = view({ email: input.email, name: input.name, permissions: input.permissions });
    return Promise.resolve({ operator, oneTimePassword: input.password === undefined ? ONE_TIME : null });
  }
  list() {
    return Promise.resolve(this.operators);
  }
  disable(idOrEmail: string) {
    return this.answer(`disable ${idOrEmail}`, (operator) => ({
      operator: { ...operator, status: 'disabled' as const },
      changed: this.changed,
    }));
  }
  enable(idOrEmail: string) {
    return this.answer(`enable ${idOrEmail}`, (operator) => ({ operator, changed: this.changed }));
  }
  resetPassword(idOrEmail: string) {
    return this.answer(`resetPassword ${idOrEmail}`, (operator) => ({ operator, oneTimePassword: ONE_TIME }));
  }
  rightsChanges: OperatorRightsChanges[] = [];
  changeRights(idOrEmail: string, changes: OperatorRightsChanges) {
    this.rightsChanges.push(changes);
    return this.answer(`changeRights ${idOrEmail}`, (operator) => ({
      operator: { ...operator, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) },
      changedFields: this.changed
        ? Object.keys(changes).filter((key) => changes[key as keyof OperatorRightsChanges] !== undefined)
        : [],
    }));
  }
  resetTotp(idOrEmail: string) {
    return this.answer(`resetTotp ${idOrEmail}`, (operator) => ({ operator, wasEnrolled: this.changed }));
  }
  private answer<T>(call: string, result: (operator: OperatorView) => T): Promise<T | null> {
    this.calls.push(call);
    if (this.failure !== null) return Promise.reject(this.failure);
    return Promise.resolve(this.found === null ? null : result(this.found));
  }
}

describe('hotspot operator', () => {
  let operators: FakeOperators;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'operator', ...argv);

  beforeEach(() => {
    operators = new FakeOperators();
    runtime = new FakeRuntime().provide(OPERATOR_SERVICE, operators);
  });

  describe('create', () => {
    it('hands the normalised options to the service and prints the one-time password alone on stdout', async () => {
      const result = await run(
        'create',
        '--email',
        ' Ops@Example.com ',
        '--name',
        '  Ayşe  ',
        '--permissions',
        'write, read',
        '--venues',
        'ist-1,ank:2,ist-1',
        '--admin',
      );
      expect(result.code).toBe(0);
      expect(operators.created).toEqual([
        {
          email: 'Ops@Example.com',
          name: 'Ayşe',
          permissions: ['read', 'write'],
          venueIds: ['ist-1', 'ank:2'],
          admin: true,
          password: undefined,
        },
      ]);
      expect(result.stdout).toBe(`${ONE_TIME}\n`);
      expect(result.stderr).toContain(`Created operator ${ID} Ops@Example.com "Ayşe"`);
      expect(result.stderr).toContain('shown only this once and must be changed at the first sign-in');
      expect(result.stderr).not.toContain(ONE_TIME);
    });

    it('--password-stdin reads the password (one trailing newline dropped) and prints none', async () => {
      const result = await runCliWithInput(
        runtime,
        'a long passphrase\n',
        'operator',
        'create',
        '--email',
        'a@example.com',
        '--name',
        'A',
        '--permissions',
        'read',
        '--password-stdin',
      );
      expect(result.code).toBe(0);
      expect(operators.created).toEqual([expect.objectContaining({ password: 'a long passphrase', admin: false })]);
      expect(operators.created[0].venueIds).toBeNull();
      expect(result.stdout).toBe(
        `Created operator ${ID} a@example.com "A": permissions read, venues all, not admin.\n`,
      );
      expect(result.stdout + result.stderr).not.toContain('a long passphrase');
    });

    it('--password-stdin with nothing on stdin is bad usage, and nothing is created', async () => {
      const args = ['create', '--email', 'a@example.com', '--name', 'A', '--permissions', 'read', '--password-stdin'];
      for (const input of [undefined, '', '\n']) {
        const result = await runCliWithInput(runtime, input, 'operator', ...args);
        expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('found no password on stdin') });
      }
      expect(runtime.uses).toBe(0);
    });

    it('a refused password is bad usage (exit 2), naming the rule and never the password', async () => {
      operators.failure = new OperatorValidationError('password', 'is one of the most common passwords');
      const result = await runCliWithInput(
        runtime,
        'basketball',
        'operator',
        'create',
        '--email',
        'a@example.com',
        '--name',
        'A',
        '--permissions',
        'read',
        '--password-stdin',
      );
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringContaining('password is one of the most common passwords'),
      });
      expect(result.stderr).not.toContain('basketball');
    });

    it('a taken email exits 1 saying so', async () => {
      operators.failure = new OperatorEmailTakenError('a@example.com');
      const result = await run('create', '--email', 'a@example.com', '--name', 'A', '--permissions', 'read');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('An operator with the email a@example.com exists already');
    });

    it('--json prints one JSON object: the operator and its one-time password', async () => {
      const result = await run('create', '--email', 'a@example.com', '--name', 'A', '--permissions', 'read', '--json');
      expect(result.code).toBe(0);
      expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(result.stdout)).toEqual({
        ...view({ email: 'a@example.com', name: 'A' }),
        oneTimePassword: ONE_TIME,
      });
      expect(result.stderr).toBe('');
    });
  });

  describe('list', () => {
    it('--json prints the operators as the service shows them', async () => {
      operators.operators = [view(), view({ id: 'op-2', venueIds: ['A', 'B'], totpEnrolled: true })];
      const result = await run('list', '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(operators.operators);
    });

    it('prints a table with a header and one aligned row per operator', async () => {
      operators.operators = [
        view(),
        view({ id: 'op-2', email: 'b@example.com', venueIds: ['A', 'B'], admin: true, mustChangePassword: false }),
      ];
      const result = await run('list');
      const [header, first, second, ...rest] = result.stdout.trimEnd().split('\n');
      expect(rest).toEqual([]);
      expect(header).toMatch(
        /^ID\s+EMAIL\s+NAME\s+PERMISSIONS\s+VENUES\s+ADMIN\s+STATUS\s+2FA\s+CREATED\s+LAST SIGN-IN$/,
      );
      expect(first.split(/\s{2,}/)).toEqual([
        ID,
        'Ops@Example.com',
        'Ops',
        'read',
        '(all)',
        'no',
        'active (must change password)',
        '-',
        '2029-12-01T00:00:00.000Z',
        '-',
      ]);
      expect(second.split(/\s{2,}/)).toEqual(expect.arrayContaining(['A,B', 'yes', 'active']));
      expect(header.indexOf('EMAIL')).toBe(first.indexOf('Ops@Example.com'));
    });

    it('says on stderr that there are no operators, leaving stdout empty', async () => {
      expect(await run('list')).toEqual({ code: 0, stdout: '', stderr: expect.stringContaining('No operators') });
      expect(await run('list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    });
  });

  describe('set', () => {
    it('hands the given changes over and says what changed; the sessions are over', async () => {
      const result = await run(
        'set',
        'ayse@example.com',
        '--permissions',
        'read,write',
        '--venues',
        'A,B',
        '--no-admin',
      );
      expect(result.code).toBe(0);
      expect(operators.rightsChanges).toEqual([
        { name: undefined, permissions: ['read', 'write'], venueIds: ['A', 'B'], admin: false },
      ]);
      expect(result.stdout).toMatch(/^Changed permissions, venueIds, admin of operator /);
      expect(result.stderr).toContain('console sessions are over');
    });

    it('--all-venues lifts the restriction; --json prints the operator and the changed fields', async () => {
      const result = await run('set', 'ayse@example.com', '--all-venues', '--json');
      expect(operators.rightsChanges[0].venueIds).toBeNull();
      expect(JSON.parse(result.stdout)).toMatchObject({ venueIds: null, changedFields: ['venueIds'] });
    });

    it('says so when nothing changed', async () => {
      operators.changed = false;
      const result = await run('set', 'ayse@example.com', '--admin');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain('nothing changed');
    });

    it.each([
      ['nothing to change', ['ayse@example.com']],
      ['--venues and --all-venues', ['ayse@example.com', '--venues', 'A', '--all-venues']],
      ['--admin and --no-admin', ['ayse@example.com', '--admin', '--no-admin']],
      ['the radius permission', ['ayse@example.com', '--permissions', 'radius']],
    ])('is a usage error (exit 2, nothing changed) for %s', async (_case, argv) => {
      const result = await run('set', ...argv);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(operators.rightsChanges).toEqual([]);
    });

    it('exit 1 when no operator matches', async () => {
      operators.found = null;
      expect(await run('set', 'nobody@example.com', '--admin')).toMatchObject({ code: 1, stdout: '' });
    });
  });

  describe('disable, enable, reset-password, reset-2fa', () => {
    it('disable reports the change, and that the operator cannot sign in', async () => {
      const result = await run('disable', 'ops@example.com');
      expect(operators.calls).toEqual(['disable ops@example.com']);
      expect(result).toEqual({
        code: 0,
        stdout: `Disabled operator ${ID} Ops@Example.com.\n`,
        stderr: expect.stringContaining('can no longer sign in'),
      });
    });

    it('enable of an active operator says so; --json reports changed: false', async () => {
      operators.changed = false;
      expect((await run('enable', ID)).stdout).toBe(`Operator ${ID} Ops@Example.com was enabled already.\n`);
      expect(JSON.parse((await run('enable', ID, '--json')).stdout)).toEqual({
        id: ID,
        email: 'Ops@Example.com',
        status: 'active',
        changed: false,
      });
    });

    it('reset-password prints the new one-time password alone on stdout', async () => {
      const result = await run('reset-password', 'ops@example.com');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${ONE_TIME}\n`);
      expect(result.stderr).toContain('must be changed at the next sign-in');
      expect(result.stderr).toContain('It works until 2029-12-04T00:00:00.000Z (OPERATOR_ONE_TIME_PASSWORD_HOURS).');
      expect(JSON.parse((await run('reset-password', ID, '--json')).stdout)).toEqual({
        id: ID,
        email: 'Ops@Example.com',
        oneTimePassword: ONE_TIME,
        oneTimePasswordExpiresAt: '2029-12-04T00:00:00.000Z',
      });
    });

    it('reset-2fa says whether there was a second factor to forget', async () => {
      expect((await run('reset-2fa', ID)).stdout).toContain('Reset the second factor of operator');
      operators.changed = false;
      expect((await run('reset-2fa', ID)).stdout).toContain('had no second factor');
      expect(JSON.parse((await run('reset-2fa', ID, '--json')).stdout)).toEqual({
        id: ID,
        email: 'Ops@Example.com',
        wasEnrolled: false,
      });
    });

    it.each(['disable', 'enable', 'reset-password', 'reset-2fa'])('%s of an unknown operator exits 1', async (verb) => {
      operators.found = null;
      expect(await run(verb, 'nobody@example.com')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'No operator has the id or email "nobody@example.com".\n',
      });
    });

    it("a value that is one operator's id and another's email changes nothing and exits 1", async () => {
      operators.failure = new OperatorAmbiguousError('x@example.com', 'a@example.com');
      const result = await run('disable', 'x@example.com');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('is the id of operator a@example.com and the email of another');
    });
  });

  it.each([
    [[], /Usage: hotspot operator/],
    [['create'], /required option '--email <email>'/],
    [['create', '--email', 'a@example.com', '--permissions', 'read'], /required option '--name <name>'/],
    [['create', '--email', 'a@example.com', '--name', 'A'], /required option '--permissions <list>'/],
    [['create', '--email', 'nobody', '--name', 'A', '--permissions', 'read'], /'--email' must be an email address/],
    [['create', '--email', 'a@example.com', '--name', ' ', '--permissions', 'read'], /'--name' must be 1-100/],
    [
      ['create', '--email', 'a@example.com', '--name', 'tab\there', '--permissions', 'read'],
      /'--name' must not contain control characters/,
    ],
    [['create', '--email', 'a@example.com', '--name', 'A', '--permissions', 'radius'], /\(not: "radius"\)/],
    [['create', '--email', 'a@example.com', '--name', 'A', '--permissions', ''], /'--permissions' must be/],
    [['create', '--email', 'a@example.com', '--name', 'A', '--permissions', 'read', '--venues', 'a b'], /'--venues'/],
    [['create', '--email', 'a@example.com', '--name', 'A', '--permissions', 'read', '--admin', '--admin'], /only once/],
    [['list', 'extra'], /too many arguments/],
    [['disable'], /missing required argument 'id-or-email'/],
    [['enable', ''], /not an operator id or email/],
    [['reset-password', 'has space'], /not an operator id or email/],
    [['reset-2fa', 'a', 'b'], /too many arguments/],
  ])('refuses %j with exit code 2, a message on stderr, nothing on stdout, no service call', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(runtime.uses).toBe(0);
  });

  it('--help of create lists every option, on stdout, with exit 0', async () => {
    const result = await run('create', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: hotspot operator create [options]');
    for (const option of ['--email <email>', '--name <name>', '--permissions <list>', '--venues <ids>', '--admin']) {
      expect(result.stdout).toContain(option);
    }
    expect(result.stdout).toContain('--password-stdin');
    expect(result.stdout).toContain('--json');
    expect(runtime.uses).toBe(0);
  });
});
