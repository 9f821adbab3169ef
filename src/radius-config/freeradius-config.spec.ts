import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FreeRadiusConfigError,
  renderFreeRadiusConfig,
  writeFreeRadiusConfig,
  type FreeRadiusConfigInput,
} from './freeradius-config.js';

const TOKEN = 'hsp_radius-token-0123456789abcdef';
const INPUT: FreeRadiusConfigInput = {
  apiUrl: 'http://api.internal:3000/',
  token: TOKEN,
  confDir: '/etc/hotspot-radius',
  clients: [
    { name: 'lobby-ap', ipAddress: '192.0.2.10', secret: "it's-${secret}", requireMessageAuthenticator: true },
    { name: 'v6-gw', ipAddress: '2001:db8::/64', secret: 'plain', requireMessageAuthenticator: false },
  ],
};

describe('FreeRADIUS configuration generator', () => {
  it('fills every placeholder of every template', () => {
    const files = renderFreeRadiusConfig(INPUT);
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'radiusd.conf',
        'clients.conf',
        'dictionary',
        'mods-enabled/rest',
        'mods-enabled/always',
        'mods-enabled/expr',
        'mods-enabled/attr_filter',
        'mods-config/attr_filter/access_reject',
        'policy.d/hotspot',
        'policy.d/accounting',
        'sites-enabled/hotspot',
      ]),
    );
    for (const [path, text] of files) expect(`${path}: ${text}`).not.toMatch(/@@[A-Z_]+@@/);
    expect(files.get('mods-enabled/rest')).toContain('connect_uri = "http://api.internal:3000"');
    expect(files.get('mods-enabled/rest')).toContain('timeout = 0.250');
    expect(files.get('policy.d/hotspot')).toContain(`"Authorization: Bearer ${TOKEN}"`);
    expect(files.get('radiusd.conf')).toContain('confdir = /etc/hotspot-radius');
    expect(files.get('sites-enabled/hotspot')).toMatch(/type = auth\s+ipaddr = \*\s+port = 1812/);
    expect(files.get('sites-enabled/hotspot')).toMatch(/type = acct\s+ipaddr = \*\s+port = 1813/);
  });

  it('writes one client per NAS, secrets single-quoted so FreeRADIUS takes them literally', () => {
    const clients = renderFreeRadiusConfig(INPUT).get('clients.conf')!;
    expect(clients).toContain(
      "client lobby-ap {\n\tipaddr = 192.0.2.10\n\tsecret = 'it\\'s-${secret}'\n\trequire_message_authenticator = yes\n\tshortname = lobby-ap\n}",
    );
    expect(clients).toContain(
      "client v6-gw {\n\tipv6addr = 2001:db8::/64\n\tsecret = 'plain'\n\trequire_message_authenticator = no\n",
    );
    expect(renderFreeRadiusConfig({ ...INPUT, clients: [] }).get('clients.conf')).toContain('No NAS is registered');
  });

  it('refuses two NASes with one address, which FreeRADIUS would refuse to start with', () => {
    const clients = [
      ...INPUT.clients,
      { name: 'lobby-ap-2', ipAddress: '192.0.2.10/32', secret: 'other', requireMessageAuthenticator: false },
    ];
    expect(() => renderFreeRadiusConfig({ ...INPUT, clients })).toThrow(
      'NAS "lobby-ap" and NAS "lobby-ap-2" have the same address 192.0.2.10; remove one of them.',
    );
  });

  it('listens on the given ports and address', () => {
    const site = renderFreeRadiusConfig({ ...INPUT, authPort: 18120, acctPort: 18130, listenAddress: '::1' }).get(
      'sites-enabled/hotspot',
    )!;
    expect(site).toMatch(/type = auth\s+ipv6addr = ::1\s+port = 18120/);
    expect(site).toMatch(/type = acct\s+ipv6addr = ::1\s+port = 18130/);
  });

  it.each<[string, Partial<FreeRadiusConfigInput>]>([
    ['a non-http URL', { apiUrl: 'ftp://x' }],
    ['a URL with a query', { apiUrl: 'http://x/?a=1' }],
    ['a URL FreeRADIUS would expand', { apiUrl: 'http://x/%{User-Name}' }],
    ['a short token', { token: 'short' }],
    ['a token with a quote', { token: 'hsp_0123456789abcdef"x' }],
    ['equal ports', { authPort: 1812, acctPort: 1812 }],
    ['a port out of range', { authPort: 70000 }],
    ['a bad listen address', { listenAddress: 'localhost' }],
    ['a relative folder', { confDir: 'raddb' }],
    [
      'a client with a bad secret',
      { clients: [{ name: 'x', ipAddress: '192.0.2.1', secret: 'a"b', requireMessageAuthenticator: false }] },
    ],
  ])('refuses %s, without naming the token or a secret', (_case, change) => {
    let error: unknown;
    try {
      renderFreeRadiusConfig({ ...INPUT, ...change });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FreeRadiusConfigError);
    expect((error as Error).message).not.toContain(TOKEN);
    expect((error as Error).message).not.toContain('a"b');
  });

  describe('writing', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'radius-config-spec-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('creates the folder 0700 and files 0600, and may write again into its own folder', async () => {
      const dir = join(root, 'raddb');
      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT));
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'policy.d/hotspot')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'log')).isDirectory()).toBe(true);
      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig({ ...INPUT, clients: [] }));
      expect(readFileSync(join(dir, 'clients.conf'), 'utf8')).not.toContain('lobby-ap');
    });

    it('writes through no symbolic link inside its folder: a linked file is replaced, a linked folder refused', async () => {
      const dir = join(root, 'raddb');
      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT));
      const elsewhere = join(root, 'elsewhere.conf');
      writeFileSync(elsewhere, 'untouched');
      rmSync(join(dir, 'clients.conf'));
      symlinkSync(elsewhere, join(dir, 'clients.conf'));

      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT));
      expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
      expect(lstatSync(join(dir, 'clients.conf')).isFile()).toBe(true);
      expect(statSync(join(dir, 'clients.conf')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, 'clients.conf'), 'utf8')).toContain('lobby-ap');

      const elsewhereFolder = join(root, 'elsewhere');
      mkdirSync(elsewhereFolder);
      rmSync(join(dir, 'policy.d'), { recursive: true });
      symlinkSync(elsewhereFolder, join(dir, 'policy.d'));
      await expect(writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT))).rejects.toThrow(
        `${join(dir, 'policy.d')} is a symbolic link or not a folder`,
      );
      expect(readdirSync(elsewhereFolder)).toEqual([]);
    });

    it('refuses a folder that holds other files', async () => {
      const dir = join(root, 'other');
      mkdirSync(dir);
      writeFileSync(join(dir, 'keep.txt'), 'x');
      await expect(writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT))).rejects.toThrow(/not empty/);
    });
  });
});
