import { paragraphsOf, termsProblemKey } from './terms.rules.js';

describe('paragraphsOf', () => {
  it('splits on blank lines and drops empty ones', () => {
    expect(paragraphsOf('One\r\nstill one\r\n\r\n  Two  \n\n\n')).toEqual(['One\nstill one', 'Two']);
    expect(paragraphsOf('')).toEqual([]);
  });
});

describe('termsProblemKey', () => {
  it('says why the terms way refused', () => {
    expect(termsProblemKey('noDevice')).toBe('terms.problem.noDevice');
    expect(termsProblemKey('blocked')).toBe('terms.problem.blocked');
    expect(termsProblemKey('termsNotAccepted')).toBe('portal.problem.terms');
  });
});
