import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import type { DatabaseService } from '../database/database.service.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { VenuesRepository } from './venues.repository.js';
import { VenuesService, VenueValidationError } from './venues.service.js';

describe('VenuesService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let service: VenuesService;

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    service = new VenuesService(
      database,
      new VenuesRepository(),
      clock,
      new AuditService(database, new AuditRepository(), clock),
    );
  });

  afterEach(() => close());

  it('registers a venue, then changes only the fields given and clears those given empty', async () => {
    const first = await service.set('lobby', { displayName: 'Lobby', ssid: 'Guest' });
    expect(first).toMatchObject({ created: true, changed: ['displayName', 'ssid'] });
    clock.advance(1000);
    const second = await service.set('lobby', { timeZone: 'Europe/Berlin', ssid: '' });
    expect(second.created).toBe(false);
    expect(second.changed).toEqual(['timeZone', 'ssid']);
    expect(await service.list()).toEqual([
      {
        id: 'lobby',
        displayName: 'Lobby',
        timeZone: 'Europe/Berlin',
        ssid: null,
        portalUrl: null,
        checkOutTime: null,
        defaultPlanId: null,
        createdAt: new Date('2026-11-22T10:00:00.000Z'),
        updatedAt: new Date('2026-11-22T10:00:01.000Z'),
      },
    ]);
  });

  it('asks the plans about a default plan being set, refuses what they refuse, and clears it without asking', async () => {
    const asked: Array<[string, string]> = [];
    const checked = new VenuesService(
      database,
      new VenuesRepository(),
      clock,
      new AuditService(database, new AuditRepository(), clock),
      {
        defaultPlanProblem: (_em, venueId, planId) => {
          asked.push([venueId, planId]);
          return Promise.resolve(planId === 'offered' ? null : `plan ${planId} is not offered in venue ${venueId}`);
        },
      },
    );
    await expect(checked.set('lobby', { defaultPlanId: 'elsewhere' })).rejects.toThrow(
      new VenueValidationError('defaultPlanId', 'plan elsewhere is not offered in venue lobby'),
    );
    expect(await checked.list()).toEqual([]);
    const set = await checked.set('lobby', { defaultPlanId: 'offered' });
    expect(set).toMatchObject({ created: true, changed: ['defaultPlanId'], venue: { defaultPlanId: 'offered' } });
    await checked.set('lobby', { defaultPlanId: 'offered' });
    const cleared = await checked.set('lobby', { defaultPlanId: null });
    expect(cleared.venue.defaultPlanId).toBeNull();
    expect(asked).toEqual([
      ['lobby', 'elsewhere'],
      ['lobby', 'offered'],
    ]);
  });

  it('records venue.create and venue.update with the changed fields, and nothing for a set that changes nothing', async () => {
    await service.set('lobby', { ssid: 'Guest' });
    await service.set('lobby', { ssid: 'Guest' });
    await service.set('lobby', { displayName: 'Lobby', ssid: '' });
    const rows = await database.dataSource.query<
      Array<{ action: string; target_type: string; changed_fields: string | null }>
    >('SELECT action, target_type, changed_fields FROM audit_events ORDER BY occurred_at, id');
    expect(rows.map((row) => [row.action, row.target_type, row.changed_fields])).toEqual([
      ['venue.create', 'venue', null],
      ['venue.update', 'venue', JSON.stringify(['displayName', 'ssid'])],
    ]);
  });

  it('leaves updatedAt when nothing changes', async () => {
    await service.set('lobby', { ssid: 'Guest' });
    clock.advance(1000);
    const again = await service.set('lobby', { ssid: 'Guest' });
    expect(again.changed).toEqual([]);
    expect(again.venue.updatedAt).toEqual(new Date('2026-11-22T10:00:00.000Z'));
  });

  it('refuses a bad id or field, naming it, and stores nothing', async () => {
    await expect(service.set('lob by', {})).rejects.toThrow(VenueValidationError);
    await expect(service.set('lobby', { portalUrl: 'ftp://x' })).rejects.toMatchObject({
      field: 'portalUrl',
      message: 'portalUrl must be an http or https URL',
    });
    expect(await service.list()).toEqual([]);
  });

  it('names the unregistered venue ids of a list in one read', async () => {
    await service.set('a', {});
    expect(await service.unregisteredNow(['b', 'a', 'c', 'b'])).toEqual(['b', 'c']);
    expect(await service.unregisteredNow([])).toEqual([]);
  });
});
