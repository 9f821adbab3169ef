import type { AuthenticatedToken } from './authenticated-token.js';
import { TokenCache } from './token-cache.js';

function token(id: string): AuthenticatedToken {
  return { id, name: `token ${id}`, permissions: ['read'], venueIds: null, expiresAt: null };
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
});
