import { validateSync } from 'class-validator';
import { emailKey } from './normalise.js';
import {
  characterCount,
  HasCharacters,
  hasBidiControls,
  IsEmailAddress,
  IsIntegerString,
  IsIsoDateTimeWithZone,
  IsPhone,
  IsSafeText,
  IsVenueIdList,
  isSafeText,
  metadataProblem,
} from './validators.js';

/** The messages class-validator reports for `value` on a one-field class carrying `decorator`. */
function messagesFor(decorator: PropertyDecorator, value: unknown): string[] {
  class Probe {
    field: unknown;
  }
  decorator(Probe.prototype, 'field');
  const probe = new Probe();
  probe.field = value;
  return validateSync(probe).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('isSafeText', () => {
  it.each([
    ['plain text', 'Ayşe Yılmaz'],
    ['an astral character (a surrogate pair)', 'a\u{1F600}b'],
    ['a C1 control and U+FFFF', '\u0085\u00a0\uffff'],
    ['combining marks (NFD)', 'Jose\u0301'],
    ['empty', ''],
  ])('accepts %s', (_case, value) => expect(isSafeText(value)).toBe(true));

  it.each([
    ['NUL', 'a\u0000'],
    ['a tab', 'a\tb'],
    ['U+001F', '\u001f'],
    ['DEL', 'a\u007f'],
    ['a lone high surrogate at the end', 'a\uD83D'],
    ['a lone high surrogate before a letter', '\uD83Da'],
    ['a lone low surrogate at the start', '\uDE00a'],
    ['a low surrogate before a high one', '\uDE00\uD83D'],
    ['two high surrogates', '\uD83D\uD83D\uDE00'],
  ])('refuses %s', (_case, value) => expect(isSafeText(value)).toBe(false));
});

describe('characterCount', () => {
  it('counts code points, as MySQL counts a column', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('\u{1F600}\u{1F600}')).toBe(2);
    expect(characterCount('\u2764\uFE0F')).toBe(2);
    expect(characterCount('İ'.toLowerCase())).toBe(2);
  });
});

describe('IsSafeText', () => {
  it('names the field and the rule; leaves non-strings to the type check', () => {
    expect(messagesFor(IsSafeText(), 'a\u0000')).toEqual([
      'field must not contain control characters or lone surrogates',
    ]);
    expect(messagesFor(IsSafeText(), 'fine')).toEqual([]);
    expect(messagesFor(IsSafeText(), 42)).toEqual([]);
  });
});

describe('HasCharacters', () => {
  it('counts code points, variation selectors included', () => {
    expect(messagesFor(HasCharacters(1, 3), '\u{1F600}\u{1F600}\u{1F600}')).toEqual([]);
    expect(messagesFor(HasCharacters(1, 3), '\u2764\uFE0F\u2764\uFE0F')).toEqual(['field must be 1-3 characters']);
    expect(messagesFor(HasCharacters(1, 3), '')).toEqual(['field must be 1-3 characters']);
  });

  it('checks the normalised key as well', () => {
    const key = { of: emailKey, described: 'lower-cased' };
    expect(messagesFor(HasCharacters(0, 4, key), 'abİ')).toEqual([]);
    expect(messagesFor(HasCharacters(0, 4, key), 'abcİ')).toEqual([
      'field must be at most 4 characters, also once lower-cased',
    ]);
  });
});

describe('IsEmailAddress', () => {
  it('refuses lone surrogates without throwing, and control characters in a quoted local part', () => {
    expect(messagesFor(IsEmailAddress(), 'user@exam\uD800ple.com')).toEqual(['field must be a valid email address']);
    expect(messagesFor(IsEmailAddress(), '\uDC00@example.com')).toEqual(['field must be a valid email address']);
    expect(messagesFor(IsEmailAddress(), '"a\u0001b"@example.com')).toEqual(['field must be a valid email address']);
  });

  it('accepts ordinary, quoted and non-ASCII addresses', () => {
    for (const email of ['ayse@example.com', '"a b"@example.com', 'İnci@örnek.com.tr', 'x@\u{1F600}.example.com']) {
      expect(messagesFor(IsEmailAddress(), email)).toEqual([]);
    }
  });
});

