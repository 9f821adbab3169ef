import type { UnauthJobDto, UnauthJobSessionDto } from '../../hotspot-users/dto/unauth-job.response.js';
import { toUnauthJobDto } from '../../hotspot-users/unauth-job.mapper.js';
import type { UnauthJobEntity } from '../../unauth-jobs/entities/unauth-job.entity.js';
import { isOpenJob } from '../../unauth-jobs/unauth-job-rules.js';
import { inVenues, notSentKey, stateBadge } from './network.rules.js';

/** A text of the catalogues with its values, which the view translates. */
export interface Words {
  key: string;
  values?: Record<string, string | number>;
}

/** A session of a job as the console shows it: its outcome in words. */
export interface JobSessionView extends UnauthJobSessionDto {
  words: Words;
  badge: string;
}

/** A job as the console shows it: only its sessions in the reader's venues, each outcome in words. */
export interface JobView extends Omit<UnauthJobDto, 'sessions'> {
  sessions: JobSessionView[];
  /** Sessions of the job in venues the reader does not see (counted, never shown). */
  hiddenSessions: number;
  open: boolean;
  badge: string;
  /** Each dispatcher's delivery with the time its last attempt ended (the job page). */
  deliveryTimes: Record<string, string>;
}

/** A session's outcome in words: ACK, NAK with its Error-Cause, no answer, why it was not sent… */
export function outcomeWords(session: Pick<UnauthJobSessionDto, 'outcome' | 'errorCause' | 'detail'>): Words {
  switch (session.outcome) {
    case 'nak':
      return session.errorCause === null
        ? { key: 'jobs.outcome.nakPlain' }
        : {
            key: 'jobs.outcome.nak',
            values: { code: session.errorCause.code, name: session.errorCause.name ?? '?' },
          };
    case 'not-sent':
      return { key: notSentKey(session.detail) };
    default:
      return { key: `jobs.outcome.${session.outcome}` };
  }
}

export function jobViewOfDto(job: UnauthJobDto, venueIds: readonly string[] | null): JobView {
  const shown = job.sessions.filter((session) => inVenues(venueIds, session.venueId));
  return {
    ...job,
    sessions: shown.map((session) => ({
      ...session,
      words: outcomeWords(session),
      badge: stateBadge(session.outcome),
    })),
    hiddenSessions: job.sessions.length - shown.length,
    open: isOpenJob(job.status),
    badge: stateBadge(job.status),
    deliveryTimes: {},
  };
}

export function jobViewOf(job: UnauthJobEntity, venueIds: readonly string[] | null): JobView {
  const view = jobViewOfDto(toUnauthJobDto(job), venueIds);
  view.deliveryTimes = Object.fromEntries(
    Object.entries(job.deliveries ?? {}).map(([dispatcher, delivery]) => [dispatcher, delivery.at]),
  );
  return view;
}
