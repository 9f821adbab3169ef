import { setImmediate as nextTurn } from 'node:timers/promises';
import { ARGON2_CONCURRENCY, argon2Slots, PasswordHasher, verifyPassword } from './password-hasher.js';

describe('password hashing', () => {
  it('verifies the password a hash was made of, and nothing else', async () => {
    const stored = await new PasswordHasher().hash('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'correct horsf')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
  });

  it('runs at most one hash or verification per core at once; the others wait their turn', async () => {
    const stored = await new PasswordHasher().hash('pw');
    const hasher = new PasswordHasher();
    const calls = [
      ...Array.from({ length: ARGON2_CONCURRENCY }, () => verifyPassword(stored, 'pw')),
      hasher.hash('another'),
      verifyPassword(stored, 'wrong'),
    ];
    // Each argon2id call takes milliseconds of a core: after one turn of the event loop the first
    // ones are under way on the thread pool and the last two still queued.
    await nextTurn();
    expect({ active: argon2Slots.activeCount, pending: argon2Slots.pendingCount }).toEqual({
      active: ARGON2_CONCURRENCY,
      pending: 2,
    });
    const results = await Promise.all(calls);
    expect(results.slice(0, ARGON2_CONCURRENCY)).toEqual(Array(ARGON2_CONCURRENCY).fill(true));
    expect(results.slice(ARGON2_CONCURRENCY)).toEqual([expect.stringMatching(/^\$argon2id\$/), false]);
    expect({ active: argon2Slots.activeCount, pending: argon2Slots.pendingCount }).toEqual({ active: 0, pending: 0 });
  });
});
