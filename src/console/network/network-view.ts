import type { UnauthJobDto, UnauthJobSessionDto } from '../../hotspot-users/dto/unauth-job.response.js';
import { toUnauthJobDto } from '../../hotspot-users/unauth-job.mapper.js';
import type { UnauthJobEntity } from '../../unauth-jobs/entities/unauth-job.entity.js';
import type { NotSentReason } from '../../unauth-jobs/job-report.js';
import { isOpenJob } from '../../unauth-jobs/unauth-job-rules.js';
import {
  answeredAt,
  inVenues,
  jobStateOf,
  notSentKey,
  notSentReasonKey,
  notSentWhyKey,
  stateBadge,
  type JobState,
} from './network.rules.js';

/** A text of the catalogues with its values, which the view translates. */
export interface Words {
  key: string;
  values?: Record<string, string | number>;
}

/** A session of a job as the console shows it: its outcome in words. */
export interface JobSessionView extends UnauthJobSessionDto {
  words: Words;
  badge: string;
  /** When the NAS answered (ACK, NAK, its Stop); null without an answer (answeredAt). */
  answeredAt: string | null;
}

/** A job as the console shows it: only its sessions in the reader's venues, each outcome in words. */
export interface JobView extends Omit<UnauthJobDto, 'sessions'> {
  sessions: JobSessionView[];
  /** Sessions of the job in venues the reader does not see (counted, never shown). */
  hiddenSessions: number;
  open: boolean;
  /** Its status, or `not-sent` for a done job that left sessions unsent: what its badge says. */
  state: JobState;
  badge: string;
  /** The badge's words: the status, or for a not-sent job why it was not sent. */
  stateWords: Words;
  /** For a not-sent job, a sentence: how many of its sessions, why, what to do; else null. */
  notSentWords: Words | null;
  /** Each dispatcher's delivery with the time its last attempt ended (the job page). */
  deliveryTimes: Record<string, string>;
  /** The job's user as pages name it (linked to its page); null once the user is deleted (see namedJobs). */
  guest: { name: string; username: string | null } | null;
}

/** The jobs with their users' names (`names`: by user id, the users that still exist). */
export function namedJobs(
  jobs: readonly JobView[],
  names: ReadonlyMap<string, { name: string; username: string | null }>,
): JobView[] {
  return jobs.map((job) => ({ ...job, guest: names.get(job.userId) ?? null }));
}

/**
 * A session's outcome in words: ACK, NAK with its Error-Cause, no answer, why it was not sent (with
 * the job's reason when the session has none of its own: no dispatcher tells NASes)…
 */
export function outcomeWords(
  session: Pick<UnauthJobSessionDto, 'outcome' | 'errorCause' | 'detail'>,
  jobReason: NotSentReason | null = null,
): Words {
  switch (session.outcome) {
    case 'nak':
      return session.errorCause === null
        ? { key: 'jobs.outcome.nakPlain' }
        : {
            key: 'jobs.outcome.nak',
            values: { code: session.errorCause.code, name: session.errorCause.name ?? '?' },
          };
    case 'not-sent':
      return { key: notSentKey(session.detail, jobReason) };
    default:
      return { key: `jobs.outcome.${session.outcome}` };
  }
}

export function jobViewOfDto(job: UnauthJobDto, venueIds: readonly string[] | null): JobView {
  const shown = job.sessions.filter((session) => inVenues(venueIds, session.venueId));
  const state = jobStateOf(job.status, job.notSent);
  const notSent = job.notSent;
  return {
    ...job,
    sessions: shown.map((session) => ({
      ...session,
      words: outcomeWords(session, notSent?.reason ?? null),
      badge: stateBadge(session.outcome),
      answeredAt: answeredAt(session.outcome, session.at),
    })),
    hiddenSessions: job.sessions.length - shown.length,
    open: isOpenJob(job.status),
    state,
    badge: stateBadge(state),
    stateWords:
      notSent === null ? { key: `jobs.statusValue.${job.status}` } : { key: notSentReasonKey(notSent.reason) },
    notSentWords:
      notSent === null
        ? null
        : { key: notSentWhyKey(notSent.reason), values: { count: notSent.sessions, total: shown.length } },
    deliveryTimes: {},
    guest: null,
  };
}

export function jobViewOf(job: UnauthJobEntity, venueIds: readonly string[] | null): JobView {
  const view = jobViewOfDto(toUnauthJobDto(job), venueIds);
  view.deliveryTimes = Object.fromEntries(
    Object.entries(job.deliveries ?? {}).map(([dispatcher, delivery]) => [dispatcher, delivery.at]),
  );
  return view;
}

/** How an unconfirmed Disconnect of a session Online now lists stands. */
export interface DisconnectView {
  jobId: string;
  /** Whether the job will still send it (or has not yet): "disconnecting"; else nothing more will be tried. */
  pending: boolean;
  /** `warn` while the job will still send it; then the colour of the session's outcome (`bad` if none). */
  badge: string;
  /** The session's outcome in its job (no answer, refused, not sent…); null while not tried yet or unknown. */
  words: Words | null;
}

/** The Disconnect a session waits on: `outcome` is the session in that job as the reader sees it, if at all. */
export function disconnectView(jobId: string, outcome: JobSessionView | null): DisconnectView {
  const pending = outcome === null || outcome.state === 'pending';
  return {
    jobId,
    pending,
    badge: pending ? 'warn' : outcome.badge || 'bad',
    words: outcome === null || outcome.outcome === 'waiting' ? null : outcome.words,
  };
}
