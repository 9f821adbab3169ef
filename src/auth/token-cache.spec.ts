import type { AuthenticatedToken } from './authenticated-token.js';
import { TokenCache, UNKNOWN_TOKEN_TTL_MS } from './token-cache.js';

function token(id: string): AuthenticatedToken {
  return { kind: 'token', id, name: `token ${id}`, permissions: ['read'], venueIds: null, expiresAt: null };
}

describe('TokenCache', () => {
  it('returns nothing for a hash it has never seen', () => {
    expect(new TokenCache(1000).get('unknown', 0)).toBeUndefined();
  });

  it('returns a stored token until its time to live has passed', () => {
    const cache = new TokenCache(1000);
    cache.set('h1', token('a'), 42, 10_000);
    expect(cache.get('h1', 10_000)?.token.id).toBe('a');
    expect(cache.get('h1', 10_999)).toEqual({ token: token('a'), cachedUntil: 11_000, lastUsedAt: 42 });
    expect(cache.get('h1', 11_000)).toBeUndefined();
  });

  it('forgets an expired entry for good, even when asked with an earlier time afterwards', () => {
    const cache = new TokenCache(1000);
    cache.set('h1', token('a'), null, 0);
    expect(cache.get('h1', 5000)).toBeUndefined();
    expect(cache.get('h1', 0)).toBeUndefined();
  });

  it('hands out the stored entry itself, so a recorded use is remembered', () => {
    const cache = new TokenCache(1000);
    const entry = cache.set('h1', token('a'), null, 0);
    entry.lastUsedAt = 500;
    expect(cache.get('h1', 600)?.lastUsedAt).toBe(500);
  });

  it('stores nothing when the time to live is 0', () => {
    const cache = new TokenCache(0);
    const entry = cache.set('h1', token('a'), 7, 100);
    expect(entry.token.id).toBe('a');
    expect(entry.lastUsedAt).toBe(7);
    expect(cache.get('h1', 100)).toBeUndefined();
  });

  it('replaces the entry of a hash that is set again', () => {
    const cache = new TokenCache(1000);
    cache.set('h1', token('a'), null, 0);
    cache.set('h1', token('b'), null, 500);
    expect(cache.get('h1', 1200)?.token.id).toBe('b');
  });

  it('drops the oldest entry when full', () => {
    const cache = new TokenCache(1000, 2);
    cache.set('h1', token('1'), null, 0);
    cache.set('h2', token('2'), null, 0);
    cache.set('h3', token('3'), null, 0);
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)?.token.id).toBe('2');
    expect(cache.get('h3', 1)?.token.id).toBe('3');
  });

  it('counts a re-stored entry as the newest when evicting', () => {
    const cache = new TokenCache(1000, 2);
    cache.set('h1', token('1'), null, 0);
    cache.set('h2', token('2'), null, 0);
    cache.set('h1', token('1'), null, 0);
    cache.set('h3', token('3'), null, 0);
    expect(cache.get('h2', 1)).toBeUndefined();
    expect(cache.get('h1', 1)?.token.id).toBe('1');
    expect(cache.get('h3', 1)?.token.id).toBe('3');
  });

  it('delete removes one entry and clear removes all', () => {
    const cache = new TokenCache(1000);
    cache.set('h1', token('1'), null, 0);
    cache.set('h2', token('2'), null, 0);
    cache.set('h3', token('3'), null, 0);
    cache.delete('h1');
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)?.token.id).toBe('2');
    cache.clear();
    expect(cache.get('h2', 1)).toBeUndefined();
    expect(cache.get('h3', 1)).toBeUndefined();
  });

  it(`remembers an unknown hash for at most ${UNKNOWN_TOKEN_TTL_MS} ms, or the time to live when shorter`, () => {
    const cache = new TokenCache(10_000);
    cache.setUnknown('h1', 0);
    expect(cache.isUnknown('h1', UNKNOWN_TOKEN_TTL_MS - 1)).toBe(true);
    expect(cache.holds('h1', 1)).toBe(true);
    expect(cache.isUnknown('h1', UNKNOWN_TOKEN_TTL_MS)).toBe(false);
    expect(cache.holds('h1', UNKNOWN_TOKEN_TTL_MS)).toBe(false);

    const short = new TokenCache(1000);
    short.setUnknown('h1', 0);
    expect(short.isUnknown('h1', 999)).toBe(true);
    expect(short.isUnknown('h1', 1000)).toBe(false);

    const off = new TokenCache(0);
    off.setUnknown('h1', 0);
    expect(off.isUnknown('h1', 0)).toBe(false);
  });

  it('a hash is either verified or unknown: setting one drops the other', () => {
    const cache = new TokenCache(10_000);
    cache.setUnknown('h1', 0);
    cache.set('h1', token('a'), null, 1);
    expect(cache.isUnknown('h1', 2)).toBe(false);
    expect(cache.get('h1', 2)?.token.id).toBe('a');
    cache.setUnknown('h1', 3);
    expect(cache.get('h1', 4)).toBeUndefined();
    expect(cache.isUnknown('h1', 4)).toBe(true);
    cache.delete('h1');
    expect(cache.holds('h1', 5)).toBe(false);
  });

  it('bounds unknown hashes on their own, so a flood of them does not push out verified tokens', () => {
    const cache = new TokenCache(10_000, 2);
    cache.set('good', token('g'), null, 0);
    for (let n = 0; n < 10; n += 1) cache.setUnknown(`bad-${n}`, 0);
    expect(cache.get('good', 1)?.token.id).toBe('g');
    expect(cache.isUnknown('bad-0', 1)).toBe(false);
    expect(cache.isUnknown('bad-8', 1)).toBe(true);
    expect(cache.isUnknown('bad-9', 1)).toBe(true);
    cache.clear();
    expect(cache.isUnknown('bad-9', 1)).toBe(false);
    expect(cache.get('good', 1)).toBeUndefined();
  });
});
