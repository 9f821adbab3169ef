import { UNAUTH_REASONS } from '../../unauth-jobs/entities/unauth-job.entity.js';
import type { UnauthJobStatus, UnauthReason } from '../../unauth-jobs/entities/unauth-job.entity.js';
import { notSentReasonOf, type NotSentReason } from '../../unauth-jobs/job-report.js';

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

/**
 * A job's state as the console shows it: its status, except that a done job which left sessions
 * unsent is `not-sent`, never a green "done" (the v1 status stays `done`; its `notSent` says why).
 */
export type JobState = UnauthJobStatus | 'not-sent';

/** The states, in the order the jobs list offers them as a filter. */
export const JOB_STATES: readonly JobState[] = ['pending', 'processing', 'done', 'not-sent', 'failed'];

export function jobStateOf(status: UnauthJobStatus, notSent: unknown): JobState {
  return status === 'done' && notSent !== null ? 'not-sent' : status;
}

/** A job state named in a URL, or undefined for none or anything else. */
export function jobStatusOf(text: string): JobState | undefined {
  return (JOB_STATES as readonly string[]).includes(text) ? (text as JobState) : undefined;
}

/** A job reason named in a URL, or undefined for none or anything else. */
export function jobReasonOf(text: string): UnauthReason | undefined {
  return (UNAUTH_REASONS as readonly string[]).includes(text) ? (text as UnauthReason) : undefined;
}

/**
 * When the NAS answered for a session of a job (its ACK or NAK, or its own Stop): the outcome's
 * time for those, none for a session still waiting, not answered or never sent (whose time is when
 * the service gave up or decided, not an answer).
 */
export function answeredAt(outcome: string, at: string | null): string | null {
  return outcome === 'ack' || outcome === 'nak' || outcome === 'stopped-by-nas' ? at : null;
}

/** The badge class of a job or session state: the colour repeats what the text says. */
export function stateBadge(state: string): 'good' | 'bad' | 'warn' | '' {
  if (state === 'done' || state === 'ack' || state === 'stopped-by-nas') return 'good';
  if (state === 'failed' || state === 'not-sent' || state === 'nak' || state === 'no-answer') return 'bad';
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
    'quotaExhausted',
    'tooManyDevices',
    'papRequired',
    'unknownNas',
  ];
  return reason !== null && known.includes(reason) ? `userPage.reason.${reason}` : 'userPage.reason.unknown';
}

/** The catalogue's words for each reason a job or session was not sent (job-report.ts). */
const NOT_SENT_KEYS: Record<NotSentReason, string> = {
  'no-radius-dispatcher': 'jobs.notSent.noDispatcher',
  'no-nas': 'jobs.notSent.noNas',
  'no-coa-port': 'jobs.notSent.noPort',
  'refuses-coa': 'jobs.notSent.refuses',
  other: 'jobs.notSent.other',
  several: 'jobs.notSent.several',
};

export function notSentReasonKey(reason: NotSentReason): string {
  return NOT_SENT_KEYS[reason];
}

/** A sentence per reason a job left sessions unsent, with what to do ({count} of {total} sessions). */
const NOT_SENT_WHY: Record<NotSentReason, string> = {
  'no-radius-dispatcher': 'jobs.notSentWhy.noDispatcher',
  'no-nas': 'jobs.notSentWhy.noNas',
  'no-coa-port': 'jobs.notSentWhy.noPort',
  'refuses-coa': 'jobs.notSentWhy.refuses',
  other: 'jobs.notSentWhy.other',
  several: 'jobs.notSentWhy.several',
};

export function notSentWhyKey(reason: NotSentReason): string {
  return NOT_SENT_WHY[reason];
}

/**
 * Why a session was not sent, in the catalogue's words: from the RADIUS dispatcher's detail (a NAS
 * without an RFC 5176 listener, one that does not accept CoA, no registered NAS, or another); a
 * session with no detail of a job no dispatcher sent to a NAS (`jobReason`) says that.
 */
export function notSentKey(detail: string | null, jobReason: NotSentReason | null = null): string {
  if (detail === null && jobReason === 'no-radius-dispatcher') return NOT_SENT_KEYS['no-radius-dispatcher'];
  return NOT_SENT_KEYS[notSentReasonOf(detail)];
}

/**
 * Why the Disconnects of this service reach no NAS, for the banner of the network screens, or null
 * when they can: UNAUTH_DISPATCHER without `radius` (`dispatchers` as configured), or no registered
 * NAS with a Disconnect/CoA port.
 */
export function disconnectProblem(
  dispatchers: readonly string[],
  nasesWithCoaPort: number,
): { key: string; values: Record<string, string> } | null {
  if (!dispatchers.includes('radius')) {
    return { key: 'net.banner.noRadius', values: { value: dispatchers.join(',') } };
  }
  if (nasesWithCoaPort === 0) return { key: 'net.banner.noCoaPort', values: {} };
  return null;
}
