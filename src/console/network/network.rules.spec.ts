import { UNAUTH_JOB_STATUSES } from '../../unauth-jobs/entities/unauth-job.entity.js';
import { NOT_SENT_REASONS } from '../../unauth-jobs/job-report.js';
import {
  answeredAt,
  attemptReasonKey,
  disconnectProblem,
  inVenues,
  JOB_STATES,
  jobReasonOf,
  jobStateOf,
  jobStatusOf,
  notSentKey,
  notSentReasonKey,
  notSentWhyKey,
  pageNumber,
  stateBadge,
} from './network.rules.js';

describe('console network screens: rules', () => {
  it('takes a page number from 1 to 100000 and 1 for anything else', () => {
    expect(['1', '7', '100000'].map(pageNumber)).toEqual([1, 7, 100000]);
    expect(['', '0', '-1', '1.5', 'x', '100001', '9'.repeat(40), '1e3'].map(pageNumber)).toEqual(Array(8).fill(1));
  });

  it("gives a time of answer only to an answer: ACK, NAK or the NAS's own Stop", () => {
    const at = '2026-11-28T10:00:00.000Z';
    expect(['ack', 'nak', 'stopped-by-nas'].map((outcome) => answeredAt(outcome, at))).toEqual([at, at, at]);
    expect(['no-answer', 'not-sent', 'waiting'].map((outcome) => answeredAt(outcome, at))).toEqual([null, null, null]);
  });

  it("shows what is in the reader's venues, everything to an unrestricted reader", () => {
    expect(inVenues(null, 'venue-b')).toBe(true);
    expect(inVenues(null, null)).toBe(true);
    expect(inVenues(['venue-a'], 'venue-a')).toBe(true);
    expect(inVenues(['venue-a'], 'venue-b')).toBe(false);
    expect(inVenues(['venue-a'], null)).toBe(false);
    expect(inVenues([], 'venue-a')).toBe(false);
  });

  it('takes only real statuses and reasons from a URL', () => {
    expect(jobStatusOf('failed')).toBe('failed');
    expect(jobStatusOf('FAILED')).toBeUndefined();
    expect(jobStatusOf('')).toBeUndefined();
    expect(jobReasonOf('operator')).toBe('operator');
    expect(jobReasonOf('constructor')).toBeUndefined();
  });

  it('colours a state as its words say', () => {
    expect(['done', 'ack', 'failed', 'nak', 'no-answer', 'pending', 'waiting', 'not-sent'].map(stateBadge)).toEqual([
      'good',
      'good',
      'bad',
      'bad',
      'bad',
      'warn',
      'warn',
      'bad',
    ]);
  });

  it('shows a done job that left sessions unsent as not-sent, never as done; every status is a state too', () => {
    expect(jobStateOf('done', null)).toBe('done');
    expect(jobStateOf('done', { reason: 'no-nas', sessions: 1 })).toBe('not-sent');
    expect(jobStateOf('failed', null)).toBe('failed');
    expect(stateBadge(jobStateOf('done', { reason: 'no-coa-port', sessions: 1 }))).toBe('bad');
    expect(UNAUTH_JOB_STATUSES.filter((status) => !JOB_STATES.includes(status))).toEqual([]);
    expect(jobStatusOf('not-sent')).toBe('not-sent');
  });

  it('names the reason of a refused login in words; an accept has none', () => {
    expect(attemptReasonKey('accept', null)).toBeNull();
    expect(attemptReasonKey('reject', 'blocked')).toBe('userPage.reason.blocked');
    expect(attemptReasonKey('reject', null)).toBe('userPage.reason.unknown');
    expect(attemptReasonKey('reject', 'toString')).toBe('userPage.reason.unknown');
  });

  it("says why nothing was sent from the dispatcher's detail", () => {
    expect(notSentKey('NAS n1 has no RFC 5176 listener (CoA port 0)')).toBe('jobs.notSent.noPort');
    expect(notSentKey('NAS n1 does not accept CoA-Requests: the session ends …')).toBe('jobs.notSent.refuses');
    expect(notSentKey('its NAS is no longer registered')).toBe('jobs.notSent.noNas');
    expect(notSentKey('no NAS reported this session (started by the CLI)')).toBe('jobs.notSent.noNas');
    expect(notSentKey(null)).toBe('jobs.notSent.other');
    // A session of a job no dispatcher sent to a NAS has no detail of its own: the job's reason names it.
    expect(notSentKey(null, 'no-radius-dispatcher')).toBe('jobs.notSent.noDispatcher');
    expect(notSentKey('its NAS is no longer registered', 'several')).toBe('jobs.notSent.noNas');
  });

  it('has words for every reason a job was not sent', () => {
    expect(new Set(NOT_SENT_REASONS.map(notSentReasonKey)).size).toBe(NOT_SENT_REASONS.length);
    expect(new Set(NOT_SENT_REASONS.map(notSentWhyKey)).size).toBe(NOT_SENT_REASONS.length);
  });

  it('names what keeps Disconnects from every NAS: no radius dispatcher first, then no NAS with a CoA port', () => {
    expect(disconnectProblem(['log'], 0)).toEqual({ key: 'net.banner.noRadius', values: { value: 'log' } });
    expect(disconnectProblem(['log', 'webhook'], 3)).toEqual({
      key: 'net.banner.noRadius',
      values: { value: 'log,webhook' },
    });
    expect(disconnectProblem(['log', 'radius'], 0)).toEqual({ key: 'net.banner.noCoaPort', values: {} });
    expect(disconnectProblem(['radius'], 1)).toBeNull();
  });
});
