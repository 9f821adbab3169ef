import {
  COMMON_PASSWORDS,
  checkablePassword,
  passwordLength,
  passwordProblem,
  PASSWORD_MIN_LENGTH,
} from './password-policy.js';

const OWNER = { email: 'Ayse.Yilmaz@Example.com', name: 'Ayşe Yılmaz' };

describe('passwordProblem', () => {
  it('takes 10 characters or more, of any kind', () => {
    expect(passwordProblem('correct horse', OWNER)).toBeNull();
    expect(passwordProblem('çğıöşü€→★☕', OWNER)).toBeNull();
    expect(passwordProblem('short-pass', OWNER)).toBeNull();
    expect(passwordProblem('short-pas', OWNER)).toBe('must be at least 10 characters');
    expect(passwordProblem('x'.repeat(257), OWNER)).toBe('must be at most 256 characters');
  });

  it('refuses the email, its local part and the name, in any case', () => {
    expect(passwordProblem('ayse.yilmaz@example.com', OWNER)).toBe('must not be your email or name');
    expect(passwordProblem('AYSE.YILMAZ', OWNER)).toBe('must not be your email or name');
    expect(passwordProblem(' ayşe yılmaz ', OWNER)).toBe('must not be your email or name');
  });

  it('counts characters as typed: 10 emoji are 10 characters, 256 of them are checkable, 257 are not', () => {
    const emoji = (count: number) => '🔑'.repeat(count - 1) + '🚪';
    expect(passwordProblem(emoji(10), OWNER)).toBeNull();
    expect(passwordLength(emoji(200))).toBe(200);
    expect(checkablePassword(emoji(256))).toBe(true);
    expect(checkablePassword(emoji(257))).toBe(false);
    expect(checkablePassword('')).toBe(false);
  });

  it('counts the characters of the NFC form: an accent typed apart is no character of its own', () => {
    expect(passwordLength('Ame\u0301lie')).toBe(6);
    expect(passwordLength('Améli')).toBe(5);
    expect(passwordProblem('e\u0301'.repeat(10), OWNER)).toBe('must not be one character repeated');
  });

  it('refuses one character repeated', () => {
    expect(passwordProblem('aaaaaaaaaa', OWNER)).toBe('must not be one character repeated');
    expect(passwordProblem('🔑'.repeat(12), OWNER)).toBe('must not be one character repeated');
    expect(passwordProblem('aaaaaaaaab', OWNER)).toBeNull();
  });

  it('refuses the most common passwords, in any case', () => {
    expect(passwordProblem('Password123', OWNER)).toBe('is one of the most common passwords');
    expect(passwordProblem('1234567890', OWNER)).toBe('is one of the most common passwords');
  });

  it('checks a maintained list of more than 10,000 common passwords, lower-cased', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(10_000);
    for (const entry of COMMON_PASSWORDS) expect(entry).toBe(entry.toLowerCase());
    expect([...COMMON_PASSWORDS].filter((entry) => [...entry].length >= PASSWORD_MIN_LENGTH).length).toBeGreaterThan(
      1000,
    );
    expect(passwordProblem('Basketball', OWNER)).toBe('is one of the most common passwords');
    expect(passwordProblem('1qaz2wsx3edc', OWNER)).toBe('is one of the most common passwords');
  });

  it('refuses a common password with digits or symbols added to reach the length', () => {
    for (const padded of ['sunshine2024', 'Dragon123456', 'monkey1234!!', 'iloveyou 2026', 'princess!!!!']) {
      expect([padded, passwordProblem(padded, OWNER)]).toEqual([padded, 'is one of the most common passwords']);
    }
    // A rare word with digits, and digits alone that are no common password, pass.
    expect(passwordProblem('quokkaferry2024', OWNER)).toBeNull();
    expect(passwordProblem('8305271946', OWNER)).toBeNull();
  });
});
