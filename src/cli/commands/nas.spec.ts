import { NasNameTakenError, NasValidationError, type AddNasInput, type NasClient } from '../../nas/nas.service.js';
import { FakeRuntime, runCli } from '../../testing/cli.js';
import { NAS_SERVICE, type NasRegistry } from './nas.js';

const SECRET = 'sh4red-secret-value';

function nasClient(overrides: Partial<NasClient> = {}): NasClient {
  return {
    id: '0190d5a0-0000-7000-8000-000000000001',
    venueId: 'lobby',
    name: 'lobby-ap',
    ipAddress: '192.0.2.10',
    coaPort: 3799,
    vendor: 'other',
    requireMessageAuthenticator: false,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    ...overrides,
  };
}

/** A registry that records its calls and answers what the test sets. */
class FakeRegistry implements NasRegistry {
  added: AddNasInput[] = [];
  removed: string[] = [];
  nases: NasClient[] = [];
  failure: Error | null = null;
  encryptsSecrets = true;

  async add(input: AddNasInput): Promise<NasClient> {
    this.added.push(input);
    if (this.failure) throw this.failure;
    const { secret: _secret, ...shown } = input;
    return nasClient({
      ...shown,
      ipAddress: input.ipAddress,
      coaPort: input.coaPort ?? 3799,
      vendor: input.vendor ?? 'other',
    });
  }
  async list() {
    return this.nases;
  }
  async remove(idOrName: string) {
    this.removed.push(idOrName);
    return this.nases.find((nas) => nas.id === idOrName || nas.name === idOrName) ?? null;
  }
}

