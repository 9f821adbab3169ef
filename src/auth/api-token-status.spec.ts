import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import 'reflect-metadata';
import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { ApiTokenRepository } from './api-token.repository.js';
import { ApiTokenService } from './api-token.service.js';

/** What the command line shows about a token: its status and whether a revoke was a repeat. */
describe('ApiTokenService status and revocation outcome', () => {
  let close: () => Promise<void>;
  let clock: ManualClock;
  let service: ApiTokenService;

  beforeEach(async () => {
    const opened = await openInMemoryDatabase();
    close = opened.close;
    clock = new ManualClock(new Date('2030-01-01T00:00:00.000Z'));
    const config = { get: () => 10_000 } as unknown as ConfigService<AppConfig, true>;
    service = new ApiTokenService(
      opened.database,
      new ApiTokenRepository(),
      clock,
      new AuditService(opened.database, new AuditRepository(), clock),
      config,
    );
  });

  afterEach(async () => {
    await close();
  });

  const create = (expiresAt: Date | null = null) =>
    service.create({ name: 't', permissions: ['read'], venueIds: null, expiresAt });

  it('statusOf: active until the expiry instant, expired from it on, revoked above all', async () => {
    const { record } = await create(new Date('2030-01-01T00:00:01.000Z'));
    expect(service.statusOf(record)).toBe('active');
    clock.advance(1000);
    expect(service.statusOf(record)).toBe('expired');
    await service.revoke(record.id);
    const [listed] = await service.list();
    expect(service.statusOf(listed)).toBe('revoked');
    expect(service.statusOf({ revokedAt: new Date('2029-01-01T00:00:00.000Z'), expiresAt: null })).toBe('revoked');
  });

  it('revokeReporting: the first revocation is fresh, a later one reports the first time as already revoked', async () => {
    const { record, value } = await create();
    const first = await service.revokeReporting(record.id);
    expect(first?.alreadyRevoked).toBe(false);
    expect(first?.token.revokedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');

    clock.advance(60_000);
    const again = await service.revokeReporting(value);
    expect(again?.alreadyRevoked).toBe(true);
    expect(again?.token.revokedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(await service.authenticate(value)).toBeNull();
  });

  it('revokeReporting: null when no token matches', async () => {
    await create();
    expect(await service.revokeReporting('no-such-token')).toBeNull();
  });
});
