import { randomBytes } from 'node:crypto';
import { NasSecretUnavailableError, openSecret, sealSecret } from './secret-box.js';

describe('secret box', () => {
  const key = randomBytes(32);
  const secret = 'radius-shared-secret';

  it('without a key stores the secret in clear, marked as such, and reads it back', () => {
    const stored = sealSecret(secret, 'id-1', null);
    expect(stored).toBe(`plain:${secret}`);
    expect(openSecret(stored, 'id-1', 'ap', null)).toBe(secret);
  });

  it('with a key stores AES-256-GCM ciphertext holding nothing of the secret, different each time', () => {
    const first = sealSecret(secret, 'id-1', key);
    const second = sealSecret(secret, 'id-1', key);
    expect(first).toMatch(/^aes256gcm:[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(secret);
    expect(Buffer.from(first.slice('aes256gcm:'.length), 'base64').toString('latin1')).not.toContain(secret);
    expect(openSecret(first, 'id-1', 'ap', key)).toBe(secret);
    expect(openSecret(second, 'id-1', 'ap', key)).toBe(secret);
  });

  it('keeps non-ASCII secrets intact', () => {
    expect(openSecret(sealSecret('sécret-ü', 'id', key), 'id', 'ap', key)).toBe('sécret-ü');
  });

  it.each<[string, (stored: string) => string]>([
    ['no key is set', (stored) => openSecret(stored, 'id-1', 'ap-1', null)],
    ['the key is another one', (stored) => openSecret(stored, 'id-1', 'ap-1', randomBytes(32))],
    ['the ciphertext was moved to another NAS row', (stored) => openSecret(stored, 'id-2', 'ap-1', key)],
    ['the ciphertext was altered', (stored) => openSecret(stored.slice(0, -4) + 'AAA=', 'id-1', 'ap-1', key)],
  ])('is a clear error, never garbage, when %s', (_case, open) => {
    const stored = sealSecret(secret, 'id-1', key);
    let error: unknown;
    try {
      open(stored);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NasSecretUnavailableError);
    expect((error as Error).message).toMatch(/NAS "ap-1".*SECRETS_KEY/);
    expect((error as Error).message).not.toContain(secret);
  });
});
