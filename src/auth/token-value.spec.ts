import { createHash } from 'node:crypto';
import { bearerToken, generateTokenValue, hashTokenValue, TOKEN_PREFIX, visiblePrefix } from './token-value.js';

describe('generateTokenValue', () => {
  it('is the hsp_ prefix followed by 32 random bytes in base64url', () => {
    const value = generateTokenValue();
    expect(TOKEN_PREFIX).toBe('hsp_');
    expect(value).toMatch(/^hsp_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(value.slice(4), 'base64url')).toHaveLength(32);
  });

  it('never repeats', () => {
    const values = new Set(Array.from({ length: 200 }, () => generateTokenValue()));
    expect(values.size).toBe(200);
  });
});

describe('hashTokenValue', () => {
  it('is the hex SHA-256 of the UTF-8 value', () => {
    expect(hashTokenValue('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashTokenValue('hsp_ü')).toBe(createHash('sha256').update(Buffer.from('hsp_ü', 'utf8')).digest('hex'));
  });

  it('distinguishes values that differ in one character', () => {
    expect(hashTokenValue('hsp_a')).not.toBe(hashTokenValue('hsp_b'));
  });
});

describe('visiblePrefix', () => {
  it('keeps the hsp_ prefix and the first 6 characters of a generated token, nothing more', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const value = generateTokenValue();
      expect(visiblePrefix(value)).toBe(value.slice(0, 10));
      seen.add(visiblePrefix(value));
    }
    // Different tokens show differently (36 random bits each).
    expect(seen.size).toBe(200);
  });

  it('the public prefix stops at the first underscore, even when the random part holds more', () => {
    expect(visiblePrefix('hsp_ab_cd_0123456789abcdefghijklmnopqrstuvwxyz0')).toBe('hsp_ab_cd_');
  });

  it.each([
    ['acme_012345', 'acme_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['ci2_012345', 'ci2_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['abcdefg_012345', 'abcdefg_0123456789abcdefghijklmnopqrstuvwxyz'],
  ])('shows %j of a long value chosen by an operator', (shown, value) => {
    expect(visiblePrefix(value)).toBe(shown);
  });

  it('shows only the public prefix of a value whose secret part is shorter than 32 characters', () => {
    expect(visiblePrefix('acme_0123456789abcdefghijklmnopqrstu')).toBe('acme_');
    expect(visiblePrefix('acme_0123456789abcdefghijklmnopqrstuv')).toBe('acme_012345');
    expect(visiblePrefix('hsp_short')).toBe('hsp_');
  });

  it.each([
    ['no prefix at all', 'my-own-bootstrap-secret-0123456789-0123456789'],
    ['a prefix longer than 8 characters', 'abcdefgh_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['a one-character prefix', 'a_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['upper case', 'HSP_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['a leading digit', '1ab_0123456789abcdefghijklmnopqrstuvwxyz'],
    ['a dash instead of an underscore', 'hsp-0123456789abcdefghijklmnopqrstuvwxyz'],
    ['random base64url', 'Zq9_x-0123456789abcdefghijklmnopqrstuvwxyz'],
  ])('shows nothing of a value chosen by an operator with %s', (_, value) => {
    expect(visiblePrefix(value)).toBe('');
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.DEF_123-~+/=', 'abc.DEF_123-~+/='],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['BeArEr abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['Bearer\tabc', 'abc'],
    ['Bearer abc  ', 'abc'],
    [`Bearer ${'x'.repeat(512)}`, 'x'.repeat(512)],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([
    [undefined],
    [''],
    ['Bearer'],
    ['Bearer '],
    ['Bearerabc'],
    ['Basic dXNlcjpwYXNz'],
    ['Token abc'],
    [' Bearer abc'],
    ['Bearer abc def'],
    ['Bearer abc,def ghi'],
    ['Bearer tökén'],
    ['Bearer abc\ndef'],
    [`Bearer ${'x'.repeat(513)}`],
  ])('refuses %j', (header) => {
    expect(bearerToken(header)).toBeNull();
  });
});
