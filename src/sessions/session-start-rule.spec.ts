import { decideSessionStart, type SessionStartCandidate } from './session-start-rule.js';

describe('decideSessionStart', () => {
  const user = (overrides: Partial<SessionStartCandidate> = {}): SessionStartCandidate => ({
    id: 'u1',
    status: 'active',
    venueIds: ['venue-a', 'venue-b'],
    ...overrides,
  });

  it('allows an active user in any of its venues', () => {
    expect(decideSessionStart('u1', user(), 'venue-a')).toEqual({ allowed: true, user: user() });
    expect(decideSessionStart('u1', user(), 'venue-b')).toEqual({ allowed: true, user: user() });
  });

  it('refuses a user that does not exist (deleted or never created) as no such user', () => {
    expect(decideSessionStart('gone', null, 'venue-a')).toEqual({
      allowed: false,
      reason: 'no-such-user',
      message: 'no such user gone',
    });
  });

  it.each(['blocked', 'expired'] as const)('refuses a %s user, in its own venues too', (status) => {
    expect(decideSessionStart('u1', user({ status }), 'venue-a')).toEqual({
      allowed: false,
      reason: 'user-not-active',
      message: `user u1 is ${status}`,
    });
  });

  it('refuses a venue the user does not belong to', () => {
    expect(decideSessionStart('u1', user(), 'venue-c')).toEqual({
      allowed: false,
      reason: 'not-in-venue',
      message: 'user u1 does not belong to venue venue-c',
    });
    expect(decideSessionStart('u1', user({ venueIds: [] }), 'venue-a')).toMatchObject({ reason: 'not-in-venue' });
  });

  it('names the status before the venue when both are wrong', () => {
    expect(decideSessionStart('u1', user({ status: 'blocked' }), 'venue-c')).toMatchObject({ reason: 'user-not-active' });
  });
});
