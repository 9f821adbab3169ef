import {
  batchErrors,
  drawUsernames,
  newPassword,
  PASSWORD_ALPHABET,
  revealState,
  USERNAME_ALPHABET,
  type BatchRequest,
} from './batch.rules.js';

/** A random source that replays `values` (each modulo the asked range), then repeats the last. */
const replaying = (values: number[]) => {
  let index = 0;
  return (max: number) => values[Math.min(index++, values.length - 1)] % max;
};
const NOW = new Date('2026-11-22T10:00:00.000Z');
const request = (fields: Partial<BatchRequest> = {}): BatchRequest => ({
  venueId: 'lobby',
  count: 10,
  prefix: 'guest-',
  passwordLength: 10,
  expiresAt: new Date('2027-01-01T00:00:00Z'),
  validFor: null,
  label: null,
  planId: null,
  ...fields,
});

describe('alphabets', () => {
  it('hold no look-alikes', () => {
    for (const character of '0Oo1lIi') {
      expect(PASSWORD_ALPHABET).not.toContain(character);
      expect(USERNAME_ALPHABET).not.toContain(character);
    }
    expect(new Set(PASSWORD_ALPHABET).size).toBe(PASSWORD_ALPHABET.length);
  });

  it('make passwords of the asked length from the alphabet', () => {
    const password = newPassword(12, (max) => Math.floor(Math.random() * max));
    expect(password).toHaveLength(12);
    expect([...password].every((character) => PASSWORD_ALPHABET.includes(character))).toBe(true);
  });
});

describe('drawUsernames', () => {
  it('draws again a username that is taken or drawn already', () => {
    // The first draw is taken, the second repeats it, the third is new.
    const random = replaying([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    expect(drawUsernames('g-', 1, new Set(['g-aaaaaa']), random)).toEqual(['g-bbbbbb']);
  });

  it('gives `count` distinct usernames of the prefix', () => {
    const names = drawUsernames('p.', 200, new Set(), (max) => Math.floor(Math.random() * max));
    expect(new Set(names).size).toBe(200);
    for (const name of names) expect(name).toMatch(/^p\.[a-z2-9]{6}$/);
  });
});

describe('batchErrors', () => {
  it('accepts a well-formed request', () => {
    expect(batchErrors(request(), NOW)).toEqual([]);
  });

  it.each([
    [{ count: 0 }, 'count'],
    [{ count: 1001 }, 'count'],
    [{ passwordLength: 7 }, 'passwordLength'],
    [{ passwordLength: 13 }, 'passwordLength'],
    [{ prefix: 'a b' }, 'prefix'],
    [{ label: '' }, 'label'],
    [{ expiresAt: null }, 'expiresAt'],
    [{ expiresAt: NOW }, 'expiresAt'],
    [{ expiresAt: null, validFor: 59 }, 'validFor'],
    [{ expiresAt: null, validFor: 366 * 86_400 + 1 }, 'validFor'],
  ])('names the field of %j', (fields, field) => {
    expect(batchErrors(request(fields), NOW).map((error) => error.field)).toContain(field);
  });

  it('takes validFor instead of expiresAt, never both', () => {
    expect(batchErrors(request({ expiresAt: null, validFor: 86_400 }), NOW)).toEqual([]);
    expect(batchErrors(request({ validFor: 86_400 }), NOW).map((error) => error.field)).toEqual(['validFor']);
  });
});

describe('revealState', () => {
  const day = 24 * 60 * 60 * 1000;
  it('is open before the first reveal and for 24 hours after it, then closed', () => {
    expect(revealState({ firstRevealedAt: null, passwordsErasedAt: null }, NOW)).toEqual({
      kind: 'open',
      closesAt: null,
    });
    const first = new Date(NOW.getTime() - day + 1);
    expect(revealState({ firstRevealedAt: first, passwordsErasedAt: null }, NOW)).toEqual({
      kind: 'open',
      closesAt: new Date(first.getTime() + day),
    });
    const older = new Date(NOW.getTime() - day);
    expect(revealState({ firstRevealedAt: older, passwordsErasedAt: null }, NOW)).toMatchObject({
      kind: 'closed',
      erased: false,
    });
    expect(revealState({ firstRevealedAt: older, passwordsErasedAt: NOW }, NOW)).toMatchObject({
      kind: 'closed',
      erased: true,
    });
  });
});
