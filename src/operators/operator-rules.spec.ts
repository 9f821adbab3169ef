import { OperatorEntity } from './entities/operator.entity.js';
import {
  oneTimePassword,
  oneTimePasswordExpired,
  operatorEmail,
  operatorEmailKey,
  operatorName,
  operatorPermissions,
  operatorVenueIds,
  toOperatorView,
} from './operator-rules.js';
import { passwordProblem } from './password-policy.js';

describe('operator rules', () => {
  describe('operatorEmail', () => {
    it.each([
      ['  Ayse.Yilmaz@Example.com ', 'Ayse.Yilmaz@Example.com'],
      ['admin@localhost', 'admin@localhost'],
      ['ops+wifi@sub.example.org', 'ops+wifi@sub.example.org'],
    ])('keeps %j as %j', (raw, stored) => {
      expect(operatorEmail(raw)).toEqual({ value: stored });
    });

    it.each(['', '   ', 'no-at-sign', 'two@@example.com', '@example.com', 'name@', 'a b@example.com', 'x@1.2.3.4'])(
      'refuses %j as no email address',
      (raw) => {
        expect(operatorEmail(raw)).toHaveProperty('error');
      },
    );

    it('refuses control characters and lone surrogates', () => {
      expect(operatorEmail('a\u0000b@example.com')).toHaveProperty('error');
      expect(operatorEmail('a\ud800b@example.com')).toHaveProperty('error');
    });

    it('takes 254 characters at most', () => {
      const address = (last: number) => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(last)}`;
      expect(address(61)).toHaveLength(254);
      expect(operatorEmail(address(61))).toEqual({ value: address(61) });
      expect(operatorEmail(address(62))).toEqual({ error: 'must be 1-254 characters' });
    });

    it('compares addresses lower-cased', () => {
      expect(operatorEmailKey('Ayse.Yilmaz@Example.COM')).toBe('ayse.yilmaz@example.com');
    });
  });

  describe('operatorName', () => {
    it('trims, and takes 1-100 characters without control characters', () => {
      expect(operatorName('  Ayşe Yılmaz ')).toEqual({ value: 'Ayşe Yılmaz' });
      expect(operatorName('ç'.repeat(100))).toEqual({ value: 'ç'.repeat(100) });
      expect(operatorName('ç'.repeat(101))).toEqual({ error: 'must be 1-100 characters' });
      expect(operatorName('   ')).toEqual({ error: 'must be 1-100 characters' });
      expect(operatorName('tab\there')).toEqual({ error: 'must not contain control characters' });
      expect(operatorName('del\u007f')).toEqual({ error: 'must not contain control characters' });
    });
  });

  describe('operatorPermissions', () => {
    it('keeps read, write, delete in their order, once each', () => {
      expect(operatorPermissions(['delete', 'read', 'read'])).toEqual({ value: ['read', 'delete'] });
    });

    it.each([[[]], [['radius']], [['read', 'radius']], [['admin']], [['READ']]])('refuses %j', (permissions) => {
      expect(operatorPermissions(permissions)).toEqual({ error: 'must be one or more of read, write, delete' });
    });
  });

  describe('operatorVenueIds', () => {
    it('keeps null (every venue) and venue ids without repeats, in order', () => {
      expect(operatorVenueIds(null)).toEqual({ value: null });
      expect(operatorVenueIds(['ist-1', 'ank:2', 'ist-1'])).toEqual({ value: ['ist-1', 'ank:2'] });
    });

    it.each([[[]], [['']], [['a b']], [['café']], [['v'.repeat(65)]]])('refuses %j', (venueIds) => {
      expect(operatorVenueIds(venueIds)).toHaveProperty('error');
    });
  });

  describe('oneTimePassword', () => {
    it('is 4 groups of 5 base32 characters, from 13 random bytes', () => {
      expect(oneTimePassword(new Uint8Array(13))).toBe('AAAAA-AAAAA-AAAAA-AAAAA');
      expect(oneTimePassword(new Uint8Array(13).fill(255))).toBe('77777-77777-77777-77777');
      const value = oneTimePassword(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]));
      expect(value).toMatch(/^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/);
      expect(value).not.toBe(oneTimePassword(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14])));
      expect(() => oneTimePassword(new Uint8Array(12))).toThrow();
    });

    it('passes the password policy', () => {
      const value = oneTimePassword(Uint8Array.from([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3]));
      expect(passwordProblem(value, { email: 'admin@localhost', name: 'Administrator' })).toBeNull();
    });
  });

  it('shows an operator without its password hash or TOTP secret', () => {
    const operator = Object.assign(new OperatorEntity(), {
      id: 'op-1',
      email: 'Ops@Example.com',
      emailKey: 'ops@example.com',
      name: 'Ops',
      passwordHash: '$argon2id$secret-hash',
      mustChangePassword: 1,
      oneTimePasswordExpiresAt: new Date('2030-01-06T00:00:00.000Z'),
      permissions: ['read', 'write'],
      admin: 0,
      venueIds: ['A'],
      status: 'active',
      rightsVersion: 3,
      totpSecret: 'sealed-secret',
      totpEnrolledAt: new Date('2030-01-02T00:00:00.000Z'),
      totpLastStep: '123',
      createdAt: new Date('2030-01-01T00:00:00.000Z'),
      updatedAt: new Date('2030-01-03T00:00:00.000Z'),
      lastSignInAt: null,
    });
    const view = toOperatorView(operator);
    expect(view).toEqual({
      id: 'op-1',
      email: 'Ops@Example.com',
      name: 'Ops',
      permissions: ['read', 'write'],
      admin: false,
      venueIds: ['A'],
      status: 'active',
      mustChangePassword: true,
      oneTimePasswordExpiresAt: '2030-01-06T00:00:00.000Z',
      totpEnrolled: true,
      createdAt: '2030-01-01T00:00:00.000Z',
      updatedAt: '2030-01-03T00:00:00.000Z',
      lastSignInAt: null,
    });
    expect(JSON.stringify(view)).not.toMatch(/secret/);
  });
});

describe('oneTimePasswordExpired', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');
  const at = (iso: string) => new Date(iso);

  it('holds for a one-time password from its expiry on, and one without any', () => {
    expect(
      oneTimePasswordExpired(
        { mustChangePassword: true, oneTimePasswordExpiresAt: at('2026-11-27T12:00:00.001Z') },
        now,
      ),
    ).toBe(false);
    expect(oneTimePasswordExpired({ mustChangePassword: true, oneTimePasswordExpiresAt: now }, now)).toBe(true);
    expect(oneTimePasswordExpired({ mustChangePassword: true, oneTimePasswordExpiresAt: null }, now)).toBe(true);
  });

  it('never holds for a password the operator chose', () => {
    expect(
      oneTimePasswordExpired({ mustChangePassword: false, oneTimePasswordExpiresAt: at('2020-01-01T00:00:00Z') }, now),
    ).toBe(false);
    expect(oneTimePasswordExpired({ mustChangePassword: false, oneTimePasswordExpiresAt: null }, now)).toBe(false);
  });
});