describe('IsPhone', () => {
  it('refuses more than 32 characters even with 7-15 digits', () => {
    const phone = `+90${' '.repeat(16)}532 123 45 67`;
    expect(phone).toHaveLength(32);
    expect(messagesFor(IsPhone(), phone)).toEqual([]);
    expect(messagesFor(IsPhone(), `${phone} `)).toEqual([
      'field must be 7-15 digits, optionally with a leading +, spaces, -, ( and ), at most 32 characters in all',
    ]);
  });
});

describe('IsIsoDateTimeWithZone', () => {
  it.each(['9999-12-31T23:59:59.999Z', '9999-12-31T18:59:59.999-05:00', '9999-12-31T23:59Z'])('accepts %s', (value) =>
    expect(messagesFor(IsIsoDateTimeWithZone(), value)).toEqual([]),
  );

  it.each(['9999-12-31T23:00:00-05:00', '9999-12-31T23:59:59.999-00:01'])(
    'refuses %s, past year 9999 in UTC',
    (value) =>
      expect(messagesFor(IsIsoDateTimeWithZone(), value)).toEqual([
        'field must be no later than 9999-12-31T23:59:59.999Z',
      ]),
  );

  it('names the format first', () => {
    expect(messagesFor(IsIsoDateTimeWithZone(), '10000-01-01T00:00:00Z')).toEqual([
      'field must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T12:00:00Z',
    ]);
  });
});

describe('IsVenueIdList', () => {
  it('names the element and the safe-text rule for a control character or lone surrogate', () => {
    expect(messagesFor(IsVenueIdList(), ['ok', 'v\u0000'])).toEqual([
      'field.1 must not contain control characters or lone surrogates',
    ]);
    expect(messagesFor(IsVenueIdList(), ['\uD800'])).toEqual([
      'field.0 must not contain control characters or lone surrogates',
    ]);
    expect(messagesFor(IsVenueIdList(), ['a b'])).toEqual(['field.0 must be 1-64 characters of A-Za-z0-9_.:-']);
  });
});

describe('IsIntegerString', () => {
  it('reads plain decimal digits, leading zeros however many', () => {
    for (const accepted of ['1', '01', '100', '0000000001', `${'0'.repeat(200)}42`]) {
      expect(messagesFor(IsIntegerString(1, 100), accepted)).toEqual([]);
    }
  });

  it('refuses anything else, and values out of bounds', () => {
    for (const refused of ['0', '101', '1000000000', '1e1', '1.5', '', '-1', '+1', ' 1', '0x1', '١']) {
      expect(messagesFor(IsIntegerString(1, 100), refused)).toEqual(['field must be an integer from 1 to 100']);
    }
    expect(messagesFor(IsIntegerString(1, 100), 5)).toEqual(['field must be an integer from 1 to 100']);
  });
});

describe('metadataProblem: numbers', () => {
  it('refuses numbers JSON.parse read as Infinity, anywhere', () => {
    expect(metadataProblem(JSON.parse('{"a":1e400}'))).toBe('must not hold numbers beyond ±1.7976931348623157e308');
    expect(metadataProblem(JSON.parse('{"a":[{"b":-1e400}]}'))).toBe(
      'must not hold numbers beyond ±1.7976931348623157e308',
    );
    expect(metadataProblem({ a: Number.MAX_VALUE, b: -Number.MAX_VALUE, c: 5e-324 })).toBeNull();
  });

  it('refuses integers JSON.parse cannot hold exactly, up to 64 bits, anywhere', () => {
    const refusal = 'must not hold integers beyond ±9007199254740991 (send them as strings)';
    expect(metadataProblem(JSON.parse('{"id":9007199254740993}'))).toBe(refusal);
    expect(metadataProblem(JSON.parse('{"a":{"b":[-18446744073709551615]}}'))).toBe(refusal);
    expect(metadataProblem({ a: Number.MAX_SAFE_INTEGER, b: -Number.MAX_SAFE_INTEGER, c: 2 ** 65, d: 0.5 })).toBeNull();
  });
});

describe('hasBidiControls', () => {
  it('finds the embedding, override and isolate controls, and nothing else', () => {
    for (const control of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(hasBidiControls(`Guest ${control}gnp.exe`)).toBe(true);
    }
    for (const text of ['Ayşe Yılmaz', 'مرحبا Ali', 'שלום', '\u200B zero width', '\u200E mark']) {
      expect(hasBidiControls(text)).toBe(false);
    }
  });
});
