import type { AdmissionRefusal } from '../../guest-access/guest-access.service.js';
import { HANDOVER_CONTENT_SECURITY_POLICY } from '../handover/handover.rules.js';

/** The pure rules of the social sign-in screen: which problem a page shows, and what it is called. */

/** Why a sign-in did not work, as the screen's `?problem=` and its catalogue key name it. */
export const SOCIAL_PROBLEMS = [
  'denied',
  'expired',
  'unknownState',
  'providerDown',
  'refused',
  'unknownProvider',
  'visitOver',
  'terms',
  'blocked',
] as const;
export type SocialProblem = (typeof SOCIAL_PROBLEMS)[number];

/** The problem of a failure the sign-in service reported. */
export function problemOfFailure(
  kind: 'denied' | 'expired' | 'unknown-state' | 'provider-down' | 'refused' | 'unknown-provider',
): SocialProblem {
  const problems = {
    denied: 'denied',
    expired: 'expired',
    'unknown-state': 'unknownState',
    'provider-down': 'providerDown',
    refused: 'refused',
    'unknown-provider': 'unknownProvider',
  } as const;
  return problems[kind];
}

/** The problem of an admission guest-access refused after the provider said who the guest is. */
export function problemOfRefusal(reason: AdmissionRefusal): SocialProblem {
  if (reason === 'termsNotAccepted') return 'terms';
  if (reason === 'blocked') return 'blocked';
  return 'unknownProvider';
}

/** The problem a `?problem=` names, or null for none or one the screen does not know. */
export function problemOfQuery(raw: string): SocialProblem | null {
  return (SOCIAL_PROBLEMS as readonly string[]).includes(raw) ? (raw as SocialProblem) : null;
}

/** The catalogue key of a problem. */
export function problemKey(problem: SocialProblem): string {
  return problem === 'terms' ? 'portal.problem.terms' : `social.problem.${problem}`;
}

/**
 * The Content-Security-Policy of the page with the providers' buttons: the hand-over's (the portal's
 * without form-action) with form-action back, to the portal and the providers' origins only, since
 * browsers apply form-action to the redirect that follows the form, to the provider.
 */
export function socialPageContentSecurityPolicy(formTargets: readonly string[]): string {
  return `${HANDOVER_CONTENT_SECURITY_POLICY}; form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`;
}
