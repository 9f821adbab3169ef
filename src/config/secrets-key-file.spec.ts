import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyFile, readKeyFile, readOrCreateKeyFile, SecretsKeyFileError } from './secrets-key-file.js';

describe('the secrets key file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hotspot-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once, 0600 in a 0700 folder, and then read back the same', () => {
    const path = join(dir, 'data', 'secrets.key');
    const key = readOrCreateKeyFile(path);
    expect(key).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toBe(`${key.toString('hex')}\n`);
    expect(readOrCreateKeyFile(path).equals(key)).toBe(true);
  });

  it('is never replaced: a second creation finds the first', () => {
    const path = join(dir, 'secrets.key');
    expect(createKeyFile(path, Buffer.alloc(32, 1))).toBe(true);
    expect(createKeyFile(path, Buffer.alloc(32, 2))).toBe(false);
    expect(readKeyFile(path).equals(Buffer.alloc(32, 1))).toBe(true);
  });

  it('is refused when others may read it, or when it holds no key; the message never shows the key', () => {
    const path = join(dir, 'secrets.key');
    writeFileSync(path, `${'ab'.repeat(32)}\n`, { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(() => readKeyFile(path)).toThrow(
      new SecretsKeyFileError(
        `${path} can be read by others (mode 0644): make it the owner's alone (chmod 600 ${path})`,
      ),
    );
    chmodSync(path, 0o600);
    writeFileSync(path, 'not a key');
    expect(() => readKeyFile(path)).toThrow(/the key must be 32 bytes as 64 hexadecimal characters or as base64/);
  });
});
