import { decideSessionStart, type SessionStartCandidate } from './session-start.rules.js';

describe('decideSessionStart', () => {
  const now = new Date('2030-01-01T10:00:00.000Z');
  const user = (overrides: Partial<SessionStartCandidate> = {}): SessionStartCandidate => ({
    id: 'u1',
    status: 'active',
    expiresAt: null,
    venueIds: ['venue-a', 'venue-b'],
    ...overrides,
  });

  it('allows an active user in any of its venues', () => {
    expect(decideSessionStart('u1', user(), 'venue-a', now)).toEqual({ allowed: true, user: user() });
    expect(decideSessionStart('u1', user(), 'venue-b', now)).toEqual({ allowed: true, user: user() });
  });

  it('refuses a user that does not exist (deleted or never created) as no such user', () => {
    expect(decideSessionStart('gone', null, 'venue-a', now)).toEqual({
      allowed: false,
      reason: 'no-such-user',
      message: 'no such user gone',
    });
  });

  it.each(['blocked', 'expired'] as const)('refuses a %s user, in its own venues too', (status) => {
    expect(decideSessionStart('u1', user({ status }), 'venue-a', now)).toEqual({
      allowed: false,
      reason: 'user-not-active',
      message: `user u1 is ${status}`,
    });
  });

  it.each(['active', 'blocked'] as const)(
    'refuses a %s user whose expiresAt has passed, before the sweep reaches it, as expired',
    (status) => {
      for (const expiresAt of [now, new Date(now.getTime() - 1)]) {
        expect(decideSessionStart('u1', user({ status, expiresAt }), 'venue-a', now)).toEqual({
          allowed: false,
          reason: 'user-not-active',
          message: 'user u1 is expired',
        });
      }
    },
  );

  it('allows an active user whose expiresAt lies ahead', () => {
    const expiresAt = new Date(now.getTime() + 1);
    expect(decideSessionStart('u1', user({ expiresAt }), 'venue-a', now)).toMatchObject({ allowed: true });
  });

  it('refuses a venue the user does not belong to', () => {
    expect(decideSessionStart('u1', user(), 'venue-c', now)).toEqual({
      allowed: false,
      reason: 'not-in-venue',
      message: 'user u1 does not belong to venue venue-c',
    });
    expect(decideSessionStart('u1', user({ venueIds: [] }), 'venue-a', now)).toMatchObject({ reason: 'not-in-venue' });
  });

  it('names the status before the venue when both are wrong', () => {
    expect(decideSessionStart('u1', user({ status: 'blocked' }), 'venue-c', now)).toMatchObject({
      reason: 'user-not-active',
    });
    expect(decideSessionStart('u1', user({ expiresAt: now }), 'venue-c', now)).toMatchObject({
      reason: 'user-not-active',
    });
  });
});
