import { searchUsernameOf, usernameSearchRange } from './login-attempt-search.rules.js';

describe('login attempts by username', () => {
  it('keys a username with case, accents and white space folded, cut to the column', () => {
    expect(searchUsernameOf('  Ayşe.YILMAZ ')).toBe('ayse.yilmaz');
    expect(searchUsernameOf('Room-1204')).toBe('room-1204');
    expect([...searchUsernameOf('Ş'.repeat(300))]).toHaveLength(253);
  });

  it('reads the range of a typed start, its LIKE characters as themselves; nothing for white space', () => {
    expect(usernameSearchRange('ROOM')).toEqual({ from: 'room', to: 'roon', like: null });
    expect(usernameSearchRange('a_b%')).toEqual({ from: 'a_b%', to: 'a_b&', like: null });
    expect(usernameSearchRange('   ')).toBeNull();
  });
});
