import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessRecordCapture } from '../src/access-records/access-record-capture.service.js';
import { AccessRecordsSweeper } from '../src/access-records/access-records-sweeper.js';
import { AccessRecordsService } from '../src/access-records/access-records.service.js';
import { GuestAccessService } from '../src/guest-access/guest-access.service.js';
import { VenuePortalsService } from '../src/guest-access/venue-portals.service.js';
import { ManualClock } from '../src/testing/in-memory-database.js';
import { encodeClass } from '../src/radius/radius.rules.js';
import { UsageService } from '../src/usage/usage.service.js';
import { VenuesService } from '../src/venues/venues.service.js';
import { api } from './support/api-client.js';
import { contextRuntime, runCli } from './support/cli-io.js';
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from './support/databases.js';
import { givenUser } from './support/factories.js';
import { givenNas, radiusCall, rlmBody, type TestNas } from './support/radius.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Records for the regulator, end to end: sessions reported through the real RADIUS accounting
 * endpoint, captured by the usage fold (never by the packet itself), by the sweep when the service
 * ends a session and by a user's deletion; sealed per day in the venue's time zone, exported,
 * verified by `hotspot records verify` and by Debian's openssl, and forgotten after their retention.
 */

const VENUE = 'venue-records';
const HOUR = 3_600_000;

