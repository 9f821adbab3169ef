import {
  isPermission,
  permissionConflict,
  PERMISSIONS,
  permissionLevel,
  satisfies,
  type Permission,
} from './permissions.js';

describe('permissions', () => {
  it('are listed from lowest to highest: read < write < delete, then radius', () => {
    expect(PERMISSIONS).toEqual(['read', 'write', 'delete', 'radius']);
  });

  describe('permissionLevel', () => {
    it('is null for a token without permissions', () => {
      expect(permissionLevel([])).toBeNull();
    });

    it('is null for a radius token: radius is no API level', () => {
      expect(permissionLevel(['radius'])).toBeNull();
    });

    it.each<[Permission[], Permission]>([
      [['read'], 'read'],
      [['write'], 'write'],
      [['delete'], 'delete'],
      [['read', 'write'], 'write'],
      [['write', 'read'], 'write'],
      [['delete', 'read'], 'delete'],
      [['read', 'delete', 'write'], 'delete'],
      [['radius', 'read'], 'read'],
    ])('of %j is %j (the highest held, whatever the order)', (held, level) => {
      expect(permissionLevel(held)).toBe(level);
    });
  });

  describe('satisfies', () => {
    const cases: Array<[Permission[], Permission, boolean]> = [
      [['read'], 'read', true],
      [['read'], 'write', false],
      [['read'], 'delete', false],
      [['write'], 'read', true],
      [['write'], 'write', true],
      [['write'], 'delete', false],
      [['delete'], 'read', true],
      [['delete'], 'write', true],
      [['delete'], 'delete', true],
      [['read', 'write'], 'delete', false],
      [[], 'read', false],
      [['radius'], 'radius', true],
      [['radius'], 'read', false],
      [['radius'], 'write', false],
      [['radius'], 'delete', false],
      [['read'], 'radius', false],
      [['write'], 'radius', false],
      [['delete'], 'radius', false],
      [['read', 'write', 'delete'], 'radius', false],
      [[], 'radius', false],
    ];
    it.each(cases)('%j for %j: %s', (held, required, expected) => {
      expect(satisfies(held, required)).toBe(expected);
    });
  });

  describe('isPermission', () => {
    it.each(['read', 'write', 'delete', 'radius'])('accepts %j', (value) => {
      expect(isPermission(value)).toBe(true);
    });
    it.each(['READ', 'admin', '', 'any', 'reads'])('refuses %j', (value) => {
      expect(isPermission(value)).toBe(false);
    });
  });

  describe('permissionConflict', () => {
    it.each<Permission[]>([['read'], ['read', 'write', 'delete'], ['radius'], []])('allows %j', (...held) => {
      expect(permissionConflict(held)).toBeNull();
    });
    it.each<Permission[]>([
      ['radius', 'read'],
      ['write', 'radius'],
      ['read', 'write', 'delete', 'radius'],
    ])('refuses radius with an API level: %j', (...held) => {
      expect(permissionConflict(held)).toMatch(/radius cannot be combined/);
    });
  });
});
