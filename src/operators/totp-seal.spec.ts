import { randomBytes } from 'node:crypto';
import { openTotpSeed, sealTotpSeed } from './totp-seal.js';

describe('TOTP seed sealing', () => {
  const seed = randomBytes(20);
  const key = randomBytes(32);

  it('seals under SECRETS_KEY without the seed in clear, and opens for the same operator only', () => {
    const sealed = sealTotpSeed(seed, 'operator-a', key);
    expect(sealed).toMatch(/^aes256gcm:/);
    expect(sealed).not.toContain(seed.toString('base64'));
    expect(openTotpSeed(sealed, 'operator-a', key).equals(seed)).toBe(true);
    expect(() => openTotpSeed(sealed, 'operator-b', key)).toThrow(/TOTP key of operator operator-b cannot be read/);
  });

  it('says what to fix when the key is missing or another one', () => {
    const sealed = sealTotpSeed(seed, 'operator-a', key);
    expect(() => openTotpSeed(sealed, 'operator-a', null)).toThrow(/SECRETS_KEY is unset or is not the key/);
    expect(() => openTotpSeed(sealed, 'operator-a', randomBytes(32))).toThrow(/SECRETS_KEY/);
  });

  it('without a key the seed is stored in clear, as NAS secrets are', () => {
    const stored = sealTotpSeed(seed, 'operator-a', null);
    expect(stored).toBe(`plain:${seed.toString('base64')}`);
    expect(openTotpSeed(stored, 'operator-a', null).equals(seed)).toBe(true);
  });
});
