import { SessionEntity } from './entities/session.entity.js';
import { endedByService, newDevice, newSession, NO_ACCOUNTING, stoppedSession } from './session.rules.js';

const now = new Date('2030-01-01T10:00:00.000Z');
const later = new Date('2030-01-01T11:00:00.000Z');

describe('session rules', () => {
  const session = newSession({ userId: 'u1', venueId: 'venue-a', macAddress: 'AA:BB:CC:DD:EE:FF' }, 's1', now);

  it('opens a session active, with no IP, NAS or accounting data unless given', () => {
    expect(session).toEqual(
      Object.assign(new SessionEntity(), {
        id: 's1',
        userId: 'u1',
        venueId: 'venue-a',
        macAddress: 'AA:BB:CC:DD:EE:FF',
        ipAddress: null,
        nasId: null,
        status: 'active',
        startedAt: now,
        endedAt: null,
        disconnectJobId: null,
        ...NO_ACCOUNTING,
      }),
    );
    expect(Object.values(NO_ACCOUNTING).every((value) => value === null)).toBe(true);
    expect(newSession({ ...session, ipAddress: '10.0.0.5', nasId: 'nas-1' }, 's2', now)).toMatchObject({
      ipAddress: '10.0.0.5',
      nasId: 'nas-1',
    });
  });

  it('records a device as first and last seen now', () => {
    expect(newDevice('u1', 'AA:BB:CC:DD:EE:FF', 'd1', now)).toMatchObject({
      status: 'active',
      name: null,
      firstSeenAt: now,
      lastSeenAt: now,
    });
  });

  it('stops an active session once, without changing the one given', () => {
    const stopped = stoppedSession(session, later);
    expect(stopped).toMatchObject({ id: 's1', status: 'stopped', endedAt: later });
    expect(session.status).toBe('active');
    expect(stoppedSession(stopped!, now)).toBeNull();
  });

  it('leaves a session this service ended as it is when the network side stops it', () => {
    const [ended] = endedByService([session], later);
    expect(ended).toMatchObject({ status: 'expired', endedAt: later });
    expect(stoppedSession(ended, later)).toBeNull();
  });
});
