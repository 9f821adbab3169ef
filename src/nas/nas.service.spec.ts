import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import 'reflect-metadata';
import type { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/configuration.js';
import type { DatabaseService } from '../database/database.service.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import {
  addressMatches,
  NAS_LOOKUP_TTL_MS,
  NasAddressTakenError,
  NasAmbiguousError,
  NasNameTakenError,
  NasService,
  NasValidationError,
} from './nas.service.js';
import { NasClientsRepository } from './nas-clients.repository.js';
import { NasSecretUnavailableError } from './secret-box.js';
import { VenuesRepository } from '../venues/venues.repository.js';
import { VenuesService } from '../venues/venues.service.js';

function configWith(secretsKey: Buffer | null): ConfigService<AppConfig, true> {
  return { get: (name: string) => (name === 'secretsKey' ? secretsKey : undefined) } as unknown as ConfigService<
    AppConfig,
    true
  >;
}

const INPUT = { venueId: 'venue-a', name: 'lobby-ap', ipAddress: '192.0.2.10', secret: 'shared-secret-01' };

describe('NasService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  const key = randomBytes(32);
  const service = (secretsKey: Buffer | null = key) =>
    new NasService(
      database,
      new NasClientsRepository(),
      new ManualClock(),
      new AuditService(database, new AuditRepository(), new ManualClock()),
      configWith(secretsKey),
      new VenuesService(
        database,
        new VenuesRepository(),
        new ManualClock(),
        new AuditService(database, new AuditRepository(), new ManualClock()),
      ),
    );
  const storedSecret = async (id: string): Promise<string> =>
    (await database.dataSource.query<Array<{ secret: string }>>('SELECT secret FROM nas_clients WHERE id = ?', [id]))[0]
      .secret;

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
  });
  afterEach(async () => {
    await close();
  });

  it('adds a NAS with the defaults and shows it without its secret', async () => {
    const nas = await service().add(INPUT);
    expect(nas).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      venueId: 'venue-a',
      name: 'lobby-ap',
      ipAddress: '192.0.2.10',
      coaPort: 3799,
      vendor: 'other',
      requireMessageAuthenticator: false,
      acceptsCoa: true,
      createdAt: new Date('2026-11-22T10:00:00.000Z'),
    });
    expect(JSON.stringify(await service().list())).not.toContain('shared-secret-01');
  });

  it('stores the secret encrypted with SECRETS_KEY and gives it back in clear to the configuration', async () => {
    const nas = await service().add({ ...INPUT, coaPort: 0, vendor: 'mikrotik', requireMessageAuthenticator: true });
    expect(await storedSecret(nas.id)).toMatch(/^aes256gcm:/);
    expect(await storedSecret(nas.id)).not.toContain('shared-secret-01');
    expect(await service().listWithSecrets()).toEqual([{ ...nas, secret: 'shared-secret-01' }]);
    expect(nas).toMatchObject({ coaPort: 0, vendor: 'mikrotik', requireMessageAuthenticator: true });
  });

  it('stores the secret in clear without SECRETS_KEY, and the report says so', async () => {
    const nas = await service(null).add(INPUT);
    expect(await storedSecret(nas.id)).toBe('plain:shared-secret-01');
    expect(await service(null).secretStorageReport()).toEqual({ total: 1, plain: 1, unreadable: [] });
  });

  it('refuses to hand out an encrypted secret without the key or with another key', async () => {
    await service().add(INPUT);
    await expect(service(null).listWithSecrets()).rejects.toThrow(NasSecretUnavailableError);
    await expect(service(randomBytes(32)).listWithSecrets()).rejects.toThrow(/cannot be decrypted with SECRETS_KEY/);
    expect(await service(null).secretStorageReport()).toEqual({ total: 1, plain: 0, unreadable: ['lobby-ap'] });
    // The list without secrets still works.
    expect(await service(null).list()).toHaveLength(1);
  });

  it.each<[string, Partial<typeof INPUT> & Record<string, unknown>, string]>([
    ['venueId', { venueId: 'bad venue' }, 'venueId must be'],
    ['name', { name: 'lobby ap' }, 'name must be 1-64 characters of A-Za-z0-9_.-'],
    ['ipAddress', { ipAddress: 'ap.example' }, 'ipAddress must be an IPv4 or IPv6 address'],
    ['secret', { secret: 'has"quote' }, 'secret must be 1-128 printable characters'],
    ['coaPort', { coaPort: 70000 }, 'coaPort must be an integer from 0 to 65535'],
    ['vendor', { vendor: 'juniper' }, 'vendor must be one of mikrotik, unifi, cisco, coova, pfsense, other'],
  ])('refuses a bad %s and stores nothing', async (field, change, message) => {
    const error = await service()
      .add({ ...INPUT, ...change })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NasValidationError);
    expect((error as NasValidationError).field).toBe(field);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('has"quote');
    expect(await service().list()).toEqual([]);
  });

  it('refuses a secret under 16 octets unless told to take it', async () => {
    await expect(service().add({ ...INPUT, secret: 'testing123' })).rejects.toThrow(
      'secret must be at least 16 octets (RFC 2865 §3)',
    );
    expect(await service().list()).toEqual([]);
    expect(await service().add({ ...INPUT, secret: 'testing123', allowShortSecret: true })).toMatchObject({
      name: 'lobby-ap',
    });
  });

  it('refuses a second NAS with the same name', async () => {
    await service().add(INPUT);
    await expect(service().add({ ...INPUT, ipAddress: '192.0.2.11' })).rejects.toThrow(NasNameTakenError);
    expect(await service().list()).toHaveLength(1);
  });

  it('refuses a second NAS with the same address, as FreeRADIUS would', async () => {
    await service().add(INPUT);
    await expect(service().add({ ...INPUT, name: 'bar-ap', ipAddress: '192.0.2.10/32' })).rejects.toThrow(
      new NasAddressTakenError('192.0.2.10', 'lobby-ap'),
    );
    expect(await service().list()).toHaveLength(1);
  });

  it('takes two spellings of one IPv6 address for one address, stored as the short one', async () => {
    const first = await service().add({ ...INPUT, ipAddress: '2001:DB8:0:0::10' });
    expect(first.ipAddress).toBe('2001:db8::10');
    await expect(service().add({ ...INPUT, name: 'bar-ap', ipAddress: '2001:0db8::0010' })).rejects.toThrow(
      new NasAddressTakenError('2001:db8::10', 'lobby-ap'),
    );
  });

  it('refuses to remove by a value that is one NAS id and another name', async () => {
    const first = await service().add(INPUT);
    await service().add({ ...INPUT, name: first.id, ipAddress: '192.0.2.11' });
    await expect(service().remove(first.id)).rejects.toThrow(NasAmbiguousError);
    expect(await service().list()).toHaveLength(2);
  });

  it('removes by id or by name, and says null when nothing matches', async () => {
    const first = await service().add(INPUT);
    const second = await service().add({ ...INPUT, name: 'bar-ap', ipAddress: '192.0.2.11' });
    expect(await service().remove(first.id)).toEqual(first);
    expect(await service().remove('bar-ap')).toEqual(second);
    expect(await service().remove('bar-ap')).toBeNull();
    expect(await service().list()).toEqual([]);
  });

  it('changes a NAS by id or name, checks the values, and says null when nothing matches', async () => {
    const nas = await service().add(INPUT);
    expect(await service().update('lobby-ap', { acceptsCoa: false, coaPort: 1700, vendor: 'mikrotik' })).toMatchObject({
      id: nas.id,
      acceptsCoa: false,
      coaPort: 1700,
      vendor: 'mikrotik',
      requireMessageAuthenticator: false,
    });
    expect(await service().update(nas.id, { requireMessageAuthenticator: true })).toMatchObject({
      acceptsCoa: false,
      requireMessageAuthenticator: true,
    });
    expect((await service().list())[0]).toMatchObject({ acceptsCoa: false, coaPort: 1700, vendor: 'mikrotik' });
    await expect(service().update(nas.id, { coaPort: 70000 })).rejects.toThrow(NasValidationError);
    await expect(service().update(nas.id, { vendor: 'juniper' as never })).rejects.toThrow(NasValidationError);
    expect(await service().update('gone', { acceptsCoa: true })).toBeNull();
  });

  it('marks a NAS as refusing CoA once, which its Disconnect target and refusingCoa then show', async () => {
    const nases = service();
    const lobby = await nases.add(INPUT);
    const other = await nases.add({ ...INPUT, name: 'other-ap', ipAddress: '192.0.2.11', acceptsCoa: false });
    const recorded = { nasSourceIp: null, nasIpAddress: null };
    expect(await nases.disconnectTarget(lobby.id, recorded)).toMatchObject({ acceptsCoa: true });
    expect(await nases.markRefusingCoa(lobby.id)).toBe(true);
    expect(await nases.markRefusingCoa(lobby.id)).toBe(false);
    expect(await nases.markRefusingCoa('no-such-nas')).toBe(false);
    expect(await nases.disconnectTarget(lobby.id, recorded)).toMatchObject({ acceptsCoa: false });
    const refusing = await database.run((em) => nases.refusingCoa(em, [lobby.id, other.id, 'no-such-nas']));
    expect([...refusing].sort()).toEqual([lobby.id, other.id].sort());
    expect(await database.run((em) => nases.refusingCoa(em, []))).toEqual(new Set());
    await nases.update(lobby.id, { acceptsCoa: true });
    expect([...(await database.run((em) => nases.refusingCoa(em, [lobby.id, other.id])))]).toEqual([other.id]);
  });

  it('identifies a NAS by shortname and a source address inside its address or network', async () => {
    await service().add({ ...INPUT, ipAddress: '192.0.2.0/24' });
    await service().add({ ...INPUT, name: 'v6-ap', ipAddress: '2001:db8::/64' });
    expect(await service().identify('lobby-ap', '192.0.2.77')).toMatchObject({
      name: 'lobby-ap',
      secret: 'shared-secret-01',
    });
    expect(await service().identify('lobby-ap', '::ffff:192.0.2.77')).toMatchObject({ name: 'lobby-ap' });
    expect(await service().identify('v6-ap', '2001:db8::abcd')).toMatchObject({ name: 'v6-ap' });
    expect(await service().identify('lobby-ap', '192.0.3.1')).toBeNull();
    expect(await service().identify('v6-ap', '192.0.2.77')).toBeNull();
    expect(await service().identify('unknown', '192.0.2.77')).toBeNull();
    expect(await service().identify("x' OR 1=1", '192.0.2.77')).toBeNull();
  });

  it("reuses a lookup for NAS_LOOKUP_TTL_MS: another process's change shows after it, this instance's at once", async () => {
    const clock = new ManualClock();
    const instance = new NasService(
      database,
      new NasClientsRepository(),
      clock,
      new AuditService(database, new AuditRepository(), clock),
      configWith(key),
      new VenuesService(
        database,
        new VenuesRepository(),
        clock,
        new AuditService(database, new AuditRepository(), clock),
      ),
    );
    const elsewhere = service();
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toBeNull();
    const added = await elsewhere.add(INPUT);
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toBeNull();
    clock.advance(NAS_LOOKUP_TTL_MS);
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toMatchObject({ id: added.id });

    await elsewhere.remove('lobby-ap');
    clock.advance(NAS_LOOKUP_TTL_MS - 1);
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toMatchObject({ id: added.id });
    clock.advance(1);
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toBeNull();

    const again = await instance.add(INPUT);
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toMatchObject({ id: again.id });
    await instance.remove(again.id);
    expect(await instance.identify('lobby-ap', '192.0.2.10')).toBeNull();
  });

  it('addressMatches compares single addresses exactly', () => {
    expect(addressMatches('192.0.2.10', '192.0.2.10')).toBe(true);
    expect(addressMatches('192.0.2.10', '192.0.2.11')).toBe(false);
    expect(addressMatches('2001:db8::1', '2001:DB8:0::1')).toBe(true);
    expect(addressMatches('192.0.2.10', 'not-an-ip')).toBe(false);
  });
});
