import {
  foldedText,
  prefixRange,
  SEARCHABLE_FIELDS,
  searchKeysOf,
  searchPrefixes,
  successor,
} from './user-search.rules.js';

/** A user with every searchable field set to `value` (null: unset, where the field may be). */
const userWith = (value: string | null) =>
  Object.fromEntries(SEARCHABLE_FIELDS.map(({ field }) => [field, value])) as Parameters<typeof searchKeysOf>[0];

describe('user search rules', () => {
  it('folds case, accents, the dotless i and white space', () => {
    expect(foldedText('  İstanbul   ŞUBE ')).toBe('istanbul sube');
    expect(foldedText('Işıl Çağlar')).toBe('isil caglar');
    expect(foldedText('AYŞE@Example.COM')).toBe('ayse@example.com');
  });

  it('keeps keys for every field, expired or not, phone as digits', () => {
    expect(
      searchKeysOf({
        name: 'Ayşe Yılmaz',
        username: 'Ayse.Y',
        email: null,
        phone: '+90 (532) 111-22-33',
        room: ' Süit  A-12 ',
      }),
    ).toEqual({
      searchName: 'ayse yilmaz',
      searchUsername: 'ayse.y',
      searchEmail: null,
      searchPhone: '905321112233',
      searchRoom: 'suit a-12',
    });
  });

  it('cuts a key to its column length in code points', () => {
    expect([
      ...searchKeysOf({ name: '𝒜'.repeat(300), username: null, email: null, phone: null, room: null }).searchName!,
    ]).toHaveLength(255);
  });

  it('declares each searchable field once, its key, column and index named after it', () => {
    for (const name of ['field', 'key', 'column', 'index'] as const) {
      const values = SEARCHABLE_FIELDS.map((searchable) => searchable[name]);
      expect(new Set(values).size).toBe(values.length);
    }
    for (const { field, key, column, index } of SEARCHABLE_FIELDS) {
      expect(key).toBe(`search${field.charAt(0).toUpperCase()}${field.slice(1)}`);
      expect(column).toBe(key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));
      expect(index).toBe(`idx_user_venues_${column}`);
    }
  });

  it('keeps one key per searchable field, null for an unset field, each cut to its own length', () => {
    expect(Object.keys(searchKeysOf(userWith('1'.repeat(300))))).toEqual(SEARCHABLE_FIELDS.map(({ key }) => key));
    const keys: Record<string, string | null> = searchKeysOf(userWith('1'.repeat(300)));
    for (const { key, length } of SEARCHABLE_FIELDS) expect(keys[key]).toBe('1'.repeat(length));
    const unset: Record<string, string | null> = searchKeysOf(userWith(null));
    for (const { key } of SEARCHABLE_FIELDS) expect(unset[key]).toBeNull();
  });

  it('folds each key by its kind, as q is folded for that kind', () => {
    const keys: Record<string, string | null> = searchKeysOf(userWith(' +90 (532) Şİ '));
    const prefixes = searchPrefixes(' +90 (532) Şİ ');
    for (const { key, kind } of SEARCHABLE_FIELDS) {
      expect(keys[key]).toBe({ text: '+90 (532) si', phone: '90532' }[kind]);
      if (kind === 'text') expect(prefixes[kind]).toBe(keys[key]);
    }
    expect(searchPrefixes('+90 (532)').phone).toBe('90532');
  });

  it('reads q as a text, phone and MAC prefix where it can be one', () => {
    expect(searchPrefixes('+90 532-1')).toEqual({ text: '+90 532-1', phone: '905321', mac: null });
    expect(searchPrefixes('aa:bb:c')).toEqual({ text: 'aa:bb:c', phone: null, mac: 'AA:BB:C' });
    expect(searchPrefixes('12')).toEqual({ text: '12', phone: '12', mac: '12' });
    expect(searchPrefixes('a')).toEqual({ text: 'a', phone: null, mac: null });
    expect(searchPrefixes('Şeker')).toEqual({ text: 'seker', phone: null, mac: null });
    expect(searchPrefixes('   ')).toEqual({ text: null, phone: null, mac: null });
  });

  it('reads no phone prefix longer than the longest phone key', () => {
    const longest = Math.max(...SEARCHABLE_FIELDS.filter(({ kind }) => kind === 'phone').map(({ length }) => length));
    expect(searchPrefixes('1'.repeat(longest)).phone).toBe('1'.repeat(longest));
    expect(searchPrefixes('1'.repeat(longest + 1)).phone).toBeNull();
  });

  it('gives the index range of a prefix, wildcards escaped', () => {
    expect(prefixRange('ab')).toEqual({ from: 'ab', to: 'ac', like: 'ab%' });
    expect(prefixRange('5%_!')).toEqual({ from: '5%_!', to: '5%_"', like: '5!%!_!!%' });
    expect(successor('a\u{d7ff}')).toBe('a\u{e000}');
    expect(successor('a\u{10ffff}')).toBe('b');
    expect(successor('\u{10ffff}')).toBeNull();
  });
});
