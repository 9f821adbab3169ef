import { isPermission, PERMISSIONS, permissionLevel, satisfies, type Permission } from './permissions.js';

describe('permissions', () => {
  it('are listed from lowest to highest: read < write < delete', () => {
    expect(PERMISSIONS).toEqual(['read', 'write', 'delete']);
  });

  describe('permissionLevel', () => {
    it('is null for a token without permissions', () => {
      expect(permissionLevel([])).toBeNull();
    });

    it.each<[Permission[], Permission]>([
      [['read'], 'read'],
      [['write'], 'write'],
      [['delete'], 'delete'],
      [['read', 'write'], 'write'],
      [['write', 'read'], 'write'],
      [['delete', 'read'], 'delete'],
      [['read', 'delete', 'write'], 'delete'],
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
    ];
    it.each(cases)('%j for %j: %s', (held, required, expected) => {
      expect(satisfies(held, required)).toBe(expected);
    });
  });

  describe('isPermission', () => {
    it.each(['read', 'write', 'delete'])('accepts %j', (value) => {
      expect(isPermission(value)).toBe(true);
    });
    it.each(['READ', 'admin', '', 'any', 'reads'])('refuses %j', (value) => {
      expect(isPermission(value)).toBe(false);
    });
  });
});
