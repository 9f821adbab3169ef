import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * How NAS shared secrets are stored. They are needed in clear (FreeRADIUS's clients.conf, signing
 * Disconnect/CoA packets), so they are encrypted, not hashed: AES-256-GCM under SECRETS_KEY, with
 * the NAS id as associated data so a ciphertext copied onto another row does not decrypt. Without a
 * key they are stored in clear. The stored text names its form, so both can coexist.
 */

const PLAIN = 'plain:';
const SEALED = 'aes256gcm:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that cannot be read: encrypted with no key configured, or with another key. Never holds the secret. */
export class NasSecretUnavailableError extends Error {
  override name = 'NasSecretUnavailableError';
}

export function sealSecret(secret: string, nasId: string, key: Buffer | null): string {
  if (key === null) return PLAIN + secret;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(nasId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The clear secret of a stored one, or NasSecretUnavailableError with a message fit for an operator. */
export function openSecret(stored: string, nasId: string, nasName: string, key: Buffer | null): string {
  if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
  if (!stored.startsWith(SEALED)) {
    throw new NasSecretUnavailableError(`The stored secret of NAS "${nasName}" has an unknown format.`);
  }
  if (key === null) {
    throw new NasSecretUnavailableError(
      `The secret of NAS "${nasName}" is stored encrypted and SECRETS_KEY is not set: set the key it was stored with.`,
    );
  }
  const raw = Buffer.from(stored.slice(SEALED.length), 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(nasId, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new NasSecretUnavailableError(
      `The secret of NAS "${nasName}" cannot be decrypted with SECRETS_KEY: it was stored with another key (or altered).`,
    );
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED);
}

/**
 * A stored secret sealed anew under `to` (null: in clear) after opening it with `from`; unchanged text
 * when it was already in that form is not guaranteed (a new IV each time). NasSecretUnavailableError
 * when `from` cannot open it.
 */
export function resealSecret(
  stored: string,
  context: string,
  name: string,
  from: Buffer | null,
  to: Buffer | null,
): string {
  return sealSecret(openSecret(stored, context, name, from), context, to);
}
