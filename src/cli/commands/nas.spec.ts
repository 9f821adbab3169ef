import {
  NasAmbiguousError,
  NasNameTakenError,
  NasValidationError,
  type AddNasInput,
  type NasChanges,
  type NasClient,
} from '../../nas/nas.service.js';
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
    acceptsCoa: true,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    ...overrides,
  };
}

/** A registry that records its calls and answers what the test sets. */
class FakeRegistry implements NasRegistry {
  added: AddNasInput[] = [];
  removed: string[] = [];
  updated: Array<[string, NasChanges]> = [];
  nases: NasClient[] = [];
  failure: Error | null = null;
  encryptsSecrets = true;
  registeredVenues = ['lobby'];

  async add(input: AddNasInput): Promise<NasClient> {
    this.added.push(input);
    if (this.failure) throw this.failure;
    const { secret: _secret, allowShortSecret: _allowShort, ...shown } = input;
    return nasClient({
      ...shown,
      ipAddress: input.ipAddress,
      coaPort: input.coaPort ?? 3799,
      vendor: input.vendor ?? 'other',
      acceptsCoa: input.acceptsCoa ?? true,
    });
  }
  async update(idOrName: string, changes: NasChanges) {
    this.updated.push([idOrName, changes]);
    if (this.failure) throw this.failure;
    const nas = this.nases.find((candidate) => candidate.id === idOrName || candidate.name === idOrName);
    return nas === undefined
      ? null
      : { ...nas, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  }
  async list() {
    return this.nases;
  }
  async isVenueRegistered(venueId: string) {
    return this.registeredVenues.includes(venueId);
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
          acceptsCoa: true,
          allowShortSecret: false,
        },
      ]);
      expect(result.stdout).toBe(
        'Added NAS 0190d5a0-0000-7000-8000-000000000001 "lobby-ap": venue lobby, address 192.0.2.10, CoA port 1700, ' +
          'vendor mikrotik, Message-Authenticator required, accepts CoA.\n',
      );
      expect(result.stdout + result.stderr).not.toContain(SECRET);
      expect(result.stderr).toContain('regenerate its configuration');
      expect(result.stderr).not.toContain('SECRETS_KEY');
      expect(result.stderr).not.toContain('not registered');
    });

    it('adds the NAS of an unregistered venue with a warning on stderr', async () => {
      registry.registeredVenues = [];
      const result = await run('add', ...REQUIRED, '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ venueId: 'lobby' });
      expect(result.stderr).toContain(
        'Warning: the venue "lobby" is not registered; register it with: hotspot venue set lobby\n',
      );
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
        acceptsCoa: true,
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

    it('--allow-short-secret lets the registry take a secret under 16 octets', async () => {
      expect((await run('add', ...REQUIRED.slice(0, 6), '--secret', 'short', '--allow-short-secret')).code).toBe(0);
      expect((await run('add', ...REQUIRED)).code).toBe(0);
      expect(registry.added.map((input) => input.allowShortSecret)).toEqual([true, false]);
    });

    it('--no-coa registers a NAS that accepts no CoA-Requests', async () => {
      const result = await run('add', ...REQUIRED, '--no-coa');
      expect(result.code).toBe(0);
      expect(registry.added[0].acceptsCoa).toBe(false);
      expect(result.stdout).toContain('does not accept CoA');
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
      nasClient({
        id: 'id-2',
        name: 'gw',
        ipAddress: '10.0.0.0/8',
        coaPort: 0,
        requireMessageAuthenticator: true,
        acceptsCoa: false,
      }),
    ];

    it('prints a table without secrets', async () => {
      registry.nases = nases;
      const result = await run('list');
      expect(result.code).toBe(0);
      const [header, ...rows] = result.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^ID\s+NAME\s+VENUE\s+ADDRESS\s+COA PORT\s+COA\s+VENDOR\s+MESSAGE-AUTH\s+CREATED$/);
      expect(rows).toHaveLength(2);
      expect(rows[1].split(/\s{2,}/)).toEqual([
        'id-2',
        'gw',
        'lobby',
        '10.0.0.0/8',
        '-',
        'no',
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

  describe('set', () => {
    beforeEach(() => {
      registry.nases = [nasClient({ acceptsCoa: false })];
    });

    it('--coa clears the mark and prints the NAS as changed', async () => {
      const result = await run('set', 'lobby-ap', '--coa');
      expect(result.code).toBe(0);
      expect(registry.updated).toEqual([
        [
          'lobby-ap',
          { coaPort: undefined, vendor: undefined, requireMessageAuthenticator: undefined, acceptsCoa: true },
        ],
      ]);
      expect(result.stdout).toBe(
        'Changed NAS 0190d5a0-0000-7000-8000-000000000001 "lobby-ap": venue lobby, address 192.0.2.10, CoA port 3799, ' +
          'vendor other, Message-Authenticator not required, accepts CoA.\n',
      );
      expect(result.stderr).toBe('');
    });

    it('hands every given change over; a Message-Authenticator change asks for a regenerated configuration', async () => {
      const result = await run(
        'set',
        'lobby-ap',
        '--no-coa',
        '--coa-port',
        '1700',
        '--vendor',
        'mikrotik',
        '--no-require-message-authenticator',
        '--json',
      );
      expect(result.code).toBe(0);
      expect(registry.updated[0][1]).toEqual({
        coaPort: 1700,
        vendor: 'mikrotik',
        requireMessageAuthenticator: false,
        acceptsCoa: false,
      });
      expect(JSON.parse(result.stdout)).toMatchObject({ coaPort: 1700, vendor: 'mikrotik', acceptsCoa: false });
      expect(result.stderr).toContain('regenerate its configuration');
    });

    it.each([
      ['no change', ['lobby-ap']],
      ['--coa and --no-coa', ['lobby-ap', '--coa', '--no-coa']],
      ['a bad port', ['lobby-ap', '--coa-port', 'x']],
      ['a bad argument', ['lobby ap', '--coa']],
    ])('is a usage error (exit 2, nothing changed) for %s', async (_case, argv) => {
      const result = await run('set', ...argv);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(registry.updated).toEqual([]);
    });

    it('exit 1 when no NAS matches, or the value is one NAS id and another name', async () => {
      const missing = await run('set', 'gone', '--coa');
      expect(missing).toMatchObject({ code: 1, stdout: '' });
      expect(missing.stderr).toContain('No NAS has the id or name "gone".');
      registry.failure = new NasAmbiguousError('lobby-ap', 'other-ap');
      const ambiguous = await run('set', 'lobby-ap', '--coa');
      expect(ambiguous).toMatchObject({ code: 1, stdout: '' });
      expect(ambiguous.stderr).toContain('nothing was changed. Change "other-ap" by its name');
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
      '--no-coa',
      '--json',
    ]) {
      expect(help.stdout).toContain(option);
    }
  });
});
