import { expiryDate, tokenName, tokenPermissions, venueRestriction } from './access-forms.js';

describe('settings forms', () => {
  it('reads a token name as the command line does', () => {
    expect(tokenName('  portal  ')).toEqual({ value: 'portal' });
    expect(tokenName('')).toEqual({ problem: 'tokens.problem.name' });
    expect(tokenName('x'.repeat(101))).toEqual({ problem: 'tokens.problem.name' });
    expect(tokenName('tab\there')).toEqual({ problem: 'tokens.problem.name' });
  });

  it('reads permissions: known ones in their order, radius alone', () => {
    expect(tokenPermissions(['write', 'read'])).toEqual({ value: ['read', 'write'] });
    expect(tokenPermissions(['radius'])).toEqual({ value: ['radius'] });
    expect(tokenPermissions([])).toEqual({ problem: 'tokens.problem.permissions' });
    expect(tokenPermissions(['admin'])).toEqual({ problem: 'tokens.problem.permissions' });
    expect(tokenPermissions(['radius', 'read'])).toEqual({ problem: 'tokens.problem.radius' });
  });

  it('reads a venue restriction from ticked and typed ids', () => {
    expect(venueRestriction('all', ['A'], 'B', 'p')).toEqual({ value: null });
    expect(venueRestriction('some', ['A'], 'B, C A', 'p')).toEqual({ value: ['A', 'B', 'C'] });
    expect(venueRestriction('some', [], ' ', 'p')).toEqual({ problem: 'p' });
    expect(venueRestriction('some', ['bad id!'], '', 'p')).toEqual({ problem: 'p' });
    expect(venueRestriction('', ['A'], '', 'p')).toEqual({ problem: 'p' });
    expect(venueRestriction('some', [], Array.from({ length: 51 }, (_, i) => `v${i}`).join(','), 'p')).toEqual({
      problem: 'p',
    });
  });

  it('reads an expiry date as the end of that day in the zone, in the future', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(expiryDate('', null, now)).toEqual({ value: null });
    expect(expiryDate('2026-11-25', 'Europe/Istanbul', now)).toEqual({ value: new Date('2026-11-25T21:00:00Z') });
    expect(expiryDate('2026-11-24', null, now)).toEqual({ problem: 'tokens.problem.expiryPast' });
    expect(expiryDate('2026-02-30', null, now)).toEqual({ problem: 'tokens.problem.expiry' });
    expect(expiryDate('9999-12-31', null, now)).toEqual({ problem: 'tokens.problem.expiry' });
  });
});
