import { NasSecretUnavailableError, openSecret, resealSecret, sealSecret } from '../nas/secret-box.js';

/**
 * Operators' TOTP seeds are stored sealed as NAS secrets are (AES-256-GCM under SECRETS_KEY, in
 * clear without a key), bound to the operator, so a sealed seed copied onto another row does not open.
 */
function context(operatorId: string): string {
  return `operator-totp:${operatorId}`;
}

export function sealTotpSeed(seed: Buffer, operatorId: string, key: Buffer | null): string {
  return sealSecret(seed.toString('base64'), context(operatorId), key);
}

/** The seed, or an error that says what to fix (never the seed). */
export function openTotpSeed(stored: string, operatorId: string, key: Buffer | null): Buffer {
  try {
    return Buffer.from(openSecret(stored, context(operatorId), 'operator', key), 'base64');
  } catch (error) {
    if (!(error instanceof NasSecretUnavailableError)) throw error;
    throw new Error(
      `The TOTP key of operator ${operatorId} cannot be read: SECRETS_KEY is unset or is not the key it was stored with.`,
      { cause: error },
    );
  }
}

/** A stored seed sealed anew under `to` after opening it with `from` (NasSecretUnavailableError when it cannot). */
export function resealTotpSeed(stored: string, operatorId: string, from: Buffer | null, to: Buffer | null): string {
  return resealSecret(stored, context(operatorId), `operator ${operatorId}`, from, to);
}
