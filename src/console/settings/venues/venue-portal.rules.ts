import {
  isColour,
  isLogoUrl,
  isPortalWay,
  VALIDITY_MAX_SECONDS,
  VALIDITY_MIN_SECONDS,
  type PortalChanges,
  type PortalWay,
} from '../../../guest-access/guest-access.rules.js';

/** The portal settings form as typed. */
export interface PortalForm {
  ways: string[];
  displayName: string;
  logoUrl: string;
  colourAccent: string;
  colourBackground: string;
  colourText: string;
  termsText: string;
  privacyText: string;
  planId: string;
  validityMinutes: string;
  keepSocialEmail: boolean;
  /** Typed only to change it: empty keeps the stored one. */
  faskey: string;
  clearFaskey: boolean;
}

/** The form's fields, in order (each has a problem message). */
export const PORTAL_FORM_FIELDS = [
  'ways',
  'displayName',
  'logoUrl',
  'colourAccent',
  'colourBackground',
  'colourText',
  'termsText',
  'privacyText',
  'planId',
  'validityMinutes',
  'keepSocialEmail',
  'faskey',
  'clearFaskey',
] as const satisfies ReadonlyArray<keyof PortalForm>;

/** The form's field a problem is about, and its message key (settings/venues' catalogue). */
export interface PortalFormProblem {
  field: keyof PortalForm;
  key: string;
}

/**
 * The form as the portal's changes (every field given: an empty one clears it; the faskey only when
 * typed or cleared), or the first problem. The service checks the rest (terms for the terms way, the plan).
 */
export function portalChangesOfForm(form: PortalForm): { changes: PortalChanges } | { problem: PortalFormProblem } {
  const problem = (field: keyof PortalForm) => ({ problem: { field, key: `venues.portal.problem.${field}` } });
  if (!form.ways.every(isPortalWay)) return problem('ways');
  if (form.displayName.length > 100) return problem('displayName');
  if (form.logoUrl !== '' && !isLogoUrl(form.logoUrl)) return problem('logoUrl');
  for (const field of ['colourAccent', 'colourBackground', 'colourText'] as const)
    if (form[field] !== '' && !isColour(form[field])) return problem(field);
  const minutes = Number(form.validityMinutes);
  if (!/^\d+$/.test(form.validityMinutes) || minutes * 60 < VALIDITY_MIN_SECONDS || minutes * 60 > VALIDITY_MAX_SECONDS)
    return problem('validityMinutes');
  if (form.faskey !== '' && form.clearFaskey) return problem('faskey');
  const text = (value: string) => (value.trim() === '' ? null : value);
  const changes: PortalChanges = {
    ways: [...new Set(form.ways)] as PortalWay[],
    displayName: text(form.displayName.trim()),
    logoUrl: text(form.logoUrl),
    colourAccent: text(form.colourAccent),
    colourBackground: text(form.colourBackground),
    colourText: text(form.colourText),
    termsText: text(form.termsText),
    privacyText: text(form.privacyText),
    planId: text(form.planId),
    validitySeconds: minutes * 60,
    keepSocialEmail: form.keepSocialEmail,
  };
  if (form.faskey !== '') changes.faskey = form.faskey;
  else if (form.clearFaskey) changes.faskey = null;
  return { changes };
}

/** The field of the form a service's refusal names (PortalChanges' names to the form's). */
export function formFieldOf(field: keyof PortalChanges): keyof PortalForm {
  return field === 'validitySeconds' ? 'validityMinutes' : field;
}
