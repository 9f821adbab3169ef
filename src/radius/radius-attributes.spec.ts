import { octets, RadiusAttributes, repairUtf8 } from './radius-attributes.js';
import { ACCT_STATUS_TYPES } from './radius.rules.js';

const parsed = (body: unknown) => {
  const result = RadiusAttributes.parse(body);
  if (Array.isArray(result)) throw new Error(JSON.stringify(result));
  return result;
};

describe('repairUtf8', () => {
  it('reads back UTF-8 that arrived one code point per byte', () => {
    expect(repairUtf8('josÃ©')).toBe('josé');
    expect(repairUtf8(Buffer.from('şifre', 'utf8').toString('latin1'))).toBe('şifre');
  });

  it('keeps ASCII, text with code points above 0xFF, and bytes that are no UTF-8', () => {
    expect(repairUtf8('alice')).toBe('alice');
    expect(repairUtf8('şifre')).toBe('şifre');
    expect(repairUtf8('caf\u00e9')).toBe('caf\u00e9');
  });
});

describe('RadiusAttributes', () => {
  it('reads strings, integers, enumerated names or numbers and octets', () => {
    const attributes = parsed({
      'User-Name': { type: 'string', value: ['josÃ©'] },
      'Acct-Session-Time': { type: 'integer', value: [42] },
      'Acct-Input-Octets': { type: 'integer', value: ['17'] },
      'Acct-Status-Type': { type: 'integer', value: ['Interim-Update'] },
      Class: { type: 'octets', value: ['0x6869', '0x00'] },
    });
    expect(attributes.string('User-Name')).toBe('josé');
    expect(attributes.integer('Acct-Session-Time')).toBe(42);
    expect(attributes.integer('Acct-Input-Octets')).toBe(17);
    expect(attributes.enumerated('Acct-Status-Type', ACCT_STATUS_TYPES)).toBe('Interim-Update');
    expect(parsed({ 'Acct-Status-Type': { value: [2] } }).enumerated('Acct-Status-Type', ACCT_STATUS_TYPES)).toBe(
      'Stop',
    );
    expect(attributes.strings('Class')).toEqual(['0x6869', '0x00']);
    expect(octets('0x6869')?.toString()).toBe('hi');
    expect(octets('0x6')).toBeNull();
  });

  it('gives null for absent attributes and values of another type', () => {
    const attributes = parsed({ 'User-Name': { value: [7] }, 'Acct-Session-Time': { value: ['-1'] } });
    expect(attributes.string('User-Name')).toBeNull();
    expect(attributes.integer('Acct-Session-Time')).toBeNull();
    expect(attributes.string('Nope')).toBeNull();
    expect(
      parsed({ 'Acct-Status-Type': { value: ['Reboot'] } }).enumerated('Acct-Status-Type', ACCT_STATUS_TYPES),
    ).toBeNull();
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a bare value', { 'User-Name': 'alice' }],
    ['an empty value list', { 'User-Name': { value: [] } }],
    ['an object value', { 'User-Name': { value: [{}] } }],
    ['a value too long for RADIUS', { 'User-Name': { value: ['x'.repeat(509)] } }],
    ['too many values', { Class: { value: Array.from({ length: 65 }, () => '0x00') } }],
    ['too many attributes', Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`A-${i}`, { value: [1] }]))],
  ])('refuses %s with field errors', (_title, body) => {
    const result = RadiusAttributes.parse(body);
    expect(Array.isArray(result)).toBe(true);
    expect((result as unknown[]).length).toBeGreaterThan(0);
  });
});
