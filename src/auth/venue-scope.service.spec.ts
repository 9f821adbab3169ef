import { ApiError, type ErrorBody } from '../common/errors/api-error.js';
import type { AuthenticatedToken } from './authenticated-token.js';
import { VenueScopeService } from './venue-scope.service.js';

function token(venueIds: string[] | null): AuthenticatedToken {
  return { kind: 'token', id: 't1', name: 'test', permissions: ['delete'], venueIds, expiresAt: null };
}

const unrestricted = token(null);
const onlyA = token(['A']);
const aAndB = token(['A', 'B']);

/** What `action` throws, as status and body; fails the test when it does not throw an ApiError. */
function thrownBy(action: () => unknown): { status: number; body: ErrorBody } {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).getStatus(), body: (error as ApiError).body };
  }
  throw new Error('expected an ApiError');
}

describe('VenueScopeService', () => {
  const scope = new VenueScopeService();

  describe('isInScope', () => {
    it('an unrestricted token covers every venue', () => {
      expect(scope.isInScope(unrestricted, 'anything')).toBe(true);
    });
    it('a restricted token covers only its venues, compared exactly', () => {
      expect(scope.isInScope(aAndB, 'A')).toBe(true);
      expect(scope.isInScope(aAndB, 'B')).toBe(true);
      expect(scope.isInScope(aAndB, 'C')).toBe(false);
      expect(scope.isInScope(aAndB, 'a')).toBe(false);
    });
  });

  describe('assertVenuesInScope (create and PUT venueIds)', () => {
    it('passes when every venue is inside the token', () => {
      expect(() => scope.assertVenuesInScope(aAndB, ['B', 'A'], 'venueIds')).not.toThrow();
      expect(() => scope.assertVenuesInScope(unrestricted, ['X', 'Y'], 'venueIds')).not.toThrow();
    });

    it('is 403 Forbidden naming the field and the venues outside', () => {
      const { status, body } = thrownBy(() => scope.assertVenuesInScope(onlyA, ['A', 'B', 'C'], 'venueIds'));
      expect(status).toBe(403);
      expect(body.message).toBe('Forbidden');
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0].field).toBe('venueIds');
      expect(body.errors![0].message).toContain('B, C');
      expect(body.errors![0].message).not.toMatch(/\bA\b/);
    });

    it('names whatever field it is asked to', () => {
      const { body } = thrownBy(() => scope.assertVenuesInScope(onlyA, ['Z'], 'venueId'));
      expect(body.errors![0].field).toBe('venueId');
    });
  });

  describe('canRead (reading a user needs an overlap)', () => {
    it('an unrestricted token reads any user', () => {
      expect(scope.canRead(unrestricted, ['X'])).toBe(true);
    });
    it('a token sharing one of the user venues reads it', () => {
      expect(scope.canRead(onlyA, ['C', 'A'])).toBe(true);
    });
    it('a token sharing no venue does not', () => {
      expect(scope.canRead(aAndB, ['C', 'D'])).toBe(false);
    });
  });

  describe('assertCanChange (PUT, DELETE, POST expire)', () => {
    it('passes for an unrestricted token', () => {
      expect(() => scope.assertCanChange(unrestricted, ['A', 'B', 'C'])).not.toThrow();
    });

    it('passes when the token covers all of the user venues', () => {
      expect(() => scope.assertCanChange(aAndB, ['A'])).not.toThrow();
      expect(() => scope.assertCanChange(aAndB, ['B', 'A'])).not.toThrow();
    });

    it('is 404 Kullanıcı bulunamadı when the token shares no venue with the user', () => {
      const { status, body } = thrownBy(() => scope.assertCanChange(onlyA, ['B', 'C']));
      expect(status).toBe(404);
      expect(body).toEqual({ success: false, message: 'Kullanıcı bulunamadı' });
    });

    it('is 403 naming venueIds when the token covers some but not all of them', () => {
      const { status, body } = thrownBy(() => scope.assertCanChange(onlyA, ['A', 'B']));
      expect(status).toBe(403);
      expect(body.message).toBe('Forbidden');
      expect(body.errors).toEqual([{ field: 'venueIds', message: expect.stringContaining('B') }]);
    });
  });

  describe('resolveListVenue', () => {
    it('uses the query venueId when the token covers it', () => {
      expect(scope.resolveListVenue(aAndB, 'B')).toBe('B');
      expect(scope.resolveListVenue(unrestricted, 'X')).toBe('X');
    });

    it('is 403 naming venueId for a query venue outside the token', () => {
      const { status, body } = thrownBy(() => scope.resolveListVenue(onlyA, 'B'));
      expect(status).toBe(403);
      expect(body.errors).toEqual([{ field: 'venueId', message: expect.any(String) }]);
    });

    it('falls back to the only venue of a token restricted to exactly one', () => {
      expect(scope.resolveListVenue(onlyA, undefined)).toBe('A');
    });

    it.each([
      ['an unrestricted token', unrestricted],
      ['a token with two venues', aAndB],
    ])('is 400 naming venueId when absent with %s', (_case, current) => {
      const { status, body } = thrownBy(() => scope.resolveListVenue(current, undefined));
      expect(status).toBe(400);
      expect(body.message).toBe('Validation error');
      expect(body.errors).toEqual([{ field: 'venueId', message: expect.any(String) }]);
    });
  });
});
