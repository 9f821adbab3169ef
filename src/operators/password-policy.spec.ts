import { COMMON_PASSWORDS } from './common-passwords.js';
import { checkablePassword, passwordLength, passwordProblem, PASSWORD_MIN_LENGTH } from './password-policy.js';

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

  it('refuses one character repeated', () => {
    expect(passwordProblem('aaaaaaaaaa', OWNER)).toBe('must not be one character repeated');
    expect(passwordProblem('🔑'.repeat(12), OWNER)).toBe('must not be one character repeated');
    expect(passwordProblem('aaaaaaaaab', OWNER)).toBeNull();
  });

  it('refuses the most common passwords, in any case', () => {
    expect(passwordProblem('Password123', OWNER)).toBe('is one of the most common passwords');
    expect(passwordProblem('1234567890', OWNER)).toBe('is one of the most common passwords');
  });

  it('ships at least 1,000 common passwords, each lower-cased and long enough to be chosen otherwise', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(1000);
    for (const entry of COMMON_PASSWORDS) {
      expect(entry).toBe(entry.toLowerCase());
      expect([...entry].length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
    }
    expect(passwordProblem('Basketball', OWNER)).toBe('is one of the most common passwords');
    expect(passwordProblem('1qaz2wsx3edc', OWNER)).toBe('is one of the most common passwords');
  });
});
