import {
  foldedText,
  nameWordChanges,
  nameWordRowsOf,
  nameWordsOf,
  NAME_WORDS_MAX,
  prefixRange,
  SEARCHABLE_FIELDS,
  searchKeysOf,
  searchMatchOf,
  searchPrefixes,
  successor,
  type SearchedUser,
  walksNewestFirst,
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
      searchPhoneSuffix: '332211123509',
      searchRoom: 'suit a-12',
    });
  });

  it('cuts a key to its column length in code points', () => {
    expect([
      ...searchKeysOf({ name: '𝒜'.repeat(300), username: null, email: null, phone: null, room: null }).searchName!,
    ]).toHaveLength(255);
  });

  it('declares each key once, a field once per kind, its key, column and index named after them', () => {
    for (const name of ['key', 'column', 'index'] as const) {
      const values = SEARCHABLE_FIELDS.map((searchable) => searchable[name]);
      expect(new Set(values).size).toBe(values.length);
    }
    const fieldKinds = SEARCHABLE_FIELDS.map(({ field, kind }) => `${field} ${kind}`);
    expect(new Set(fieldKinds).size).toBe(fieldKinds.length);
    for (const { field, key, column, index, kind } of SEARCHABLE_FIELDS) {
      const suffix = kind.endsWith('Suffix') ? 'Suffix' : '';
      expect(key).toBe(`search${field.charAt(0).toUpperCase()}${field.slice(1)}${suffix}`);
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
      expect(keys[key]).toBe({ text: '+90 (532) si', phone: '90532', phoneSuffix: '23509' }[kind]);
      if (kind === 'text') expect(prefixes[kind]).toBe(keys[key]);
    }
    expect(searchPrefixes('+90 (532)').phone).toBe('90532');
    expect(searchPrefixes('+90 (532)').phoneSuffix).toBe('23509');
  });

  const none = { text: null, phone: null, phoneSuffix: null, word: null, mac: null, macSuffix: null };

  it('reads q as a text, phone and MAC prefix where it can be one, and as an end of a phone or MAC', () => {
    expect(searchPrefixes('+90 532-1')).toEqual({
      ...none,
      text: '+90 532-1',
      word: '+90 532-1',
      phone: '905321',
      phoneSuffix: '123509',
    });
    expect(searchPrefixes('aa:bb:c')).toEqual({
      ...none,
      text: 'aa:bb:c',
      word: 'aa:bb:c',
      mac: 'AA:BB:C',
      macSuffix: 'CB:BA:A',
    });
    expect(searchPrefixes('12')).toEqual({ ...none, text: '12', word: '12', phone: '12', mac: '12' });
    expect(searchPrefixes('a')).toEqual({ ...none, text: 'a', word: 'a' });
    expect(searchPrefixes('Şeker')).toEqual({ ...none, text: 'seker', word: 'seker' });
    expect(searchPrefixes('   ')).toEqual(none);
  });

  it("reads a phone's national form and last digits as the end of its digits, from 4 digits on", () => {
    // Dropping zeros only widens: what ends with 05321112233 ends with 5321112233.
    // 0532 111 22 33 is +90 532 111 22 33 without its country code: its trunk 0 is dropped.
    expect(searchPrefixes('0532 111 22 33').phoneSuffix).toBe('3322111235');
    expect(searchPrefixes('5321112233').phoneSuffix).toBe('3322111235');
    expect(searchPrefixes('2233').phoneSuffix).toBe('3322');
    expect(searchPrefixes('233').phoneSuffix).toBeNull();
    // Leading zeros are kept when fewer than 4 digits would remain: they are the last digits typed.
    expect(searchPrefixes('0007').phoneSuffix).toBe('7000');
    expect(searchPrefixes('00 233').phoneSuffix).toBe('33200');
  });

  it("reads a MAC's end from 4 hex digits on, backwards in the stored form's pairs", () => {
    expect(searchPrefixes('4e:5f').macSuffix).toBe('F5:E4');
    expect(searchPrefixes('e5f').macSuffix).toBeNull();
    expect(searchPrefixes('0a1b2c3d4e5f').macSuffix).toBe('F5:E4:D3:C2:B1:A0');
  });

  it('keys the words of a name after the first: the name from each word on, folded', () => {
    expect(nameWordsOf('Ayşe Nur Yılmaz-Demir')).toEqual(['nur yilmaz-demir', 'yilmaz-demir', 'demir']);
    expect(nameWordsOf('Ali')).toEqual([]);
    expect(nameWordsOf('Ali Ali')).toEqual(['ali']);
    expect(nameWordsOf("(VIP) O'Brien")).toEqual(["vip) o'brien", "o'brien", 'brien']);
    expect(nameWordsOf(`A ${'b'.repeat(100)}`)).toEqual(['b'.repeat(64)]);
    expect(nameWordsOf(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(NAME_WORDS_MAX);
  });

  it('gives a row per venue and word, with the status and creation time', () => {
    const createdAt = new Date('2026-01-01T00:00:00.000Z');
    expect(nameWordRowsOf({ id: 'u1', name: 'Ayşe Yılmaz', status: 'blocked', createdAt }, ['a', 'b'])).toEqual([
      {
        userId: 'u1',
        venueId: 'a',
        word: 'yilmaz',
        userStatus: 'blocked',
        userCreatedAt: createdAt,
        sharesInitial: false,
      },
      {
        userId: 'u1',
        venueId: 'b',
        word: 'yilmaz',
        userStatus: 'blocked',
        userCreatedAt: createdAt,
        sharesInitial: false,
      },
    ]);
  });

  it("marks the words that start like another of the name's words (only those can both match one prefix)", () => {
    const createdAt = new Date('2026-01-01T00:00:00.000Z');
    const shared = (name: string) =>
      nameWordRowsOf({ id: 'u1', name, status: 'active', createdAt }, ['a']).map(({ word, sharesInitial }) => [
        word,
        sharesInitial,
      ]);
    expect(shared('Ali Aydın Yılmaz Aksoy')).toEqual([
      ['aydin yilmaz aksoy', true],
      ['yilmaz aksoy', false],
      ['aksoy', true],
    ]);
    // The first word has no row of its own: it shares with none.
    expect(shared('Ayşe Nur Yılmaz')).toEqual([
      ['nur yilmaz', false],
      ['yilmaz', false],
    ]);
    // Accents folded first, and a character outside the BMP is one initial.
    expect(shared('X Öz Oz')).toEqual([
      ['oz oz', true],
      ['oz', true],
    ]);
    expect(shared('X 𝐀b 𝐀c')).toEqual([
      ['𝐀b 𝐀c', true],
      ['𝐀c', true],
    ]);
  });

  it('walks the venue newest first only for a word common enough that it reads fewer rows than a sort', () => {
    const first = { offset: 0, limit: 20 };
    // One guest in 20 of a 100,000-user venue: the walk reads about 400 users for page 1.
    expect(walksNewestFirst(5000, 100_000, first)).toBe(true);
    // One in 90: the walk would read about 1,800, more than half the matches' 1,111.
    expect(walksNewestFirst(1111, 100_000, first)).toBe(false);
    expect(walksNewestFirst(1, 100_000, first)).toBe(false);
    expect(walksNewestFirst(0, 0, first)).toBe(false);
    // Deep pages walk further: page 50 of the common word sorts instead.
    expect(walksNewestFirst(5000, 100_000, { offset: 980, limit: 20 })).toBe(false);
    expect(walksNewestFirst(10, 10, first)).toBe(false);
    expect(walksNewestFirst(40, 40, first)).toBe(true);
  });

  it('changes only the name word rows that differ', () => {
    const createdAt = new Date('2026-01-01T00:00:00.000Z');
    const user = { id: 'u1', name: 'Ayşe Nur Yılmaz', status: 'active' as const, createdAt };
    const before = nameWordRowsOf(user, ['a']);
    expect(nameWordChanges(before, nameWordRowsOf(user, ['a']))).toEqual({ removed: [], added: [] });
    // The first word has no row: changing it changes none.
    expect(nameWordChanges(before, nameWordRowsOf({ ...user, name: 'Elif Nur Yılmaz' }, ['a']))).toEqual({
      removed: [],
      added: [],
    });
    const renamed = nameWordRowsOf({ ...user, name: 'Ayşe Demir Yılmaz' }, ['a']);
    expect(nameWordChanges(before, renamed)).toEqual({
      removed: before.filter(({ word }) => word === 'nur yilmaz'),
      added: renamed.filter(({ word }) => word === 'demir yilmaz'),
    });
    const blocked = nameWordRowsOf({ ...user, status: 'blocked' }, ['a', 'b']);
    expect(nameWordChanges(before, blocked)).toEqual({ removed: before, added: blocked });
    expect(nameWordChanges([], before)).toEqual({ removed: [], added: before });
  });

  describe('tells why a user was found', () => {
    const ayse: SearchedUser = {
      name: 'Ayşe Yılmaz',
      username: 'ayse1',
      email: 'a@example.com',
      phone: '+905321112233',
      room: '1204',
      macAddress: '0A:1B:2C:3D:4E:5F',
      deviceMacs: ['02:00:00:00:12:34'],
    };
    it.each([
      ['yilmaz', { field: 'name', value: 'Ayşe Yılmaz' }],
      ['AYŞE', { field: 'name', value: 'Ayşe Yılmaz' }],
      ['ayse1', { field: 'username', value: 'ayse1' }],
      ['a@ex', { field: 'email', value: 'a@example.com' }],
      ['+90 532', { field: 'phone', value: '+905321112233' }],
      ['0532 111 22 33', { field: 'phone', value: '+905321112233' }],
      ['2233', { field: 'phone', value: '+905321112233' }],
      ['1204', { field: 'room', value: '1204' }],
      ['0a1b', { field: 'mac', value: '0A:1B:2C:3D:4E:5F' }],
      ['4e5f', { field: 'mac', value: '0A:1B:2C:3D:4E:5F' }],
      ['12:34', { field: 'mac', value: '02:00:00:00:12:34' }],
    ])('%s', (q, match) => {
      expect(searchMatchOf(searchPrefixes(q), ayse)).toEqual(match);
    });
    it('none when nothing matches', () => {
      expect(searchMatchOf(searchPrefixes('zeynep'), ayse)).toBeNull();
    });
  });

  it('reads no phone prefix longer than the longest phone key', () => {
    const longest = Math.max(...SEARCHABLE_FIELDS.filter(({ kind }) => kind === 'phone').map(({ length }) => length));
    expect(searchPrefixes('1'.repeat(longest)).phone).toBe('1'.repeat(longest));
    expect(searchPrefixes('1'.repeat(longest + 1)).phone).toBeNull();
  });

  it('gives the index range of a prefix, with a LIKE only where a padding collation could widen it', () => {
    expect(prefixRange('ab')).toEqual({ from: 'ab', to: 'ac', like: null });
    expect(prefixRange('5%_!')).toEqual({ from: '5%_!', to: '5%_"', like: null });
    expect(prefixRange('ab ')).toEqual({ from: 'ab ', to: 'ab!', like: 'ab %' });
    expect(prefixRange('guest 12')).toEqual({ from: 'guest 12', to: 'guest 13', like: null });
    expect(prefixRange('a\tb_')).toEqual({ from: 'a\tb_', to: 'a\tb`', like: 'a\tb!_%' });
    expect(prefixRange('\u{10ffff}%')).toEqual({ from: '\u{10ffff}%', to: '\u{10ffff}&', like: null });
    expect(prefixRange('\u{10ffff}')).toEqual({ from: '\u{10ffff}', to: null, like: '\u{10ffff}%' });
    expect(successor('a\u{d7ff}')).toBe('a\u{e000}');
    expect(successor('a\u{10ffff}')).toBe('b');
    expect(successor('\u{10ffff}')).toBeNull();
  });
});
