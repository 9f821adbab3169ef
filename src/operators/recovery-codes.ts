import { randomInt } from 'node:crypto';
import { newId } from '../common/ids.js';
import type { OperatorRecoveryCodeEntity } from './entities/operator-recovery-code.entity.js';
import { sha256Hex } from '../common/sha256.js';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 (no I, L, O or U: read off paper without mistakes); 16 symbols of it carry 80 bits. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** A new recovery code, e.g. `K7QM-3XTR-P9WD-HN2C`. */
export function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i += 1) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** A typed recovery code in the form it was hashed in: upper case, without spaces or dashes; null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const compact = typed.replace(/[\s-]/g, '').toUpperCase();
  return compact.length === GROUPS * GROUP_LENGTH && [...compact].every((char) => ALPHABET.includes(char))
    ? compact
    : null;
}

/** The rows that store `codes` (shown once) for the operator: only each code's hash, in its normalized form. */
export function recoveryCodeRows(
  operatorId: string,
  codes: readonly string[],
  now: Date,
): OperatorRecoveryCodeEntity[] {
  return codes.map((code) => ({
    id: newId(),
    operatorId,
    codeHash: sha256Hex(code.replaceAll('-', '')),
    createdAt: now,
    usedAt: null,
  }));
}