describe.each(databaseKinds())('records for the regulator [%s]', (kind: DatabaseKind) => {
  let database: TestDatabase;
  let testApp: TestApp;
  let clock: ManualClock;
  let token: string;
  let nas: TestNas;
  let folder: string;
  let keyFolder: string;
  let exportDir: string;
  let sequence = 0;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'hotspot-records-out-'));
    keyFolder = mkdtempSync(join(tmpdir(), 'hotspot-records-key-'));
    exportDir = mkdtempSync(join(tmpdir(), 'hotspot-records-auto-'));
    database = await createTestDatabase(kind);
    // 10:00 in Istanbul (UTC+3) on 2026-11-25, the venue's first day of records.
    clock = new ManualClock(new Date('2026-11-25T07:00:00.000Z'));
    testApp = await startTestApp(
      kind,
      {
        RECORDS_SIGNING_KEY_FILE: join(keyFolder, 'records.key'),
        RECORDS_EXPORT_DIR: exportDir,
      },
      { database, clock },
    );
    token = await testApp.createToken({ permissions: ['radius'] });
    nas = await givenNas(testApp, VENUE);
    await testApp.app.get(VenuesService).set(VENUE, { timeZone: 'Europe/Istanbul' });
  });

  afterAll(async () => {
    await testApp?.close();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
    rmSync(keyFolder, { recursive: true, force: true });
    rmSync(exportDir, { recursive: true, force: true });
  });

  function accounting(attributes: Record<string, string | number>) {
    return radiusCall(testApp, token, 'accounting', nas, rlmBody(attributes)).expect(204);
  }

  function sessionOf(userId: string, mac: string, ip: string) {
    sequence += 1;
    return {
      Class: encodeClass(userId),
      'Acct-Unique-Session-Id': `records-${kind}-${sequence}`,
      'Calling-Station-Id': mac,
      'Framed-IP-Address': ip,
    };
  }

  async function recordRows(): Promise<Array<Record<string, unknown>>> {
    return testApp.dataSource.query(
      'SELECT user_id, identity_kind, identity, mac_address, ip_address, ended_at FROM access_records ORDER BY started_at, session_id',
    );
  }

  const fold = () => testApp.app.get(UsageService).fold();
  const cli = (...argv: string[]) => runCli(contextRuntime(testApp.app), 'records', ...argv);
  const fileOf = (day: string) => join(folder, `${VENUE}.${day}.jsonl`);
  const linesOf = (day: string) =>
    readFileSync(fileOf(day), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  const openssl = (path: string, publicKeyFile: string) =>
    spawnSync(
      'openssl',
      ['pkeyutl', '-verify', '-pubin', '-inkey', publicKeyFile, '-rawin', '-in', path, '-sigfile', `${path}.sig`],
      { encoding: 'utf8' },
    );

  it('records who had which address when, through deletion and edits, and exports signed chained days', async () => {
    // The portal's ways in make the `sms` and `social` users (the API makes neither).
    await testApp.app.get(VenuePortalsService).set(VENUE, { ways: ['sms', 'social'] });
    const admissions = testApp.app.get(GuestAccessService);
    const phoneUser = await admissions.admitVerifiedPhone({
      venueId: VENUE,
      phone: '+905551110001',
      device: { mac: '02:AA:00:00:00:01', ip: '10.20.0.11' },
      termsVersion: null,
    });
    const socialUser = await admissions.admitSocial({
      venueId: VENUE,
      issuer: 'https://accounts.example.com',
      subject: 'subject-4711',
      email: null,
      device: { mac: '02:AA:00:00:00:04', ip: '10.20.0.14' },
      termsVersion: null,
    });
    const guest = await givenUser(testApp, {
      loginMethod: 'guest',
      username: undefined,
      password: undefined,
      macAddress: '02:AA:00:00:00:02',
      venueIds: [VENUE],
    });
    const member = await givenUser(testApp, { username: 'room-204', venueIds: [VENUE] });

    // Day one: the phone user online from 10:00 to 11:00 (Istanbul), ended by a block.
    const phoneSession = sessionOf(phoneUser.userId, '02:AA:00:00:00:01', '10.20.0.11');
    await accounting({ ...phoneSession, 'Acct-Status-Type': 'Start' });
    // The packet writes no record: the fold captures it.
    expect(await recordRows()).toEqual([]);
    await fold();
    expect(await recordRows()).toMatchObject([
      { user_id: phoneUser.userId, identity_kind: 'phone', identity: '+905551110001', ip_address: '10.20.0.11' },
    ]);
    expect((await recordRows())[0].ended_at).toBeNull();
    clock.advance(HOUR);
    await api(testApp).users.update(phoneUser.userId, { status: 'blocked' }).expect(200);
    await api(testApp).users.update(phoneUser.userId, { phone: '+905559990000' }).expect(200);
    await testApp.app.get(AccessRecordCapture).captureEnded();

    // The guest from 23:30 on day one to 00:30 on day two.
    clock.advance(12.5 * HOUR);
    const guestSession = sessionOf(guest._id, '02:AA:00:00:00:02', '10.20.0.12');
    await accounting({ ...guestSession, 'Acct-Status-Type': 'Start' });
    await fold();
    clock.advance(HOUR);
    await accounting({ ...guestSession, 'Acct-Status-Type': 'Stop', 'Acct-Session-Time': 3600 });
    await fold();

    // Day two: the member online from 09:00, deleted at 10:00 before any fold saw the session; the
    // social guest from 09:00 too, deleted as well once its session was recorded.
    clock.advance(8.5 * HOUR);
    await accounting({ ...sessionOf(member._id, '02:AA:00:00:00:03', '10.20.0.13'), 'Acct-Status-Type': 'Start' });
    await accounting({
      ...sessionOf(socialUser.userId, '02:AA:00:00:00:04', '10.20.0.14'),
      'Acct-Status-Type': 'Start',
    });
    await fold();
    await api(testApp).users.update(member._id, { username: 'room-205' }).expect(200);
    clock.advance(HOUR);
    await api(testApp).users.remove(member._id).expect(200);
    await api(testApp).users.remove(socialUser.userId).expect(200);
    expect(await recordRows()).toMatchObject([
      { identity: '+905551110001' },
      { identity_kind: 'mac', identity: '02:AA:00:00:00:02', ip_address: '10.20.0.12' },
      { user_id: member._id, identity_kind: 'username', identity: 'room-204', mac_address: '02:AA:00:00:00:03' },
      { user_id: socialUser.userId, identity_kind: 'social', identity: 'subject-4711', ip_address: '10.20.0.14' },
    ]);

    // Day two is not over yet: refused, nothing written.
    const early = await cli('export', '--day', '2026-11-26', '--out', folder);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('2026-11-26 at venue venue-records cannot be sealed yet');

    // Day three: the guest back at 10:00, a Start no fold has seen when the day is exported.
    clock.advance(24 * HOUR);
    await accounting({ ...sessionOf(guest._id, '02:AA:00:00:00:02', '10.20.0.22'), 'Acct-Status-Type': 'Start' });

    // 00:20 on 2026-11-28 in Istanbul: three days may be sealed.
    clock.advance(HOUR * 14 + 20 * 60_000);
    const exported = await cli('export', '--from', '2026-11-25', '--day', '2026-11-27', '--out', folder, '--json');
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    expect(
      exported.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(
      ['2026-11-25', '2026-11-26', '2026-11-27'].map((day, index) => ({
        venue: VENUE,
        day,
        file: fileOf(day),
        records: [2, 3, 1][index],
        sha256: sha256Of(fileOf(day)),
      })),
    );

    const [firstHeader, ...firstRecords] = linesOf('2026-11-25');
    expect(firstHeader).toEqual({
      format: 'hotspot-access-records/1',
      venue: VENUE,
      day: '2026-11-25',
      timeZone: 'Europe/Istanbul',
      from: '2026-11-24T21:00:00.000Z',
      to: '2026-11-25T21:00:00.000Z',
      records: 2,
      previousDay: null,
      previousSha256: '0'.repeat(64),
      sealedAt: '2026-11-27T21:20:00.000Z',
    });
    expect(firstRecords).toEqual([
      {
        session: expect.any(String),
        from: '2026-11-25T07:00:00.000Z',
        to: '2026-11-25T08:00:00.000Z',
        nas: nas.name,
        ip: '10.20.0.11',
        mac: '02:AA:00:00:00:01',
        userId: phoneUser.userId,
        loginMethod: 'sms',
        identityKind: 'phone',
        issuer: '',
        identity: '+905551110001',
      },
      expect.objectContaining({
        from: '2026-11-25T20:30:00.000Z',
        to: '2026-11-25T21:30:00.000Z',
        ip: '10.20.0.12',
        userId: guest._id,
        loginMethod: 'guest',
        identityKind: 'mac',
        identity: '02:AA:00:00:00:02',
      }),
    ]);
    const [secondHeader, ...secondRecords] = linesOf('2026-11-26');
    expect(secondHeader).toMatchObject({ previousDay: '2026-11-25', previousSha256: sha256Of(fileOf('2026-11-25')) });
    expect(
      secondRecords.map((line) => [line.userId, line.loginMethod, line.issuer, line.identity, line.from, line.to]),
    ).toEqual([
      [guest._id, 'guest', '', '02:AA:00:00:00:02', '2026-11-25T20:30:00.000Z', '2026-11-25T21:30:00.000Z'],
      [member._id, 'username_password', '', 'room-204', '2026-11-26T06:00:00.000Z', '2026-11-26T07:00:00.000Z'],
      [
        socialUser.userId,
        'social',
        'https://accounts.example.com',
        'subject-4711',
        '2026-11-26T06:00:00.000Z',
        '2026-11-26T07:00:00.000Z',
      ],
    ]);
    expect(linesOf('2026-11-27')).toEqual([
      expect.objectContaining({
        records: 1,
        previousDay: '2026-11-26',
        previousSha256: sha256Of(fileOf('2026-11-26')),
      }),
      expect.objectContaining({ from: '2026-11-27T07:00:00.000Z', to: null, ip: '10.20.0.22', userId: guest._id }),
    ]);

    // The service's own daily export (RECORDS_EXPORT_DIR) writes the same files.
    await testApp.app.get(AccessRecordsSweeper).sweep();
    expect(readdirSync(exportDir).sort()).toEqual(
      ['2026-11-25', '2026-11-26', '2026-11-27'].flatMap((day) => [
        `${VENUE}.${day}.jsonl`,
        `${VENUE}.${day}.jsonl.sig`,
      ]),
    );
    for (const name of readdirSync(exportDir))
      expect(readFileSync(join(exportDir, name)).equals(readFileSync(join(folder, name)))).toBe(true);

    // A second export writes the same bytes.
    const before = readFileSync(fileOf('2026-11-26'));
    expect((await cli('export', '--day', '2026-11-26', '--venue', VENUE, '--out', folder)).code).toBe(0);
    expect(readFileSync(fileOf('2026-11-26')).equals(before)).toBe(true);

    expect(await cli('verify', folder)).toMatchObject({
      code: 0,
      stdout:
        `ok\t${VENUE}.2026-11-25.jsonl\t2 record(s)\n` +
        `ok\t${VENUE}.2026-11-26.jsonl\t3 record(s)\n` +
        `ok\t${VENUE}.2026-11-27.jsonl\t1 record(s)\n`,
    });

    // The regulator's check, with the public key alone and standard tools.
    const publicKey = await cli('public-key');
    expect(publicKey.code).toBe(0);
    expect(publicKey.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    expect(statSync(join(keyFolder, 'records.key')).mode & 0o777).toBe(0o600);
    const publicKeyFile = join(keyFolder, 'public.pem');
    writeFileSync(publicKeyFile, publicKey.stdout);
    for (const day of ['2026-11-25', '2026-11-26', '2026-11-27']) {
      expect(openssl(fileOf(day), publicKeyFile)).toMatchObject({
        status: 0,
        stdout: 'Signature Verified Successfully\n',
      });
    }
    expect((await cli('verify', folder, '--public-key', publicKeyFile)).code).toBe(0);

    // One byte changed: the signature and the chain both fail, for openssl too.
    const original = readFileSync(fileOf('2026-11-25'));
    const changed = Buffer.from(original);
    changed[changed.indexOf('10.20.0.11') + 9] = '2'.charCodeAt(0);
    writeFileSync(fileOf('2026-11-25'), changed);
    expect(openssl(fileOf('2026-11-25'), publicKeyFile).status).not.toBe(0);
    const tampered = await cli('verify', folder);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(
      `FAILED\t${VENUE}.2026-11-25.jsonl\tthe signature does not match the file (changed, or signed by another key)\n`,
    );
    expect(tampered.stdout).toContain(
      `FAILED\tchain\t${VENUE}: 2026-11-25 is not the file 2026-11-26 names (SHA-256 differs): changed or replaced\n`,
    );
    writeFileSync(fileOf('2026-11-25'), original);

    // A day missing from the folder.
    unlinkSync(fileOf('2026-11-26'));
    unlinkSync(`${fileOf('2026-11-26')}.sig`);
    const missing = await cli('verify', folder);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      `FAILED\tchain\t${VENUE}: 2026-11-27 follows 2026-11-26, whose file is missing (the folder goes from 2026-11-25)\n`,
    );
    expect(missing.stderr).toContain('Verification failed');
  });

  it('forgets records and sealed days past the retention, keeping the end of each chain', async () => {
    const records = testApp.app.get(AccessRecordsService);
    expect(await records.forget()).toEqual({ records: 0, days: 0 });
    clock.advance(731 * 24 * HOUR);
    expect(await records.forget()).toEqual({ records: 4, days: 2 });
    // The guest's session has not ended: its record stays.
    expect(await recordRows()).toMatchObject([{ ip_address: '10.20.0.22', ended_at: null }]);
    expect(await testApp.dataSource.query('SELECT day FROM access_record_days')).toEqual([{ day: '2026-11-27' }]);
    expect(await testApp.dataSource.query('SELECT COUNT(*) AS n FROM access_record_day_lines')).toEqual([
      { n: kind === 'sqlite' ? 2 : '2' },
    ]);
  });
});