describe('hotspot nas', () => {
  let registry: FakeRegistry;
  let runtime: FakeRuntime;
  const run = (...argv: string[]) => runCli(runtime, 'nas', ...argv);
  const REQUIRED = ['--venue', 'lobby', '--name', 'lobby-ap', '--ip', '192.0.2.10', '--secret', SECRET];

  beforeEach(() => {
    registry = new FakeRegistry();
    runtime = new FakeRuntime().provide(NAS_SERVICE, registry);
  });

  describe('add', () => {
    it('hands the option values to the registry and prints the NAS without its secret', async () => {
      const result = await run(
        'add',
        ...REQUIRED,
        '--coa-port',
        '1700',
        '--vendor',
        'mikrotik',
        '--require-message-authenticator',
      );
      expect(result.code).toBe(0);
      expect(registry.added).toEqual([
        {
          venueId: 'lobby',
          name: 'lobby-ap',
          ipAddress: '192.0.2.10',
          secret: SECRET,
          coaPort: 1700,
          vendor: 'mikrotik',
          requireMessageAuthenticator: true,
        },
      ]);
      expect(result.stdout).toBe(
        'Added NAS 0190d5a0-0000-7000-8000-000000000001 "lobby-ap": venue lobby, address 192.0.2.10, CoA port 1700, ' +
          'vendor mikrotik, Message-Authenticator required.\n',
      );
      expect(result.stdout + result.stderr).not.toContain(SECRET);
      expect(result.stderr).toContain('regenerate its configuration');
      expect(result.stderr).not.toContain('SECRETS_KEY');
    });

    it('--json prints exactly the public fields; without SECRETS_KEY a warning goes to stderr', async () => {
      registry.encryptsSecrets = false;
      const result = await run('add', ...REQUIRED, '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        id: '0190d5a0-0000-7000-8000-000000000001',
        venueId: 'lobby',
        name: 'lobby-ap',
        ipAddress: '192.0.2.10',
        coaPort: 3799,
        vendor: 'other',
        requireMessageAuthenticator: false,
        createdAt: '2030-01-01T00:00:00.000Z',
      });
      expect(result.stderr).toContain('SECRETS_KEY is not set, so the shared secret is stored in clear');
      expect(result.stdout + result.stderr).not.toContain(SECRET);
      expect(registry.added[0]).toMatchObject({
        coaPort: undefined,
        vendor: undefined,
        requireMessageAuthenticator: false,
      });
    });

    it('normalises the address: a network keeps its prefix, a single address loses /32', async () => {
      await run('add', ...REQUIRED.slice(0, 4), '--ip', '2001:DB8::/64', '--secret', SECRET);
      await run('add', ...REQUIRED.slice(0, 4), '--ip', '192.0.2.10/32', '--secret', SECRET);
      expect(registry.added.map((input) => input.ipAddress)).toEqual(['2001:db8::/64', '192.0.2.10']);
    });

    it.each([
      ['a missing secret', REQUIRED.slice(0, 6)],
      ['a bad name', [...REQUIRED.slice(0, 2), '--name', 'lobby ap', ...REQUIRED.slice(4)]],
      ['a host name', [...REQUIRED.slice(0, 4), '--ip', 'ap.example', ...REQUIRED.slice(6)]],
      ['host bits set', [...REQUIRED.slice(0, 4), '--ip', '192.0.2.1/24', ...REQUIRED.slice(6)]],
      ['a quote in the secret', [...REQUIRED.slice(0, 6), '--secret', 'bad"secret']],
      ['a too long secret', [...REQUIRED.slice(0, 6), '--secret', 'x'.repeat(129)]],
      ['a bad CoA port', [...REQUIRED, '--coa-port', '65536']],
      ['an unknown vendor', [...REQUIRED, '--vendor', 'juniper']],
      ['a repeated option', [...REQUIRED, '--secret', 'other']],
    ])('is a usage error (exit 2, nothing done) for %s, never echoing the secret', async (_case, argv) => {
      const result = await run('add', ...argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('bad"secret');
      expect(result.stderr).not.toContain(SECRET);
      expect(runtime.uses).toBe(0);
    });

    it('exit 1 when the name is taken; exit 2 when the registry refuses a value', async () => {
      registry.failure = new NasNameTakenError('lobby-ap');
      const taken = await run('add', ...REQUIRED);
      expect(taken).toMatchObject({ code: 1, stdout: '' });
      expect(taken.stderr).toContain('A NAS named "lobby-ap" is registered already.');

      registry.failure = new NasValidationError('venueId', 'must be 1-64 characters of A-Za-z0-9_.:-');
      expect(await run('add', ...REQUIRED)).toMatchObject({ code: 2, stdout: '' });
    });
  });

  describe('list', () => {
    const nases = [
      nasClient(),
      nasClient({ id: 'id-2', name: 'gw', ipAddress: '10.0.0.0/8', coaPort: 0, requireMessageAuthenticator: true }),
    ];

    it('prints a table without secrets', async () => {
      registry.nases = nases;
      const result = await run('list');
      expect(result.code).toBe(0);
      const [header, ...rows] = result.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^ID\s+NAME\s+VENUE\s+ADDRESS\s+COA PORT\s+VENDOR\s+MESSAGE-AUTH\s+CREATED$/);
      expect(rows).toHaveLength(2);
      expect(rows[1].split(/\s{2,}/)).toEqual([
        'id-2',
        'gw',
        'lobby',
        '10.0.0.0/8',
        '-',
        'other',
        'required',
        '2030-01-01T00:00:00.000Z',
      ]);
    });

    it('--json prints an array; an empty registry is [] on stdout and a hint on stderr in text mode', async () => {
      registry.nases = nases;
      expect(JSON.parse((await run('list', '--json')).stdout)).toHaveLength(2);
      registry.nases = [];
      expect((await run('list', '--json')).stdout).toBe('[]\n');
      const empty = await run('list');
      expect(empty).toMatchObject({ code: 0, stdout: '' });
      expect(empty.stderr).toContain('No NASes');
    });
  });

  describe('remove', () => {
    it('removes by name or id; exit 1 when none matches', async () => {
      registry.nases = [nasClient()];
      const byName = await run('remove', 'lobby-ap');
      expect(byName).toMatchObject({
        code: 0,
        stdout: 'Removed NAS 0190d5a0-0000-7000-8000-000000000001 "lobby-ap".\n',
      });
      expect(JSON.parse((await run('remove', '0190d5a0-0000-7000-8000-000000000001', '--json')).stdout)).toEqual({
        id: '0190d5a0-0000-7000-8000-000000000001',
        name: 'lobby-ap',
      });
      registry.nases = [];
      const missing = await run('remove', 'gone');
      expect(missing).toMatchObject({ code: 1, stdout: '' });
      expect(missing.stderr).toContain('No NAS has the id or name "gone".');
    });
  });

  it('--help lists the subcommands and options', async () => {
    const help = await run('add', '--help');
    expect(help.code).toBe(0);
    for (const option of [
      '--venue',
      '--name',
      '--ip',
      '--secret',
      '--coa-port',
      '--vendor',
      '--require-message-authenticator',
      '--json',
    ]) {
      expect(help.stdout).toContain(option);
    }
  });
});
