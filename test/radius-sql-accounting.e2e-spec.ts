import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { NasService } from '../src/nas/nas.service.js';
import { DeviceEntity } from '../src/sessions/entities/device.entity.js';
import { SessionEntity } from '../src/sessions/entities/session.entity.js';
import { UnauthJobEntity } from '../src/unauth-jobs/entities/unauth-job.entity.js';
import { UsageService } from '../src/usage/usage.service.js';
import { api } from './support/api-client.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { givenUser, uniqueDevice } from './support/factories.js';
import { radclient, startFreeRadius, type StartedFreeRadius } from './support/freeradius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'a-shared-secret-for-the-sql-nas';
const MYSQL_URL = process.env.TEST_MYSQL_URL;

/**
 * FreeRADIUS recording the common Interim-Update in the service's MariaDB itself
 * (`radius-config --accounting-db-url`), with the account `radius-sql-grants` describes: what the
 * database holds afterwards, which packets the service still decides, and what that account may not
 * do. MySQL/MariaDB only: on SQLite the configuration sends every packet to the service.
 */
(MYSQL_URL ? describe : describe.skip)('FreeRADIUS writing Interim-Updates to the database [mysql]', () => {
  let app: TestApp;
  let server: StartedFreeRadius;
  let admin: mysql.Connection;
  let database: string;
  const account = {
    user: `hs_radius_${randomBytes(4).toString('hex')}`,
    password: `pw-${randomBytes(12).toString('hex')}`,
  };
  const server127 = new URL(MYSQL_URL ?? 'mysql://127.0.0.1');

  beforeAll(async () => {
    app = await startTestApp('mysql');
    await app.app.listen(0, '127.0.0.1');
    await app.app.get(NasService).add({ venueId: 'venue-a', name: 'sql-nas', ipAddress: '127.0.0.1', secret: SECRET });
    [{ database }] = await app.dataSource.query<{ database: string }[]>('SELECT DATABASE() AS `database`');
    admin = await mysql.createConnection({
      host: server127.hostname,
      port: Number(server127.port || 3306),
      user: decodeURIComponent(server127.username),
      password: decodeURIComponent(server127.password),
    });
    // Both names a connection from 127.0.0.1 may be known by, with what the grants command prints for each.
    for (const host of ['127.0.0.1', 'localhost']) {
      await admin.query(`CREATE USER '${account.user}'@'${host}' IDENTIFIED BY '${account.password}'`);
      const grants = await cli('radius-sql-grants', '--user', account.user, '--host', host);
      expect(grants.code).toBe(0);
      const statements = grants.stdout.split(';\n').filter(Boolean);
      const json = await cli('radius-sql-grants', '--user', account.user, '--host', host, '--json');
      expect(JSON.parse(json.stdout)).toEqual({ database, user: account.user, host, grants: statements });
      for (const grant of statements) await admin.query(grant);
    }
    server = await freeRadiusOnDatabase(account.password);
  });

  /** FreeRADIUS for the NAS, in front of the app, recording Interim-Updates with the account and `password`. */
  async function freeRadiusOnDatabase(password: string): Promise<StartedFreeRadius> {
    const { port } = app.app.getHttpServer().address() as AddressInfo;
    return startFreeRadius({
      apiUrl: `http://127.0.0.1:${port}`,
      token: await app.createToken({ permissions: ['radius'] }),
      restTimeoutMs: 5000,
      clients: [{ name: 'sql-nas', ipAddress: '127.0.0.1', secret: SECRET, requireMessageAuthenticator: false }],
      accountingDatabase: {
        host: '127.0.0.1',
        port: Number(server127.port || 3306),
        user: account.user,
        password,
        database,
      },
    });
  }

  afterAll(async () => {
    await server?.close();
    await app?.close();
    for (const host of ['127.0.0.1', 'localhost'])
      await admin?.query(`DROP USER IF EXISTS '${account.user}'@'${host}'`);
    await admin?.end();
  });

  const cli = (...argv: string[]) => runCli(contextRuntime(app.app), ...argv);
  const acct = (attributes: Record<string, string | number>) => radclient(server.acctPort, 'acct', SECRET, attributes);
  const classOf = (userId: string) => `0x${Buffer.from(`hsp:${userId}`).toString('hex')}`;
  const sessionOf = async (userId: string) => {
    const sessions = await app.dataSource.getRepository(SessionEntity).findBy({ userId });
    expect(sessions).toHaveLength(1);
    return sessions[0];
  };

  /** The user's usage in total: octets in and out, seconds. */
  async function totalUsageOf(userId: string): Promise<string[] | undefined> {
    const rows = await app.dataSource.query<Array<Record<string, string>>>(
      `SELECT CAST(input_octets AS CHAR) AS i, CAST(output_octets AS CHAR) AS o, CAST(session_seconds AS CHAR) AS t
       FROM hotspot_user_usage WHERE user_id = ? AND period = 'total'`,
      [userId],
    );
    return rows.map((row) => [row.i, row.o, row.t])[0];
  }

  /** A user online at the NAS: Start (through the service), with the device the service recorded. */
  async function online(options: { calling?: string } = {}) {
    const user = await givenUser(app);
    const { macAddress, ipAddress } = uniqueDevice();
    const base = {
      'User-Name': user.username!,
      'Acct-Session-Id': `sql-${randomBytes(6).toString('hex')}`,
      'Calling-Station-Id': options.calling ?? macAddress,
      'NAS-IP-Address': '127.0.0.1',
      Class: classOf(user._id),
    };
    expect((await acct({ ...base, 'Acct-Status-Type': 'Start', 'Framed-IP-Address': ipAddress })).type).toBe(
      'Accounting-Response',
    );
    const interim = (report: Record<string, string | number>) =>
      acct({ ...base, 'Acct-Status-Type': 'Interim-Update', ...report });
    return { user, macAddress, ipAddress, base, interim };
  }

  it('an Interim-Update of an active session: counters with gigawords, address, time and device, in one statement', async () => {
    await server.explainFailures(async () => {
      const { user, macAddress, interim } = await online();
      const started = await sessionOf(user._id);
      const reply = await interim({
        'Acct-Session-Time': 300,
        'Acct-Input-Octets': 1000,
        'Acct-Input-Gigawords': 2,
        'Acct-Output-Octets': 5000,
        'Framed-IP-Address': '10.9.8.7',
      });
      expect(reply.type).toBe('Accounting-Response');
      const session = await sessionOf(user._id);
      expect(session).toMatchObject({
        status: 'active',
        sessionTime: 300,
        inputOctets: String(2 * 2 ** 32 + 1000),
        outputOctets: '5000',
        ipAddress: '10.9.8.7',
        usagePending: true,
      });
      expect(session.lastAccountingAt!.getTime()).toBeGreaterThanOrEqual(started.lastAccountingAt!.getTime());
      // The same statement flagged the session for the usage fold, which adds its counters to the user's usage.
      await app.app.get(UsageService).fold();
      expect(await totalUsageOf(user._id)).toEqual([String(2 * 2 ** 32 + 1000), '5000', '300']);
      // A reordered, older packet lowers nothing and does not bring back its address.
      await interim({
        'Acct-Session-Time': 120,
        'Acct-Input-Octets': 10,
        'Acct-Output-Octets': 10,
        'Framed-IP-Address': '10.1.1.1',
      });
      expect(await sessionOf(user._id)).toMatchObject({
        sessionTime: 300,
        inputOctets: String(2 * 2 ** 32 + 1000),
        outputOctets: '5000',
        ipAddress: '10.9.8.7',
      });
      await app.app.get(UsageService).fold();
      expect(await totalUsageOf(user._id)).toEqual([String(2 * 2 ** 32 + 1000), '5000', '300']);
      const [device] = await app.dataSource.getRepository(DeviceEntity).findBy({ userId: user._id });
      expect(device).toMatchObject({ macAddress, status: 'active' });
    });
  });

  it('with the service down, FreeRADIUS still answers and records those Interim-Updates, and only those', async () => {
    await server.explainFailures(async () => {
      const { user, interim } = await online({ calling: '02-f0-aa-bb-cc-dd' });
      const newcomer = await givenUser(app);
      const httpServer = app.app.getHttpServer();
      const { port } = httpServer.address() as AddressInfo;
      const closed = new Promise<void>((done) => httpServer.close(() => done()));
      // FreeRADIUS keeps its REST connections open: they end now, not when they idle out.
      httpServer.closeAllConnections();
      await closed;
      try {
        const recorded = await interim({ 'Acct-Session-Time': 600, 'Acct-Input-Octets': 7, 'Acct-Output-Octets': 8 });
        expect(recorded.type).toBe('Accounting-Response');
        expect(await sessionOf(user._id)).toMatchObject({ sessionTime: 600, inputOctets: '7', outputOctets: '8' });
        // A Start, and an Interim-Update of a session the database does not hold, need the service.
        const unknown = await radclient(
          server.acctPort,
          'acct',
          SECRET,
          {
            'Acct-Status-Type': 'Interim-Update',
            'User-Name': newcomer.username!,
            'Acct-Session-Id': 'not-started',
            'Acct-Session-Time': 60,
            'Acct-Input-Octets': 1,
            'Acct-Output-Octets': 1,
            Class: classOf(newcomer._id),
          },
          1,
        );
        expect(unknown.type).toBeNull();
      } finally {
        await new Promise<void>((done) => httpServer.listen(port, '127.0.0.1', () => done()));
      }
    });
  });

  it('a blocked user, a user past expiresAt, a user moved to another venue, a new device: the service decides, as before', async () => {
    await server.explainFailures(async () => {
      const blocked = await online();
      await api(app).users.update(blocked.user._id, { status: 'blocked' }).expect(200);
      expect(
        (await blocked.interim({ 'Acct-Session-Time': 60, 'Acct-Input-Octets': 1, 'Acct-Output-Octets': 1 })).type,
      ).toBe('Accounting-Response');

      const expired = await online();
      // Past its expiresAt, before the expiry sweep ran: still active in the database.
      await app.dataSource.query('UPDATE hotspot_users SET expires_at = ? WHERE id = ?', [
        new Date(Date.now() - 1000),
        expired.user._id,
      ]);
      expect(
        (await expired.interim({ 'Acct-Session-Time': 60, 'Acct-Input-Octets': 1, 'Acct-Output-Octets': 1 })).type,
      ).toBe('Accounting-Response');
      const moved = await online();
      await api(app)
        .users.update(moved.user._id, { venueIds: ['venue-b'] })
        .expect(200);
      expect(
        (await moved.interim({ 'Acct-Session-Time': 60, 'Acct-Input-Octets': 1, 'Acct-Output-Octets': 1 })).type,
      ).toBe('Accounting-Response');
      // Taking the venue ended its session there; the packet, about a user the NAS's venue no longer has, does not bring it back.
      expect((await sessionOf(moved.user._id)).status).not.toBe('active');

      // The block ended the session and wrote its job; the packet does not bring it back.
      expect(await sessionOf(blocked.user._id)).toMatchObject({ status: 'expired' });
      // Nothing had ended this one: the service does, and tells the NAS.
      expect(await sessionOf(expired.user._id)).toMatchObject({ status: 'expired', terminateCause: 'enforcement' });
      for (const { user } of [blocked, expired]) {
        expect(await app.dataSource.getRepository(UnauthJobEntity).countBy({ userId: user._id })).toBe(1);
      }

      const roaming = await online();
      const other = uniqueDevice().macAddress;
      await roaming.interim({
        'Acct-Session-Time': 60,
        'Acct-Input-Octets': 1,
        'Acct-Output-Octets': 1,
        'Calling-Station-Id': other.toLowerCase(),
      });
      const devices = await app.dataSource.getRepository(DeviceEntity).findBy({ userId: roaming.user._id });
      expect(devices.map((device) => device.macAddress).sort()).toEqual([roaming.macAddress, other].sort());
    });
  });

  it('hostile attribute values change nothing they name and reach the database only as data', async () => {
    await server.explainFailures(async () => {
      const { user, interim } = await online();
      const bystander = await online();
      const hostile = "02:F0:00:00:00:01' OR '1'='1";
      const reply = await interim({
        'Acct-Session-Time': 90,
        'Acct-Input-Octets': 4294967295,
        'Acct-Input-Gigawords': 4294967295,
        'Acct-Output-Octets': 3,
        'Calling-Station-Id': hostile,
      });
      expect(reply.type).toBe('Accounting-Response');
      // Not a MAC address: no device, as the service reads it; the counter held at the column's largest value.
      expect(await sessionOf(user._id)).toMatchObject({ sessionTime: 90, inputOctets: '9223372036854775807' });
      expect(await sessionOf(bystander.user._id)).toMatchObject({ sessionTime: null, inputOctets: null });
      const forged = await radclient(server.acctPort, 'acct', SECRET, {
        ...bystander.base,
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 30,
        'Acct-Input-Octets': 1,
        'Acct-Output-Octets': 1,
        Class: `0x${Buffer.from(`hsp:${bystander.user._id}' OR '1'='1`).toString('hex')}`,
      });
      expect(forged.type).toBe('Accounting-Response');
      expect(await sessionOf(user._id)).toMatchObject({ sessionTime: 90 });
    });
  });

  it('a database FreeRADIUS cannot sign in to: every Interim-Update goes to the service', async () => {
    const locked = await freeRadiusOnDatabase('not-the-password');
    try {
      await locked.explainFailures(async () => {
        const { user, base } = await online();
        const reply = await radclient(locked.acctPort, 'acct', SECRET, {
          ...base,
          'Acct-Status-Type': 'Interim-Update',
          'Acct-Session-Time': 45,
          'Acct-Input-Octets': 2,
          'Acct-Output-Octets': 3,
        });
        expect(reply.type).toBe('Accounting-Response');
        expect(await sessionOf(user._id)).toMatchObject({ sessionTime: 45, inputOctets: '2', outputOctets: '3' });
        expect(locked.maskedLog()).not.toContain('not-the-password');
      });
    } finally {
      await locked.close();
    }
  });

  it('radius-config --accounting-db-url writes the module (0600), keeps it when run again, drops it with --no-accounting-db', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'hotspot-sql-config-')), 'raddb');
    const token = await app.createToken({ permissions: ['radius'] });
    const url = `mysql://${account.user}:${encodeURIComponent(account.password)}@127.0.0.1:${server127.port || 3306}/${database}`;
    const generate = (...extra: string[]) =>
      cli('radius-config', '--out', folder, '--api-url', 'http://127.0.0.1:3000', '--token', token, '--json', ...extra);
    const module = join(folder, 'mods-enabled/hotspot_sql');
    try {
      const first = await generate('--accounting-db-url', url);
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ accountingDatabase: true });
      expect(first.stdout + first.stderr).not.toContain(account.password);
      expect(statSync(module).mode & 0o777).toBe(0o600);
      expect(readFileSync(module, 'utf8')).toContain(`login = "${account.user}"`);
      expect(readFileSync(join(folder, 'sites-enabled/hotspot'), 'utf8')).toContain('hotspot_interim_sql');
      const again = await generate();
      expect(JSON.parse(again.stdout)).toMatchObject({ accountingDatabase: true });
      expect(readFileSync(module, 'utf8')).toContain(`password = '${account.password}'`);
      const other = await generate('--accounting-db-url', url.replace(`/${database}`, '/another_db'));
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(`must name the service's database, ${database}`);
      const dropped = await generate('--no-accounting-db');
      expect(JSON.parse(dropped.stdout)).toMatchObject({ accountingDatabase: false });
      expect(existsSync(module)).toBe(false);
      expect(existsSync(join(folder, 'policy.d/hotspot_interim_sql'))).toBe(false);
      expect(readFileSync(join(folder, 'sites-enabled/hotspot'), 'utf8')).not.toContain('hotspot_interim_sql');
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });

  it("the account FreeRADIUS uses reads no password hash and changes nothing but a session's counters and a device's sighting", async () => {
    const restricted = await mysql.createConnection({
      host: '127.0.0.1',
      port: Number(server127.port || 3306),
      user: account.user,
      password: account.password,
      database,
    });
    try {
      await expect(restricted.query('SELECT password_hash FROM hotspot_users')).rejects.toThrow(/denied/);
      await expect(restricted.query('SELECT * FROM api_tokens')).rejects.toThrow(/denied/);
      await expect(restricted.query("UPDATE sessions SET status = 'active'")).rejects.toThrow(/denied/);
      await expect(restricted.query("UPDATE hotspot_users SET status = 'active'")).rejects.toThrow(/denied/);
      await expect(restricted.query('DELETE FROM sessions')).rejects.toThrow(/denied/);
    } finally {
      await restricted.end();
    }
  });
});

