import { base32Decode, base32Encode, matchingTotpStep, otpauthUri, totpCode, totpStep } from './totp.js';

// RFC 6238, appendix B: the SHA-1 seed and its 8-digit codes.
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];
const stepStart = (step: number) => new Date(step * 30_000);

describe('TOTP', () => {
  it.each(RFC_VECTORS)('gives RFC 6238 test vector at %i s', (seconds, code) => {
    expect(totpCode(RFC_SEED, new Date(seconds * 1000), 8)).toBe(code);
  });

  it('RFC 4226 test vectors (6 digits), as time steps 0, 1, 2 and 9', () => {
    expect([0, 1, 2, 9].map((step) => totpCode(RFC_SEED, stepStart(step)))).toEqual([
      '755224',
      '287082',
      '359152',
      '520489',
    ]);
  });

  it('accepts the code of the step before, now and after, and says which step it was', () => {
    const at = new Date(1_700_000_000_000);
    const now = totpStep(at);
    for (const step of [now - 1, now, now + 1]) {
      expect(matchingTotpStep(RFC_SEED, totpCode(RFC_SEED, stepStart(step)), at)).toBe(step);
    }
    expect(matchingTotpStep(RFC_SEED, totpCode(RFC_SEED, stepStart(now - 2)), at)).toBeNull();
    expect(matchingTotpStep(RFC_SEED, totpCode(RFC_SEED, stepStart(now + 2)), at)).toBeNull();
  });

  it('refuses what is not six digits', () => {
    const at = new Date(1_700_000_000_000);
    const code = totpCode(RFC_SEED, at);
    for (const wrong of ['', `${code}0`, code.slice(1), ` ${code}`, 'abcdef']) {
      expect(matchingTotpStep(RFC_SEED, wrong, at)).toBeNull();
    }
  });

  it('base32 round-trips and matches RFC 4648', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode(base32Encode(RFC_SEED)).equals(RFC_SEED)).toBe(true);
  });

  it('builds the otpauth URI apps read', () => {
    expect(otpauthUri(Buffer.from('foobar'), 'Hotspot', 'a@b.example')).toBe(
      'otpauth://totp/Hotspot:a%40b.example?issuer=Hotspot&secret=MZXW6YTBOI&algorithm=SHA1&digits=6&period=30',
    );
  });
});
