import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps use it (through the otpauth library): HMAC-SHA1, 30-second steps, 6 digits. */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after now are accepted too: phones' clocks drift and people type slowly. */
export const TOTP_WINDOW_STEPS = 1;
/** 160 bits, the size RFC 4226 recommends (the HMAC-SHA1 output). */
const SEED_BYTES = 20;

export function newTotpSeed(): Buffer {
  return randomBytes(SEED_BYTES);
}

function secretOf(seed: Buffer): Secret {
  return Secret.fromHex(seed.toString('hex'));
}

function totpOf(seed: Buffer, digits = TOTP_DIGITS, issuer?: string, account?: string): TOTP {
  return new TOTP({
    issuer,
    label: account,
    issuerInLabel: issuer !== undefined,
    algorithm: 'SHA1',
    digits,
    period: TOTP_STEP_SECONDS,
    secret: secretOf(seed),
  });
}

/** RFC 4648 base32 without padding: how otpauth:// URIs and the enrolment page carry the seed. */
export function base32Encode(bytes: Buffer): string {
  return secretOf(bytes).base32;
}

export function base32Decode(text: string): Buffer {
  return Buffer.from(Secret.fromBase32(text).bytes);
}

/** The time step of `at` (seconds since the epoch divided by the step length). */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** The code of `at`'s time step, `digits` long (RFC 6238's test vectors use 8). */
export function totpCode(seed: Buffer, at: Date, digits = TOTP_DIGITS): string {
  return totpOf(seed, digits).generate({ timestamp: at.getTime() });
}

/**
 * The time step within ±TOTP_WINDOW_STEPS of `at` whose code `code` is; null when none, or when
 * `code` is not six digits. The library compares in constant time.
 */
export function matchingTotpStep(seed: Buffer, code: string, at: Date): number | null {
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return null;
  const delta = totpOf(seed).validate({ token: code, timestamp: at.getTime(), window: TOTP_WINDOW_STEPS });
  return delta === null ? null : totpStep(at) + delta;
}

/** The otpauth:// URI authenticator apps read from the QR code (Key Uri Format). */
export function otpauthUri(seed: Buffer, issuer: string, account: string): string {
  return totpOf(seed, TOTP_DIGITS, issuer, account).toString();
}
