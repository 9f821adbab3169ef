import type { AddSocialProviderInput } from '../../../social-sign-in/social-providers.service.js';

/** The form of a new provider as typed, to show it again: never the client secret. */
export interface SocialProviderForm {
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  scopes: string;
  /** Comma-separated, as typed. */
  venueIds: string;
}

export const EMPTY_SOCIAL_FORM: SocialProviderForm = {
  name: '',
  displayName: '',
  issuer: '',
  clientId: '',
  scopes: 'openid email',
  venueIds: '',
};

/** What the form asks the registry for (the service checks each field). */
export function socialInput(form: SocialProviderForm, clientSecret: string): AddSocialProviderInput {
  return {
    name: form.name,
    displayName: form.displayName,
    issuer: form.issuer,
    clientId: form.clientId,
    clientSecret,
    scopes: form.scopes,
    venueIds: form.venueIds
      .split(',')
      .map((venueId) => venueId.trim())
      .filter((venueId) => venueId !== ''),
  };
}
