import {
  parsePortalWays,
  passFrom,
  passHash,
  PASS_LENGTH,
  portalChangeProblems,
  portalExpiry,
  portalUsername,
  splitVoucherCode,
  termsVersionOf,
  waysProblem,
} from './guest-access.rules.js';

describe('parsePortalWays', () => {
  it.each([
    ['voucher,sms', ['voucher', 'sms']],
    [' Terms , voucher,terms ', ['terms', 'voucher']],
    ['', []],
    ['voucher,pigeon', null],
  ])('%j → %j', (text, ways) => expect(parsePortalWays(text)).toEqual(ways));
});

describe('termsVersionOf', () => {
  it('is null without terms, the same for the same text, and new for a changed one', () => {
    expect(termsVersionOf(null)).toBeNull();
    expect(termsVersionOf('  ')).toBeNull();
    const version = termsVersionOf('Be kind.\r\nNo sharing.');
    expect(version).toMatch(/^t-[0-9a-f]{16}$/);
    expect(termsVersionOf('Be kind.\nNo sharing.\n')).toBe(version);
    expect(termsVersionOf('Be kind.\nNo sharing at all.')).not.toBe(version);
  });
});

describe('portalChangeProblems', () => {
  it('accepts good settings and clears', () => {
    expect(
      portalChangeProblems({
        displayName: 'Lobby',
        logoUrl: 'https://cdn.example/logo.png',
        colourAccent: '#AA00ff',
        colourBackground: null,
        validitySeconds: 3600,
        faskey: 'a-long-faskey-1234',
      }),
    ).toEqual([]);
  });

  it('names each refused field', () => {
    expect(
      portalChangeProblems({
        displayName: ' ',
        logoUrl: 'http://cdn.example/logo.png',
        colourText: 'red',
        validitySeconds: 30,
        faskey: 'short',
        termsText: 'x'.repeat(20_001),
      }).map((problem) => problem.field),
    ).toEqual(['displayName', 'logoUrl', 'colourText', 'termsText', 'validitySeconds', 'faskey']);
  });

  it('the terms way needs terms', () => {
    expect(waysProblem(['terms'], null)?.field).toBe('ways');
    expect(waysProblem(['terms'], 'Be kind.')).toBeNull();
    expect(waysProblem(['voucher'], null)).toBeNull();
  });
});

describe('portalUsername', () => {
  it('is the phone, a digest of the social subject, or the MAC digits; a suffix when taken', () => {
    expect(portalUsername({ kind: 'phone', issuer: '', subject: '+905551234567' })).toBe('+905551234567');
    const social = portalUsername({ kind: 'social', issuer: 'https://idp.example', subject: '42' });
    expect(social).toMatch(/^social-[0-9a-f]{12}$/);
    expect(portalUsername({ kind: 'social', issuer: 'https://other.example', subject: '42' })).not.toBe(social);
    expect(portalUsername({ kind: 'device', issuer: '', subject: '02:00:00:00:00:0A' })).toBe('guest-02000000000a');
    expect(portalUsername({ kind: 'device', issuer: '', subject: '02:00:00:00:00:0A' }, 'x1y2z3')).toBe(
      'guest-02000000000a-x1y2z3',
    );
  });
});

describe('splitVoucherCode', () => {
  it.each([
    ['guest-abc123-Kx7mPq2rTz', { username: 'guest-abc123', password: 'Kx7mPq2rTz' }],
    ['  abc123 Kx7mPq2rTz ', { username: 'abc123', password: 'Kx7mPq2rTz' }],
    ['abc123', null],
    ['-Kx7', null],
    ['abc-', null],
  ])('%j → %j', (code, split) => expect(splitVoucherCode(code)).toEqual(split));
});

describe('passes', () => {
  it('are PASS_LENGTH letters and digits without look-alikes, kept as SHA-256', () => {
    const pass = passFrom(new Uint8Array(64).map((_, index) => index * 3));
    expect(pass).toHaveLength(PASS_LENGTH);
    expect(pass).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/);
    expect(passHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuse too few random bytes', () => {
    expect(() => passFrom(new Uint8Array(10))).toThrow('not enough random bytes');
  });

  it('a portal user expires its validity after the sign-in', () => {
    expect(portalExpiry(new Date('2026-01-01T00:00:00Z'), 3600)).toEqual(new Date('2026-01-01T01:00:00Z'));
  });
});