describe('FreeRADIUS writing Interim-Updates on the embedded database [sqlite]', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('is refused: radius-config --accounting-db-url and radius-sql-grants exit 2 and write nothing', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'hotspot-sql-config-')), 'raddb');
    try {
      const token = await app.createToken({ permissions: ['radius'] });
      const cli = (...argv: string[]) => runCli(contextRuntime(app.app), ...argv);
      const config = await cli(
        'radius-config',
        '--out',
        folder,
        '--api-url',
        'http://127.0.0.1:3000',
        '--token',
        token,
        '--accounting-db-url',
        'mysql://radius:a-password@127.0.0.1:3306/hotspot',
      );
      expect(config.code).toBe(2);
      expect(config.stderr).toContain('--accounting-db-url needs the service on MySQL/MariaDB');
      expect(config.stderr).not.toContain('a-password');
      expect(existsSync(folder)).toBe(false);
      const malformed = await cli(
        'radius-config',
        '--out',
        folder,
        '--api-url',
        'http://127.0.0.1:3000',
        '--token',
        token,
        '--accounting-db-url',
        'mysql://radius:a-pass%ZZword@127.0.0.1:3306/hotspot',
      );
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toContain('malformed %-escape');
      expect(malformed.stderr).not.toContain('a-pass');
      const grants = await cli('radius-sql-grants', '--user', 'radius');
      expect(grants).toMatchObject({ code: 2, stdout: '' });
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });
});
