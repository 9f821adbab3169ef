import { etagOf, ifMatchAllows, parseIfMatch } from './hotspot-user.etag.js';

describe('ETag and If-Match', () => {
  it('the ETag is a strong tag of the version', () => {
    expect(etagOf(1)).toBe('"v1"');
    expect(etagOf(42)).toBe('"v42"');
  });

  describe('parseIfMatch', () => {
    it('reads *, one tag, a list with weak tags and empty elements', () => {
      expect(parseIfMatch('*')).toBe('*');
      expect(parseIfMatch(' "v1" ')).toEqual([{ weak: false, tag: '"v1"' }]);
      expect(parseIfMatch('"v1", W/"v2",,"a,b"')).toEqual([
        { weak: false, tag: '"v1"' },
        { weak: true, tag: '"v2"' },
        { weak: false, tag: '"a,b"' },
      ]);
    });

    it('is null for anything else', () => {
      for (const value of ['', ' ', ',', 'v1', '"v1', '"v1" "v2"', '"v1" junk', '* , "v1"', 'w/"v1"', '"a"b"', '**']) {
        expect(parseIfMatch(value)).toBeNull();
      }
    });
  });

  describe('ifMatchAllows', () => {
    it('allows without a condition, with *, and with the current tag among others', () => {
      expect(ifMatchAllows(null, 3)).toBe(true);
      expect(ifMatchAllows('*', 3)).toBe(true);
      expect(ifMatchAllows(parseIfMatch('"v2", "v3"'), 3)).toBe(true);
    });

    it('refuses a stale tag and a weak one, even of the current version', () => {
      expect(ifMatchAllows(parseIfMatch('"v2"'), 3)).toBe(false);
      expect(ifMatchAllows(parseIfMatch('W/"v3"'), 3)).toBe(false);
      expect(ifMatchAllows(parseIfMatch('"3"'), 3)).toBe(false);
    });
  });
});
