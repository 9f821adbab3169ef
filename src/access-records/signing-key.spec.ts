import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOrCreateSigningKey, SigningKeyError } from './signing-key.js';

describe('the records signing key file', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'records-key-spec-'));
  });

  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('is made on first use, owner-only, and read back the same afterwards', () => {
    const path = join(folder, 'keys', 'records.key');
    const made = readOrCreateSigningKey(path);
    expect(made.privateKey.asymmetricKeyType).toBe('ed25519');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const again = readOrCreateSigningKey(path);
    expect(again.publicKey.export({ type: 'spki', format: 'der' })).toEqual(
      made.publicKey.export({ type: 'spki', format: 'der' }),
    );
  });

  it('refuses a file others may read, or one without an Ed25519 key, naming the file and never the key', () => {
    const path = join(folder, 'records.key');
    readOrCreateSigningKey(path);
    chmodSync(path, 0o644);
    expect(() => readOrCreateSigningKey(path)).toThrow(
      new SigningKeyError(`${path} can be read by others (mode 0644): make it the owner's alone (chmod 600 ${path})`),
    );
    writeFileSync(path, 'not a key\n', { mode: 0o600 });
    chmodSync(path, 0o600);
    expect(() => readOrCreateSigningKey(path)).toThrow(new SigningKeyError(`${path} holds no private key in PEM`));
  });
});
