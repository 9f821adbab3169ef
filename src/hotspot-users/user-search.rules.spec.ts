import { foldedText, prefixRange, searchKeysOf, searchPrefixes, successor } from './user-search.rules.js';

describe('user search rules', () => {
  it('folds case, accents, the dotless i and white space', () => {
    expect(foldedText('  İstanbul   ŞUBE ')).toBe('istanbul sube');
    expect(foldedText('Işıl Çağlar')).toBe('isil caglar');
    expect(foldedText('AYŞE@Example.COM')).toBe('ayse@example.com');
  });

  it('keeps keys for every field, expired or not, phone as digits', () => {
    expect(
      searchKeysOf({ name: 'Ayşe Yılmaz', username: 'Ayse.Y', email: null, phone: '+90 (532) 111-22-33' }),
    ).toEqual({ searchName: 'ayse yilmaz', searchUsername: 'ayse.y', searchEmail: null, searchPhone: '905321112233' });
  });

  it('cuts a key to its column length in code points', () => {
    expect([
      ...searchKeysOf({ name: '𝒜'.repeat(300), username: null, email: null, phone: null }).searchName!,
    ]).toHaveLength(255);
  });

  it('reads q as a text, phone and MAC prefix where it can be one', () => {
    expect(searchPrefixes('+90 532-1')).toEqual({ text: '+90 532-1', phone: '905321', mac: null });
    expect(searchPrefixes('aa:bb:c')).toEqual({ text: 'aa:bb:c', phone: null, mac: 'AA:BB:C' });
    expect(searchPrefixes('12')).toEqual({ text: '12', phone: '12', mac: '12' });
    expect(searchPrefixes('a')).toEqual({ text: 'a', phone: null, mac: null });
    expect(searchPrefixes('Şeker')).toEqual({ text: 'seker', phone: null, mac: null });
    expect(searchPrefixes('   ')).toEqual({ text: null, phone: null, mac: null });
  });

  it('gives the index range of a prefix, wildcards escaped', () => {
    expect(prefixRange('ab')).toEqual({ from: 'ab', to: 'ac', like: 'ab%' });
    expect(prefixRange('5%_!')).toEqual({ from: '5%_!', to: '5%_"', like: '5!%!_!!%' });
    expect(successor('a\u{d7ff}')).toBe('a\u{e000}');
    expect(successor('a\u{10ffff}')).toBe('b');
    expect(successor('\u{10ffff}')).toBeNull();
  });
});
