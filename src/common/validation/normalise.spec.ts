import { parseIsoDateTimeWithZone } from './iso-date-time.js';
import { normaliseMac, phoneKey, uniqueVenueIds } from './normalise.js';
import { metadataProblem } from './validators.js';

describe('normaliseMac', () => {
  it.each(['AA:BB:CC:DD:EE:FF', 'aa-bb-cc-dd-ee-ff', 'aabb.ccdd.eeff', 'AABBCCDDEEFF', 'aA:bB:cC:dD:eE:fF'])(
    'accepts %s',
    (input) => expect(normaliseMac(input)).toBe('AA:BB:CC:DD:EE:FF'),
  );

  it.each(['aa:bb-cc:dd:ee:ff', 'aabb.ccdd-eeff', 'aa:bb:cc:dd:ee', 'gg:bb:cc:dd:ee:ff', 'aabbccddeeff00', ''])(
    'refuses %s',
    (input) => expect(normaliseMac(input)).toBeNull(),
  );
});

describe('phoneKey', () => {
  it('compares digits and a leading +', () => {
    expect(phoneKey('+90 (532) 123-45-67')).toBe('+905321234567');
    expect(phoneKey('0532 123 45 67')).toBe('05321234567');
  });
});

describe('uniqueVenueIds', () => {
  it('drops repeats and keeps the first order', () => {
    expect(uniqueVenueIds(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
  });
});

describe('metadataProblem', () => {
  const nested = (levels: number): Record<string, unknown> => {
    let value: Record<string, unknown> = {};
    for (let i = 1; i < levels; i++) value = { child: value };
    return value;
  };

  it('accepts 8 levels and refuses 9', () => {
    expect(metadataProblem(nested(8))).toBeNull();
    expect(metadataProblem(nested(9))).toBe('must not nest deeper than 8 levels');
  });

  it('refuses non-objects, forbidden keys and more than 16 KiB', () => {
    expect(metadataProblem([])).toBe('must be a JSON object');
    expect(metadataProblem(null)).toBe('must be a JSON object');
    expect(metadataProblem(JSON.parse('{"a":{"__proto__":{}}}'))).toBe('must not use the key __proto__');
    expect(metadataProblem({ prototype: 1 })).toBe('must not use the key prototype');
    expect(metadataProblem({ text: 'x'.repeat(16 * 1024) })).toBe('must be at most 16384 bytes as JSON');
  });
});

describe('parseIsoDateTimeWithZone', () => {
  it.each([
    ['2030-01-31T12:00:00Z', '2030-01-31T12:00:00.000Z'],
    ['2030-01-31T12:00Z', '2030-01-31T12:00:00.000Z'],
    ['2030-01-31T15:00:00.5+03:00', '2030-01-31T12:00:00.500Z'],
    ['2030-01-31T07:30:00-0430', '2030-01-31T12:00:00.000Z'],
  ])('reads %s', (input, expected) => expect(parseIsoDateTimeWithZone(input)?.toISOString()).toBe(expected));

  it.each([
    '2030-02-30T00:00:00Z',
    '2030-06-30T24:00:00Z',
    '2030-01-31T12:00:00',
    '2030-01-31',
    '2030-01-31T12:00:00+25:00',
    'soon',
  ])('refuses %s', (input) => expect(parseIsoDateTimeWithZone(input)).toBeNull());
});
