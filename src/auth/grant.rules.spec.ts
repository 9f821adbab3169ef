import { assertGrantable, GrantRefusedError, grantProblem } from './grant.rules.js';

const everyVenueDelete = { permissions: ['delete' as const], venueIds: null };
const oneVenueRead = { permissions: ['read' as const], venueIds: ['venue-a'] };

describe('grantProblem', () => {
  it('lets a grantor give its own level or less, within its own venues', () => {
    expect(grantProblem(oneVenueRead, { permissions: ['read'], venueIds: ['venue-a'] })).toBeNull();
    expect(grantProblem(everyVenueDelete, { permissions: ['write'], venueIds: ['venue-b'] })).toBeNull();
    expect(grantProblem(everyVenueDelete, { permissions: ['delete'], venueIds: null })).toBeNull();
    expect(
      grantProblem({ permissions: ['write'], venueIds: ['a', 'b'] }, { permissions: ['read'], venueIds: ['b'] }),
    ).toBeNull();
  });

  it('refuses a higher level, every venue, or another venue to a restricted grantor', () => {
    expect(grantProblem(oneVenueRead, { permissions: ['delete'], venueIds: ['venue-a'] })).toBe(
      'delete is more than your own level (read)',
    );
    expect(grantProblem(oneVenueRead, { permissions: ['read'], venueIds: null })).toBe(
      'every venue is more than your own venues',
    );
    expect(grantProblem(oneVenueRead, { permissions: ['read'], venueIds: ['venue-a', 'venue-b'] })).toBe(
      'outside your venues: venue-b',
    );
  });

  it('gives radius only from every venue at delete level', () => {
    expect(grantProblem(everyVenueDelete, { permissions: ['radius'], venueIds: null })).toBeNull();
    expect(grantProblem({ permissions: ['write'], venueIds: null }, { permissions: ['radius'], venueIds: null })).toBe(
      'radius needs every venue and the delete level',
    );
    expect(
      grantProblem({ permissions: ['delete'], venueIds: ['a'] }, { permissions: ['radius'], venueIds: ['a'] }),
    ).toBe('radius needs every venue and the delete level');
  });
});

describe('assertGrantable', () => {
  it('lets the command line (no grantor) give anything, and throws for a grant beyond the grantor', () => {
    expect(() => assertGrantable(null, { permissions: ['delete'], venueIds: null })).not.toThrow();
    expect(() => assertGrantable(oneVenueRead, { permissions: ['write'], venueIds: ['venue-a'] })).toThrow(
      GrantRefusedError,
    );
  });
});
