import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import type { EntityManager } from 'typeorm';
import type { DatabaseService } from '../database/database.service.js';
import { ManualClock, openInMemoryDatabase } from '../testing/in-memory-database.js';
import { DevicesRepository } from './devices.repository.js';
import { DeviceEntity } from './entities/device.entity.js';
import { SessionEntity } from './entities/session.entity.js';
import { SessionsRepository } from './sessions.repository.js';
import { SessionRequestError, SessionsService } from './sessions.service.js';

describe('SessionsService', () => {
  let database: DatabaseService;
  let close: () => Promise<void>;
  let clock: ManualClock;
  let sessions: SessionsService;
  let counter = 0;

  beforeEach(async () => {
    ({ database, close } = await openInMemoryDatabase());
    clock = new ManualClock();
    sessions = new SessionsService(
      database,
      clock,
      new SessionsRepository(),
      new DevicesRepository(),
      new AuditService(database, new AuditRepository(), clock),
    );
  });

  afterEach(() => close());

  /** A user row to hang sessions on; the entity is named by string, as sessions/ sits below hotspot-users/. */
  async function newUserId(): Promise<string> {
    const id = `user-${++counter}`;
    const now = clock.now();
    await database.run((em: EntityManager) =>
      em.insert('HotspotUserEntity', {
        id,
        name: 'G',
        username: null,
        email: null,
        phone: null,
        macAddress: null,
        loginMethod: 'guest',
        status: 'active',
        passwordHash: null,
        expiresAt: null,
        metadata: {},
        createdAt: now,
        updatedAt: now,
      }),
    );
    return id;
  }

  const open = (userId: string, macAddress: string, extra: { ipAddress?: string } = {}) =>
    database.transaction((em) => sessions.open(em, { userId, venueId: 'venue-a', macAddress, ...extra }, clock.now()));

  it('records the device on the first session and refreshes lastSeenAt on the next', async () => {
    const userId = await newUserId();
    const first = await open(userId, 'AA:BB:CC:DD:EE:FF', { ipAddress: '10.0.0.5' });
    expect(first).toMatchObject({
      status: 'active',
      macAddress: 'AA:BB:CC:DD:EE:FF',
      ipAddress: '10.0.0.5',
      endedAt: null,
    });
    clock.advance(60_000);
    await sessions.stop(first.id);
    clock.advance(60_000);
    await open(userId, 'AA:BB:CC:DD:EE:FF');

    const devices = await database.run((em) => em.findBy(DeviceEntity, { userId }));
    expect(devices).toHaveLength(1);
    expect(devices[0].firstSeenAt.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(devices[0].lastSeenAt.toISOString()).toBe('2026-11-22T10:02:00.000Z');
  });

  it('stops a session once', async () => {
    const session = await open(await newUserId(), '02:00:00:00:00:01');
    clock.advance(5000);
    const stopped = await sessions.stop(session.id);
    expect(stopped).toMatchObject({ status: 'stopped', endedAt: new Date('2026-11-22T10:00:05.000Z') });
    clock.advance(5000);
    expect((await sessions.stop(session.id)).endedAt).toEqual(new Date('2026-11-22T10:00:05.000Z'));
    const stored = await database.run((em) => em.findOneBy(SessionEntity, { id: session.id }));
    expect(stored).toMatchObject({ status: 'stopped', endedAt: new Date('2026-11-22T10:00:05.000Z') });
  });

  it('refuses to stop an unknown session', async () => {
    await expect(sessions.stop('nope')).rejects.toThrow(new SessionRequestError('no session nope'));
  });

  it('ends only active sessions of the user and expires its devices', async () => {
    const userId = await newUserId();
    const other = await newUserId();
    const stopped = await open(userId, '02:00:00:00:00:01');
    await sessions.stop(stopped.id);
    const live = await open(userId, '02:00:00:00:00:02');
    const untouched = await open(other, '02:00:00:00:00:03');
    clock.advance(1000);
    const ended = await database.transaction((em) => sessions.endAllForUser(em, userId, clock.now()));
    expect(ended.map((session) => [session.id, session.status])).toEqual([[live.id, 'expired']]);
    const rows = await database.run((em) => em.find(SessionEntity, { order: { macAddress: 'ASC' } }));
    expect(rows.map((row) => [row.id, row.status, row.endedAt?.toISOString() ?? null])).toEqual([
      [stopped.id, 'stopped', '2026-11-22T10:00:00.000Z'],
      [live.id, 'expired', '2026-11-22T10:00:01.000Z'],
      [untouched.id, 'active', null],
    ]);
    const devices = await database.run((em) => em.find(DeviceEntity, { order: { macAddress: 'ASC' } }));
    expect(devices.map((device) => device.status)).toEqual(['expired', 'expired', 'active']);
  });
});
