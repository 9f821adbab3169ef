import { createHash } from 'node:crypto';

/** SHA-256 as hex: of a text's UTF-8 bytes, or of the bytes given (stored hashes of tokens, codes, files). */
export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
