import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The records' signing key cannot be used: the message names the file and the fix, never the key. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/** The Ed25519 key pair that signs the daily files. */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * The Ed25519 key in the file at `path` (PKCS#8 PEM), made on first use: written whole under a
 * temporary name, readable by its owner only, then linked into place, so that a reader never sees
 * half a key and two processes making it at once keep the same one. A file others may read is
 * refused, as the secrets key file is.
 */
export function readOrCreateSigningKey(path: string): SigningKey {
  try {
    return readSigningKey(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return readSigningKey(path);
}

function readSigningKey(path: string): SigningKey {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new SigningKeyError(
      `${path} can be read by others (mode ${mode.toString(8).padStart(4, '0')}): make it the owner's alone (chmod 600 ${path})`,
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(path, 'utf8'));
  } catch {
    throw new SigningKeyError(`${path} holds no private key in PEM`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`${path} holds no Ed25519 private key`);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
