import { UNAUTH_JOB_STATUSES, UNAUTH_REASONS } from '../../unauth-jobs/entities/unauth-job.entity.js';
import type { UnauthJobStatus, UnauthReason } from '../../unauth-jobs/entities/unauth-job.entity.js';

/**
 * Rules of the console's network screens (a user's page, Online now, Disconnect jobs): pure, so
 * that what they show and hide is tested without a server.
 */

/** The highest page number a list takes from its URL (beyond it, a page is simply empty). */
export const MAX_PAGE = 100_000;

/** A page number from the URL: 1 for anything that is not a whole number from 1 to MAX_PAGE. */
export function pageNumber(text: string): number {
  if (!/^[0-9]{1,6}$/.test(text)) return 1;
  const page = Number(text);
  return page >= 1 && page <= MAX_PAGE ? page : 1;
}

/** Whether something of `venueId` may be shown to a reader of `venueIds` (null: every venue). */
export function inVenues(venueIds: readonly string[] | null, venueId: string | null): boolean {
  if (venueIds === null) return true;
  return venueId !== null && venueIds.includes(venueId);
}

/** A job status named in a URL, or undefined for none or anything else. */
export function jobStatusOf(text: string): UnauthJobStatus | undefined {
  return (UNAUTH_JOB_STATUSES as readonly string[]).includes(text) ? (text as UnauthJobStatus) : undefined;
}

/** A job reason named in a URL, or undefined for none or anything else. */
export function jobReasonOf(text: string): UnauthReason | undefined {
  return (UNAUTH_REASONS as readonly string[]).includes(text) ? (text as UnauthReason) : undefined;
}

/** The badge class of a job or session state: the colour repeats what the text says. */
export function stateBadge(state: string): 'good' | 'bad' | 'warn' | '' {
  if (state === 'done' || state === 'ack' || state === 'stopped-by-nas') return 'good';
  if (state === 'failed' || state === 'nak' || state === 'no-answer') return 'bad';
  if (state === 'pending' || state === 'processing' || state === 'waiting') return 'warn';
  return '';
}

/**
 * The catalogue key of a login attempt's reason in words: each RejectReason has one, an accept
 * none, and a reject whose reason FreeRADIUS did not pass on (or a reason unknown here) a general one.
 */
export function attemptReasonKey(outcome: string, reason: string | null): string | null {
  if (outcome === 'accept') return null;
  const known = [
    'invalidCredentials',
    'unknownDevice',
    'blocked',
    'expired',
    'wrongVenue',
    'tooManySessions',
    'papRequired',
    'unknownNas',
  ];
  return reason !== null && known.includes(reason) ? `userPage.reason.${reason}` : 'userPage.reason.unknown';
}

/**
 * Why a session was not sent, in the catalogue's words, from the RADIUS dispatcher's detail: a NAS
 * without an RFC 5176 listener (CoA port 0), one that does not accept CoA, no registered NAS, or another.
 */
export function notSentKey(detail: string | null): string {
  const text = (detail ?? '').toLowerCase();
  if (text.includes('coa port 0') || text.includes('rfc 5176 listener')) return 'jobs.notSent.noPort';
  if (text.includes('not accept coa')) return 'jobs.notSent.refuses';
  if (text.includes('no longer registered') || text.includes('no nas reported')) return 'jobs.notSent.noNas';
  return 'jobs.notSent.other';
}
