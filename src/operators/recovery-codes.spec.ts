import { newRecoveryCode, normalizeRecoveryCode } from './recovery-codes.js';

describe('recovery codes', () => {
  it('are four groups of four, all different', () => {
    const codes = Array.from({ length: 50 }, newRecoveryCode);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('are read back whatever the case, spaces and dashes', () => {
    const code = newRecoveryCode();
    expect(normalizeRecoveryCode(` ${code.toLowerCase().replaceAll('-', ' ')} `)).toBe(code.replaceAll('-', ''));
    expect(normalizeRecoveryCode('ABCD-EFGH-JKMN-PQRI')).toBeNull();
    expect(normalizeRecoveryCode('ABCD')).toBeNull();
  });
});
