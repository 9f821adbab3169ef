import { spawnSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
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
import { makeTestCertificates, type TestCertificates } from '../../test/support/eap.js';
import {
  accountingDatabaseGrants,
  existingAccountingDatabase,
  existingEapCertificates,
  FreeRadiusConfigError,
  readEapCertificates,
  renderFreeRadiusConfig,
  writeFreeRadiusConfig,
  type EapCertificates,
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

  describe('EAP-TTLS with inner PAP', () => {
    let root: string;
    let paths: TestCertificates;
    let other: TestCertificates;
    let eap: EapCertificates;
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'radius-config-eap-spec-'));
      mkdirSync(join(root, 'one'));
      mkdirSync(join(root, 'two'));
      paths = makeTestCertificates(join(root, 'one'));
      other = makeTestCertificates(join(root, 'two'));
      eap = readEapCertificates({
        certificate: paths.certificatePath,
        privateKey: paths.privateKeyPath,
        caChain: paths.caPath,
      });
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('without EAP: no eap module, no inner server, no certificates, no eap call in the site', () => {
      const files = renderFreeRadiusConfig(INPUT);
      expect([...files.keys()].filter((path) => /eap|inner|certs\//.test(path))).toEqual([]);
      expect(files.get('sites-enabled/hotspot')).not.toMatch(/\beap\b|@@/);
    });

    it('with EAP: the eap module (TTLS, TLS 1.2, the certificates), the inner server and the outer eap calls', () => {
      const files = renderFreeRadiusConfig({ ...INPUT, eap });
      const module = files.get('mods-enabled/eap')!;
      expect(module).toContain('default_eap_type = ttls');
      expect(module).toContain('tls_min_version = "1.2"');
      expect(module).toContain('certificate_file = ${confdir}/certs/server.pem');
      expect(module).toContain('private_key_file = ${confdir}/certs/server.key');
      expect(module).toContain('ca_file = ${confdir}/certs/ca.pem');
      expect(module).toContain('use_tunneled_reply = yes');
      expect(module).toContain('virtual_server = "hotspot-inner"');
      const inner = files.get('sites-enabled/hotspot-inner')!;
      expect(inner).toMatch(/authorize \{\s+hotspot_rest_headers\s+rest\s/);
      expect(inner).toContain('hotspot_post_auth_accept');
      expect(inner).toContain('hotspot_post_auth_reject');
      const site = files.get('sites-enabled/hotspot')!;
      // Outer EAP rounds end authorize before the rest call.
      expect(site).toMatch(
        /authorize \{[^}]*eap \{\s+ok = return\s+updated = return\s+\}[\s\S]*?hotspot_rest_headers\s+rest/,
      );
      expect(site).toMatch(/authenticate \{[^}]*\beap\b/);
      expect(files.get('certs/server.pem')).toBe(eap.certificate);
      expect(files.get('certs/server.key')).toBe(eap.privateKey);
      expect(files.get('certs/ca.pem')).toBe(eap.caChain);
      for (const [path, text] of files) expect(`${path}: ${text}`).not.toMatch(/@@[A-Z_]+@@/);
    });

    it('without a CA chain the eap module names the server certificate as its CA file', () => {
      const files = renderFreeRadiusConfig({ ...INPUT, eap: { ...eap, caChain: null } });
      expect(files.has('certs/ca.pem')).toBe(false);
      expect(files.get('mods-enabled/eap')).toContain('ca_file = ${confdir}/certs/server.pem');
    });

    it.each<[string, () => Partial<EapCertificates>, RegExp]>([
      [
        'a key of another certificate',
        () => ({ privateKey: readFileSync(other.privateKeyPath, 'utf8') }),
        /does not belong/,
      ],
      ['a certificate that is no PEM', () => ({ certificate: 'hello' }), /must be a PEM certificate/],
      [
        'a broken certificate',
        () => ({ certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }),
        /not a readable certificate/,
      ],
      ['a key that is a certificate', () => ({ privateKey: eap.certificate }), /unencrypted PEM private key/],
      [
        'an encrypted key',
        () => ({
          privateKey: createPrivateKey(eap.privateKey)
            .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'a passphrase' })
            .toString(),
        }),
        /unencrypted PEM private key/,
      ],
      [
        'a CA chain that did not issue the certificate',
        () => ({ caChain: readFileSync(other.caPath, 'utf8') }),
        /not issued by/,
      ],
    ])('refuses %s, without quoting the files', (_case, change, message) => {
      let error: unknown;
      try {
        renderFreeRadiusConfig({ ...INPUT, eap: { ...eap, ...change() } });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(FreeRadiusConfigError);
      expect((error as Error).message).toMatch(message);
      for (const pem of [eap.certificate, eap.privateKey]) {
        expect((error as Error).message).not.toContain(pem.split('\n')[1]);
      }
    });

    it('accepts a server certificate file that holds its chain, issued through an intermediate of the CA chain', () => {
      const dir = join(root, 'chain');
      mkdirSync(dir);
      const ca = makeTestCertificates(dir);
      const openssl = (...args: string[]) => {
        const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
        if (run.status !== 0) throw new Error(run.stderr);
      };
      // ca.pem → intermediate.pem → leaf.pem
      writeFileSync(join(dir, 'ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign\n');
      openssl(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'intermediate.key',
        '-out',
        'intermediate.csr',
        '-subj',
        '/CN=Intermediate',
      );
      openssl(
        'x509',
        '-req',
        '-in',
        'intermediate.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        'intermediate.pem',
        '-days',
        '1',
        '-extfile',
        'ca.ext',
      );
      openssl(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'leaf.key',
        '-out',
        'leaf.csr',
        '-subj',
        '/CN=leaf.test',
      );
      openssl(
        'x509',
        '-req',
        '-in',
        'leaf.csr',
        '-CA',
        'intermediate.pem',
        '-CAkey',
        'intermediate.key',
        '-CAcreateserial',
        '-out',
        'leaf.pem',
        '-days',
        '1',
      );
      const leaf = readFileSync(join(dir, 'leaf.pem'), 'utf8');
      const intermediate = readFileSync(join(dir, 'intermediate.pem'), 'utf8');
      const input = { certificate: leaf, privateKey: readFileSync(join(dir, 'leaf.key'), 'utf8') };
      const rootCa = readFileSync(ca.caPath, 'utf8');
      expect(
        renderFreeRadiusConfig({ ...INPUT, eap: { ...input, certificate: leaf + intermediate, caChain: rootCa } }).get(
          'certs/server.pem',
        ),
      ).toBe(leaf + intermediate);
      expect(() =>
        renderFreeRadiusConfig({ ...INPUT, eap: { ...input, caChain: intermediate + rootCa } }),
      ).not.toThrow();
      expect(() => renderFreeRadiusConfig({ ...INPUT, eap: { ...input, caChain: rootCa } })).toThrow(/not issued by/);
    });

    it('names a missing or unreadable file without its content', () => {
      expect(() =>
        readEapCertificates({ certificate: join(root, 'none.pem'), privateKey: paths.privateKeyPath }),
      ).toThrow(`The EAP server certificate ${join(root, 'none.pem')} does not exist.`);
      expect(() => readEapCertificates({ certificate: paths.certificatePath, privateKey: root })).toThrow(
        `The EAP private key ${root} is not a file.`,
      );
      writeFileSync(join(root, 'text.pem'), 'just text');
      expect(() =>
        readEapCertificates({ certificate: join(root, 'text.pem'), privateKey: paths.privateKeyPath }),
      ).toThrow(/is not a PEM file/);
    });

    it('writes the certificates 0600; regenerating keeps EAP from the folder, and without EAP removes its files', async () => {
      const dir = join(root, 'raddb');
      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig({ ...INPUT, eap }));
      expect(statSync(join(dir, 'certs')).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'certs/server.key')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, 'certs/server.key'), 'utf8')).toBe(eap.privateKey);

      expect(existingEapCertificates(dir)).toEqual(eap);
      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig({ ...INPUT, eap: existingEapCertificates(dir) }));
      expect(readFileSync(join(dir, 'mods-enabled/eap'), 'utf8')).toContain('ca_file = ${confdir}/certs/ca.pem');

      await writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT));
      for (const path of [
        'mods-enabled/eap',
        'sites-enabled/hotspot-inner',
        'certs/server.pem',
        'certs/server.key',
        'certs/ca.pem',
      ]) {
        expect(`${path}: ${String(lstatSync(join(dir, path), { throwIfNoEntry: false }))}`).toBe(`${path}: undefined`);
      }
      expect(existingEapCertificates(dir)).toBeNull();
    });
  });

  describe('Interim-Updates recorded by FreeRADIUS (an accounting database)', () => {
    const database = {
      host: 'db.internal',
      port: 3307,
      user: 'hotspot_radius',
      password: "it's a p@ss",
      database: 'hotspot',
    };

    it('without one: no sql module, no policy, no call in the site', () => {
      const files = renderFreeRadiusConfig(INPUT);
      expect(files.has('mods-enabled/hotspot_sql')).toBe(false);
      expect(files.has('policy.d/hotspot_interim_sql')).toBe(false);
      expect(files.get('sites-enabled/hotspot')).not.toMatch(/hotspot_interim_sql|@@/);
    });

    it('with one: the module on that database (password single-quoted), the policy, and the call before rest', () => {
      const files = renderFreeRadiusConfig({ ...INPUT, accountingDatabase: database });
      const module = files.get('mods-enabled/hotspot_sql')!;
      expect(module).toContain('server = "db.internal"');
      expect(module).toContain('port = 3307');
      expect(module).toContain('login = "hotspot_radius"');
      expect(module).toContain("password = 'it\\'s a p@ss'");
      expect(module).toContain('radius_db = "hotspot"');
      expect(files.get('policy.d/hotspot_interim_sql')).toContain('hotspot_sql {');
      expect(files.get('sites-enabled/hotspot')).toMatch(/accounting \{[^}]*hotspot_interim_sql[\s\S]*?rest\n/);
      for (const [path, text] of files) expect(`${path}: ${text}`).not.toMatch(/@@[A-Z_]+@@/);
    });

    it.each([
      [{ host: 'db host' }, 'host must be a host name or an IP address'],
      [{ user: "root'--" }, 'user and database name must be'],
      [{ database: 'hot spot' }, 'user and database name must be'],
      [{ password: 'back\\slash' }, 'printable ASCII characters other than'],
      [{ password: '' }, 'printable ASCII characters other than'],
      [{ port: 0 }, 'accounting database port must be 1-65535'],
    ])('refuses %j, never quoting the password', (change, message) => {
      const render = () => renderFreeRadiusConfig({ ...INPUT, accountingDatabase: { ...database, ...change } });
      expect(render).toThrow(FreeRadiusConfigError);
      expect(render).toThrow(message);
      expect(render).not.toThrow(database.password);
    });

    it('regenerating keeps the database from the folder; without it removes the module and the policy', async () => {
      const root = mkdtempSync(join(tmpdir(), 'hotspot-sql-config-'));
      try {
        const dir = join(root, 'raddb');
        await writeFreeRadiusConfig(dir, renderFreeRadiusConfig({ ...INPUT, accountingDatabase: database }));
        expect(statSync(join(dir, 'mods-enabled/hotspot_sql')).mode & 0o777).toBe(0o600);
        expect(existingAccountingDatabase(dir)).toEqual(database);
        await writeFreeRadiusConfig(dir, renderFreeRadiusConfig(INPUT));
        expect(existingAccountingDatabase(dir)).toBeNull();
        expect(lstatSync(join(dir, 'policy.d/hotspot_interim_sql'), { throwIfNoEntry: false })).toBeUndefined();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    it('grants reading the columns the statement tests and changing counters and sightings, nothing else', () => {
      const grants = accountingDatabaseGrants('hotspot', 'hotspot_radius', 'localhost');
      expect(grants).toContain(
        "GRANT SELECT (id, status, expires_at) ON `hotspot`.`hotspot_users` TO 'hotspot_radius'@'localhost'",
      );
      expect(grants.join('\n')).not.toMatch(/INSERT|DELETE|ALL|password_hash|\*/);
      expect(grants.filter((grant) => grant.includes('UPDATE ('))).toHaveLength(2);
      expect(() => accountingDatabaseGrants('hotspot', "x'@'%", 'localhost')).toThrow(FreeRadiusConfigError);
      expect(() => accountingDatabaseGrants('hotspot', 'x', "h' IDENTIFIED BY 'p")).toThrow(FreeRadiusConfigError);
    });
  });
});
