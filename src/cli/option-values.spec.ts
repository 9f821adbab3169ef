import { UsageError } from './command.js';
import { Command } from 'commander';
import {
  flagOption,
  futureDateTime,
  ipAddress,
  macAddress,
  permissionList,
  printable,
  text,
  venueId,
  venueIdList,
} from './option-values.js';

describe('option values', () => {
  it('permissionList returns the canonical order without repeats and refuses unknown names', () => {
    expect(permissionList('delete, read,read')).toEqual(['read', 'delete']);
    for (const bad of ['', ' ', 'admin', 'read,', 'READ', 'read;write'])
      expect(() => permissionList(bad)).toThrow(UsageError);
    expect(permissionList('radius')).toEqual(['radius']);
    for (const mixed of ['radius,read', 'write,radius', 'read,write,delete,radius']) {
      expect(() => permissionList(mixed)).toThrow(
        'must not combine them: radius cannot be combined with read, write or delete',
      );
    }
  });

  it('venueIdList trims, drops repeats and keeps the order; venueId checks one id', () => {
    expect(venueIdList('b, a,b')).toEqual(['b', 'a']);
    for (const bad of ['', 'a,,b', 'a b', 'café', 'v'.repeat(65)]) expect(() => venueIdList(bad)).toThrow(UsageError);
    expect(venueId('ist:lobby-1')).toBe('ist:lobby-1');
    expect(() => venueId('a,b')).toThrow(UsageError);
  });

  it('futureDateTime reads an ISO date-time with a zone that lies after now', () => {
    const read = futureDateTime(() => new Date('2030-01-01T00:00:00.000Z'));
    expect(read(' 2030-01-01T03:00:01+03:00 ')).toEqual(new Date('2030-01-01T00:00:01.000Z'));
    expect(() => read('2030-01-01T00:00:00Z')).toThrow('must lie in the future');
    for (const bad of ['2031-02-30T00:00:00Z', '2031-01-01', '2031-01-01T00:00:00', 'soon']) {
      expect(() => read(bad)).toThrow('ISO 8601');
    }
  });

  it('futureDateTime refuses an instant past 9999-12-31T23:59:59.999Z once in UTC', () => {
    const read = futureDateTime(() => new Date('2030-01-01T00:00:00.000Z'));
    expect(read('9999-12-31T23:59:59.999Z')).toEqual(new Date('9999-12-31T23:59:59.999Z'));
    expect(() => read('9999-12-31T23:00:00-05:00')).toThrow('must be no later than 9999-12-31T23:59:59.999Z');
  });

  it('macAddress returns the stored form', () => {
    expect(macAddress('aa-bb-cc-dd-ee-ff')).toBe('AA:BB:CC:DD:EE:FF');
    expect(() => macAddress('aa:bb:cc:dd:ee')).toThrow(UsageError);
  });

  it('ipAddress accepts IPv4 and IPv6 only', () => {
    expect(ipAddress('10.0.0.5')).toBe('10.0.0.5');
    expect(ipAddress('2001:db8::1')).toBe('2001:db8::1');
    for (const bad of ['10.0.0.256', 'host.example', '']) expect(() => ipAddress(bad)).toThrow(UsageError);
  });

  it('text trims and bounds the length in characters, refusing control characters', () => {
    const read = text(3);
    expect(read(' çağ ')).toBe('çağ');
    for (const bad of ['', '   ', 'abcd', 'a\tb', 'a\u007f']) expect(() => read(bad)).toThrow(UsageError);
  });

  it('printable masks control characters and shortens long input', () => {
    expect(printable('a\u001b[31m')).toBe('a?[31m');
    expect(printable('x'.repeat(50))).toBe(`${'x'.repeat(40)}…`);
  });

  it('flagOption is true when given, absent otherwise, and refused when given twice', () => {
    const parse = (...argv: string[]) =>
      new Command().addOption(flagOption('--json', 'JSON')).parse(argv, { from: 'user' }).opts();
    expect(parse('--json')).toEqual({ json: true });
    expect(parse()).toEqual({});
    expect(() => parse('--json', '--json')).toThrow(new UsageError("option '--json' may be given only once"));
  });
});
