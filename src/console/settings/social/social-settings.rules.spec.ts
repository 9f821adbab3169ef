import { EMPTY_SOCIAL_FORM, socialInput } from './social-settings.rules.js';

describe('social sign-in settings form', () => {
  it('reads the venues as a comma-separated list and passes the secret apart from the form', () => {
    const input = socialInput({ ...EMPTY_SOCIAL_FORM, name: 'google', venueIds: ' lobby, spa ,,' }, 's3cret');
    expect(input).toMatchObject({
      name: 'google',
      scopes: 'openid email',
      venueIds: ['lobby', 'spa'],
      clientSecret: 's3cret',
    });
    expect(socialInput(EMPTY_SOCIAL_FORM, 'x').venueIds).toEqual([]);
  });
});
