import { LoginDecisions } from './login-decisions.js';

describe('LoginDecisions', () => {
  it('gives the post-auth of a login the user authorize found, for 10 s, per NAS, username and device', () => {
    const decisions = new LoginDecisions();
    decisions.remember('nas-1', 'guest', 'AA-BB', 'user-1', 1000);
    expect(decisions.userOf('nas-1', 'guest', 'AA-BB', 5000)).toBe('user-1');
    expect(decisions.userOf('nas-1', 'nobody', null, 5000)).toBeUndefined();
    expect(decisions.userOf('nas-2', 'guest', 'AA-BB', 5000)).toBeUndefined();
    expect(decisions.userOf('nas-1', 'guest', 'CC-DD', 5000)).toBeUndefined();
    expect(decisions.userOf('nas-1', 'guest', 'AA-BB', 11_000)).toBeUndefined();
  });

  it('a later decision about the same login replaces the earlier one', () => {
    const decisions = new LoginDecisions();
    decisions.remember('nas-1', 'guest', null, 'user-1', 1000);
    decisions.remember('nas-1', 'guest', null, 'user-2', 2000);
    expect(decisions.userOf('nas-1', 'guest', null, 3000)).toBe('user-2');
  });

  it('a login that found no user forgets the earlier finding: the username may have been released', () => {
    const decisions = new LoginDecisions();
    decisions.remember('nas-1', 'guest', null, 'user-1', 1000);
    decisions.forget('nas-1', 'guest', null);
    expect(decisions.userOf('nas-1', 'guest', null, 2000)).toBeUndefined();
  });
});
