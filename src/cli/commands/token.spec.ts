import type { CreateTokenInput, TokenRevocation } from '../../auth/api-token.service.js';
import type { TokenStatus } from '../../auth/token-rules.js';
import { ApiTokenEntity } from '../../auth/entities/api-token.entity.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { TOKEN_SERVICE, type TokenService } from './token.js';

const VALUE = 'hsp_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

function tokenEntity(overrides: Partial<ApiTokenEntity> = {}): ApiTokenEntity {
  return Object.assign(new ApiTokenEntity(), {
    id: '0190d5a0-0000-7000-8000-000000000001',
    name: 'portal',
    prefix: VALUE.slice(0, 12),
    tokenHash: 'f'.repeat(64),
    permissions: ['read'],
    venueIds: null,
    createdAt: new Date('2029-12-01T00:00:00.000Z'),
    lastUsedAt: null,
    revokedAt: null,
    expiresAt: null,
    ...overrides,
  });
}

/** A token service that records its calls; the status of a token is whatever `statuses` says. */
class FakeTokens implements TokenService {
  created: CreateTokenInput[] = [];
  revoked: string[] = [];
  tokens: ApiTokenEntity[] = [];
  statuses = new Map<string, TokenStatus>();
  revocation: TokenRevocation | null = null;

  create(input: CreateTokenInput) {
    this.created.push(input);
    const record = tokenEntity({ ...input, permissions: input.permissions });
    return Promise.resolve({ record, value: VALUE });
  }
  list() {
    return Promise.resolve(this.tokens);
  }
  statusOf(token: Pick<ApiTokenEntity, 'revokedAt' | 'expiresAt'>): TokenStatus {
    return this.statuses.get((token as ApiTokenEntity).id) ?? 'active';
  }
  revokeReporting(idOrValue: string) {
    this.revoked.push(idOrValue);
    return Promise.resolve(this.revocation);
  }
}

