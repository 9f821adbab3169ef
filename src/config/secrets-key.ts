/** SECRETS_KEY: the AES-256 key that encrypts stored secrets (NAS shared secrets). */
export const SECRETS_KEY_BYTES = 32;

/**
 * 32 bytes written as 64 hexadecimal characters or as base64 (standard or URL-safe, padding
 * optional). The error never repeats the value: it is a secret.
 */
export function parseSecretsKey(raw: string): { value: Buffer } | { error: string } {
  const error = { error: `must be ${SECRETS_KEY_BYTES} bytes as 64 hexadecimal characters or as base64` };
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return { value: Buffer.from(raw, 'hex') };
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(raw)) return error;
  const key = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === SECRETS_KEY_BYTES ? { value: key } : error;
}
