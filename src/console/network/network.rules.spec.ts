import {
  attemptReasonKey,
  inVenues,
  jobReasonOf,
  jobStatusOf,
  notSentKey,
  pageNumber,
  stateBadge,
} from './network.rules.js';

describe('console network screens: rules', () => {
  it('takes a page number from 1 to 100000 and 1 for anything else', () => {
    expect(['1', '7', '100000'].map(pageNumber)).toEqual([1, 7, 100000]);
    expect(['', '0', '-1', '1.5', 'x', '100001', '9'.repeat(40), '1e3'].map(pageNumber)).toEqual(Array(8).fill(1));
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
      '',
    ]);
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
  });
});