describe('hotspot token', () => {
  let tokens: FakeTokens;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'token', ...argv);

  beforeEach(() => {
    tokens = new FakeTokens();
    runtime = new FakeRuntime(new Date('2030-01-01T00:00:00.000Z')).provide(TOKEN_SERVICE, tokens);
  });

  describe('create', () => {
    it('hands the normalised option values to the service and prints the value alone on stdout', async () => {
      const result = await run(
        'create',
        '--name',
        '  venue admin  ',
        '--permissions',
        'write, read',
        '--venues',
        'ist-1,ank:2,ist-1',
        '--expires-at',
        '2030-06-30T15:00:00.123+03:00',
      );
      expect(result.code).toBe(0);
      expect(tokens.created).toEqual([
        {
          name: 'venue admin',
          permissions: ['read', 'write'],
          venueIds: ['ist-1', 'ank:2'],
          expiresAt: new Date('2030-06-30T12:00:00.123Z'),
        },
      ]);
      expect(result.stdout).toBe(`${VALUE}\n`);
      expect(result.stderr).toContain('shown only this once');
      expect(result.stderr).not.toContain(VALUE);
    });

    it('leaves venues and expiry unset when they are not given', async () => {
      expect((await run('create', '--name', 'x', '--permissions', 'delete')).code).toBe(0);
      expect(tokens.created).toEqual([{ name: 'x', permissions: ['delete'], venueIds: null, expiresAt: null }]);
    });

    it('--json prints one JSON object with exactly the contract fields', async () => {
      const result = await run('create', '--name', 'x', '--permissions', 'read', '--venues', 'A', '--json');
      expect(result.code).toBe(0);
      expect(result.stdout.endsWith('\n')).toBe(true);
      expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(result.stdout)).toEqual({
        id: '0190d5a0-0000-7000-8000-000000000001',
        name: 'x',
        token: VALUE,
        prefix: VALUE.slice(0, 12),
        permissions: ['read'],
        venueIds: ['A'],
        expiresAt: null,
      });
      expect(result.stderr).toBe('');
    });

    it('takes "now" from the runtime for --expires-at', async () => {
      expect(
        (await run('create', '--name', 'x', '--permissions', 'read', '--expires-at', '2030-01-01T00:00:00Z')).code,
      ).toBe(2);
      expect(
        (await run('create', '--name', 'x', '--permissions', 'read', '--expires-at', '2030-01-01T00:00:01Z')).code,
      ).toBe(0);
    });
  });

  describe('list', () => {
    const revoked = tokenEntity({
      id: '0190d5a0-0000-7000-8000-000000000002',
      name: 'old',
      permissions: ['read', 'write'],
      venueIds: ['A', 'B'],
      lastUsedAt: new Date('2029-12-02T00:00:00.000Z'),
      revokedAt: new Date('2029-12-03T00:00:00.000Z'),
      expiresAt: new Date('2031-01-01T00:00:00.000Z'),
    });

    it('--json prints the tokens with the status the service decides, never a value or hash', async () => {
      tokens.tokens = [tokenEntity(), revoked];
      tokens.statuses.set(revoked.id, 'revoked');
      const result = await run('list', '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([
        {
          id: '0190d5a0-0000-7000-8000-000000000001',
          name: 'portal',
          prefix: 'hsp_01234567',
          permissions: ['read'],
          venueIds: null,
          status: 'active',
          createdAt: '2029-12-01T00:00:00.000Z',
          lastUsedAt: null,
          expiresAt: null,
          revokedAt: null,
        },
        {
          id: revoked.id,
          name: 'old',
          prefix: 'hsp_01234567',
          permissions: ['read', 'write'],
          venueIds: ['A', 'B'],
          status: 'revoked',
          createdAt: '2029-12-01T00:00:00.000Z',
          lastUsedAt: '2029-12-02T00:00:00.000Z',
          expiresAt: '2031-01-01T00:00:00.000Z',
          revokedAt: '2029-12-03T00:00:00.000Z',
        },
      ]);
      expect(result.stdout).not.toContain('f'.repeat(64));
    });

    it('prints a table with a header and one aligned row per token', async () => {
      tokens.tokens = [tokenEntity(), revoked];
      tokens.statuses.set(revoked.id, 'expired');
      const result = await run('list');
      expect(result.code).toBe(0);
      const [header, first, second, ...rest] = result.stdout.trimEnd().split('\n');
      expect(rest).toEqual([]);
      expect(header).toMatch(
        /^ID\s+NAME\s+PREFIX\s+PERMISSIONS\s+VENUES\s+STATUS\s+CREATED\s+LAST USED\s+EXPIRES\s+REVOKED$/,
      );
      expect(first.split(/\s{2,}/)).toEqual([
        '0190d5a0-0000-7000-8000-000000000001',
        'portal',
        'hsp_01234567…',
        'read',
        '(all)',
        'active',
        '2029-12-01T00:00:00.000Z',
        '-',
        '-',
        '-',
      ]);
      expect(second.split(/\s{2,}/)).toContain('expired');
      expect(second.split(/\s{2,}/)).toContain('A,B');
      expect(header.indexOf('STATUS')).toBe(first.indexOf('active'));
    });

    it('says on stderr that there are no tokens, leaving stdout empty', async () => {
      expect(await run('list')).toEqual({ code: 0, stdout: '', stderr: expect.stringContaining('No tokens') });
      expect(await run('list', '--json')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    });
  });

  describe('revoke', () => {
    const revokedAt = new Date('2030-01-01T00:00:00.000Z');

    it('exits 1 without echoing the argument when no token matches', async () => {
      const result = await run('revoke', VALUE);
      expect(result).toEqual({ code: 1, stdout: '', stderr: 'No token matches that id or value.\n' });
      expect(tokens.revoked).toEqual([VALUE]);
    });

    it('reports a fresh revocation, and how long other instances may still accept the token', async () => {
      tokens.revocation = { token: tokenEntity({ revokedAt }), alreadyRevoked: false };
      const result = await run('revoke', VALUE);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        'Revoked token 0190d5a0-0000-7000-8000-000000000001 "portal" at 2030-01-01T00:00:00.000Z.\n',
      );
      expect(result.stderr).toBe('Running API instances refuse it within 1 s.\n');
      expect(result.stdout + result.stderr).not.toContain(VALUE);
    });

    it('--json reports what the service decided about an earlier revocation', async () => {
      tokens.revocation = { token: tokenEntity({ revokedAt }), alreadyRevoked: true };
      const result = await run('revoke', 'some-id', '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        id: '0190d5a0-0000-7000-8000-000000000001',
        name: 'portal',
        revokedAt: '2030-01-01T00:00:00.000Z',
        alreadyRevoked: true,
      });
      expect(result.stderr).toBe('');
    });

    it('says so in text when the token was revoked already', async () => {
      tokens.revocation = { token: tokenEntity({ revokedAt }), alreadyRevoked: true };
      expect((await run('revoke', 'some-id')).stdout).toContain('was already revoked at 2030-01-01T00:00:00.000Z');
    });
  });

  it.each([
    [[], /Usage: hotspot token/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['create'], /required option '--name <name>'/],
    [['create', '--permissions', 'read'], /required option '--name <name>'/],
    [['create', '--name', 'x'], /required option '--permissions <list>'/],
    [['create', '--name', '', '--permissions', 'read'], /'--name' must be 1-100 characters/],
    [['create', '--name', '   ', '--permissions', 'read'], /'--name' must be 1-100 characters/],
    [['create', '--name', 'x'.repeat(101), '--permissions', 'read'], /'--name' must be 1-100 characters/],
    [['create', '--name', 'tab\there', '--permissions', 'read'], /'--name' must not contain control characters/],
    [
      ['create', '--name', 'x', '--permissions', ''],
      /'--permissions' must be a comma-separated list of read, write, delete/,
    ],
    [['create', '--name', 'x', '--permissions', 'admin'], /\(not: "admin"\)/],
    [['create', '--name', 'x', '--permissions', 'read,'], /'--permissions'/],
    [['create', '--name', 'x', '--permissions', 'READ'], /\(not: "READ"\)/],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', ''], /'--venues' must be a comma-separated list/],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'a b'], /\(not: "a b"\)/],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'a,,b'], /'--venues'/],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'v'.repeat(65)], /'--venues'/],
    [['create', '--name', 'x', '--permissions', 'read', '--venues', 'café'], /\(not: "café"\)/],
    [
      ['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-06-30'],
      /'--expires-at' must be an ISO 8601/,
    ],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-06-30T12:00:00'], /'--expires-at'/],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2099-02-30T12:00:00Z'], /'--expires-at'/],
    [['create', '--name', 'x', '--permissions', 'read', '--expires-at', 'tomorrow'], /'--expires-at'/],
    [
      ['create', '--name', 'x', '--permissions', 'read', '--expires-at', '2001-01-01T00:00:00Z'],
      /must lie in the future/,
    ],
    [['create', '--name', 'x', '--permissions', 'read', '--bogus'], /unknown option '--bogus'/],
    [['create', '--name', 'x', '--name', 'y', '--permissions', 'read'], /'--name' may be given only once/],
    [['create', '--name', 'x', '--permissions', 'read', 'extra'], /too many arguments/],
    [['create', '--name'], /'--name <name>' argument missing/],
    [['list', 'extra'], /too many arguments/],
    [['list', '--all'], /unknown option '--all'/],
    [['revoke'], /missing required argument 'id-or-token'/],
    [['revoke', 'a', 'b'], /too many arguments/],
    [['revoke', ''], /not a token id or token value/],
    [['revoke', 'has space'], /not a token id or token value/],
  ])('refuses %j with exit code 2, a message on stderr, nothing on stdout, no service call', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(runtime.uses).toBe(0);
  });

  it('never echoes a control character of a bad value', async () => {
    const result = await run('create', '--name', 'x', '--permissions', 'read,\u001b[31mwrite');
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('\u001b');
  });

  it('--help of create lists every option, on stdout, with exit 0', async () => {
    const result = await run('create', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: hotspot token create [options]');
    for (const option of ['--name <name>', '--permissions <list>', '--venues <ids>', '--expires-at <iso>', '--json']) {
      expect(result.stdout).toContain(option);
    }
    expect(runtime.uses).toBe(0);
  });
});
