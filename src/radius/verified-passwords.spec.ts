import { VerifiedPasswords } from './verified-passwords.js';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo';
const OTHER_HASH = '$argon2id$v=19$m=19456,t=2,p=1$b3RoZXJzYWx0$b3RoZXJoYXNo';

describe('VerifiedPasswords', () => {
  it('vouches for a password it was told matched, for that user and hash', () => {
    const cache = new VerifiedPasswords(1000);
    expect(cache.has('u1', HASH, 'secret-1', 0)).toBe(false);
    cache.add('u1', HASH, 'secret-1', 0);
    expect(cache.has('u1', HASH, 'secret-1', 10)).toBe(true);
    expect(cache.has('u2', HASH, 'secret-1', 10)).toBe(false);
  });

  it('never vouches for another password, and keeps the entry of the right one', () => {
    const cache = new VerifiedPasswords(1000);
    cache.add('u1', HASH, 'secret-1', 0);
    for (const guess of ['secret-2', 'secret-1 ', 'Secret-1', '', 'secret-1\u0000']) {
      expect(cache.has('u1', HASH, guess, 10)).toBe(false);
    }
    expect(cache.has('u1', HASH, 'secret-1', 10)).toBe(true);
  });

  it('no longer vouches once the stored hash changed (a new password)', () => {
    const cache = new VerifiedPasswords(1000);
    cache.add('u1', HASH, 'secret-1', 0);
    expect(cache.has('u1', OTHER_HASH, 'secret-1', 10)).toBe(false);
  });

  it('the separator keeps hash and password apart: moving characters between them does not match', () => {
    const cache = new VerifiedPasswords(1000);
    cache.add('u1', 'hash-a', 'bc', 0);
    expect(cache.has('u1', 'hash-ab', 'c', 10)).toBe(false);
  });

  it('forgets an entry once its time to live has passed, even when asked with an earlier time afterwards', () => {
    const cache = new VerifiedPasswords(1000);
    cache.add('u1', HASH, 'secret-1', 10_000);
    expect(cache.has('u1', HASH, 'secret-1', 10_999)).toBe(true);
    expect(cache.has('u1', HASH, 'secret-1', 11_000)).toBe(false);
    expect(cache.has('u1', HASH, 'secret-1', 10_500)).toBe(false);
  });

  it('a hit does not extend the time to live: the password is verified again after it', () => {
    const cache = new VerifiedPasswords(1000);
    cache.add('u1', HASH, 'secret-1', 0);
    expect(cache.has('u1', HASH, 'secret-1', 900)).toBe(true);
    expect(cache.has('u1', HASH, 'secret-1', 1000)).toBe(false);
  });

  it('stores nothing when the time to live is 0', () => {
    const cache = new VerifiedPasswords(0);
    cache.add('u1', HASH, 'secret-1', 0);
    expect(cache.has('u1', HASH, 'secret-1', 0)).toBe(false);
  });

  it('holds at most maxEntries users, dropping the least recently used', () => {
    const cache = new VerifiedPasswords(1000, 2);
    cache.add('u1', HASH, 'p1', 0);
    cache.add('u2', HASH, 'p2', 0);
    expect(cache.has('u1', HASH, 'p1', 1)).toBe(true);
    cache.add('u3', HASH, 'p3', 2);
    expect(cache.has('u2', HASH, 'p2', 3)).toBe(false);
    expect(cache.has('u1', HASH, 'p1', 3)).toBe(true);
    expect(cache.has('u3', HASH, 'p3', 3)).toBe(true);
  });

  it('a new password of the same user replaces its entry rather than adding one', () => {
    const cache = new VerifiedPasswords(1000, 2);
    cache.add('u1', HASH, 'p1', 0);
    cache.add('u2', HASH, 'p2', 0);
    cache.add('u2', OTHER_HASH, 'p2-new', 1);
    expect(cache.has('u1', HASH, 'p1', 2)).toBe(true);
    expect(cache.has('u2', HASH, 'p2', 2)).toBe(false);
    expect(cache.has('u2', OTHER_HASH, 'p2-new', 2)).toBe(true);
  });
});
