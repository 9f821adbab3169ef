import { formFieldOf, portalChangesOfForm, type PortalForm } from './venue-portal.rules.js';

const FORM: PortalForm = {
  ways: ['voucher', 'terms'],
  displayName: ' Lobby ',
  logoUrl: '',
  colourAccent: '#113355',
  colourBackground: '',
  colourText: '',
  termsText: 'Be kind.',
  privacyText: '  ',
  planId: '',
  validityMinutes: '1440',
  keepSocialEmail: false,
  faskey: '',
  clearFaskey: false,
};

describe('portalChangesOfForm', () => {
  it('gives every field, empty ones cleared, and keeps the faskey unless typed or cleared', () => {
    expect(portalChangesOfForm(FORM)).toEqual({
      changes: {
        ways: ['voucher', 'terms'],
        displayName: 'Lobby',
        logoUrl: null,
        colourAccent: '#113355',
        colourBackground: null,
        colourText: null,
        termsText: 'Be kind.',
        privacyText: null,
        planId: null,
        validitySeconds: 86_400,
        keepSocialEmail: false,
      },
    });
    expect(portalChangesOfForm({ ...FORM, faskey: 'secret-key-1' })).toMatchObject({
      changes: { faskey: 'secret-key-1' },
    });
    expect(portalChangesOfForm({ ...FORM, clearFaskey: true })).toMatchObject({ changes: { faskey: null } });
  });

  it.each([
    [{ ways: ['pigeon'] }, 'ways'],
    [{ logoUrl: 'http://x.example/logo.png' }, 'logoUrl'],
    [{ colourText: 'red' }, 'colourText'],
    [{ validityMinutes: '0' }, 'validityMinutes'],
    [{ validityMinutes: '1.5' }, 'validityMinutes'],
    [{ faskey: 'secret-key-1', clearFaskey: true }, 'faskey'],
  ])('%j is refused on %s', (change, field) => {
    expect(portalChangesOfForm({ ...FORM, ...change })).toEqual({
      problem: { field, key: `venues.portal.problem.${field}` },
    });
  });

  it('names the form field of a service refusal', () => {
    expect(formFieldOf('validitySeconds')).toBe('validityMinutes');
    expect(formFieldOf('planId')).toBe('planId');
  });
});
