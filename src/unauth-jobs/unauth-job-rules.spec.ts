import type { SessionEntity } from '../sessions/entities/session.entity.js';
import { UNAUTH_JOB_STATUSES, type UnauthJobEntity } from './entities/unauth-job.entity.js';
import {
  MAX_ERROR_LENGTH,
  claimOf,
  deliveredChanges,
  failedChanges,
  isOpenJob,
  jobSeenFrom,
  nasClientIdsOf,
  newPendingJob,
  releasedChanges,
  retriedChanges,
  sessionsTakingCoa,
  type ClaimedJob,
} from './unauth-job-rules.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const RETRY = { maxAttempts: 3, retryBaseMs: 1000 };
const highest = () => 1 - Number.EPSILON;
const lowest = () => 0;

function session(id: string): SessionEntity {
  return {
    id,
    userId: 'user-1',
    venueId: 'venue-a',
    macAddress: 'AA:BB:CC:DD:EE:01',
    ipAddress: '10.0.0.1',
    nasId: 'nas-1',
    status: 'active',
  } as SessionEntity;
}

function pending(): UnauthJobEntity {
  return newPendingJob(
    'job-1',
    { userId: 'user-1', username: 'guest', reason: 'blocked', sessions: [session('s1')] },
    NOW,
  );
}

describe('unauth job rules', () => {
  it('a new job is pending, due at once, unattempted, and copies only what the network side needs of each session', () => {
    expect({ ...pending() }).toEqual({
      id: 'job-1',
      userId: 'user-1',
      username: 'guest',
      reason: 'blocked',
      sessions: [
        {
          id: 's1',
          venueId: 'venue-a',
          macAddress: 'AA:BB:CC:DD:EE:01',
          ipAddress: '10.0.0.1',
          nasId: 'nas-1',
          nasClientId: undefined,
          acctSessionId: undefined,
          callingStationId: undefined,
          nasIpAddress: undefined,
          nasSourceIp: undefined,
        },
      ],
      status: 'pending',
      notSentReason: null,
      deliveries: null,
      expiresAt: null,
      attempts: 0,
      nextAttemptAt: NOW,
      leaseExpiresAt: null,
      lastError: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('a claim counts the attempt and moves the next attempt to the end of the lease', () => {
    const job = { ...pending(), attempts: 2 };
    const claimed = claimOf(job, NOW, 60_000);
    expect(claimed).toEqual({
      ...job,
      status: 'processing',
      attempts: 3,
      leaseExpiresAt: later(60_000),
      nextAttemptAt: later(60_000),
    });
    expect(job.status).toBe('pending');
  });

  it('a delivered job is done, without lease or error, with its deliveries and what they did not send', () => {
    const deliveries = { log: { status: 'done' as const, attempts: 1, lastError: null, at: NOW.toISOString() } };
    expect(deliveredChanges(deliveries, null, NOW)).toEqual({
      status: 'done',
      notSentReason: null,
      deliveries,
      leaseExpiresAt: null,
      lastError: null,
      updatedAt: NOW,
    });
    expect(deliveredChanges(deliveries, { reason: 'no-radius-dispatcher', sessions: 2 }, NOW)).toMatchObject({
      status: 'done',
      notSentReason: 'no-radius-dispatcher',
    });
  });

  it('a failed attempt before the last is retried after half to all of the backoff', () => {
    const claimed = claimOf(pending(), NOW, 60_000);
    expect(failedChanges(claimed, 'HTTP 500', NOW, RETRY, highest)).toEqual({
      status: 'pending',
      leaseExpiresAt: null,
      nextAttemptAt: later(1000),
      lastError: 'HTTP 500',
      updatedAt: NOW,
    });
    const second: Pick<ClaimedJob, 'attempts'> = { attempts: 2 };
    expect(failedChanges(second, 'HTTP 500', NOW, RETRY, lowest).nextAttemptAt).toEqual(later(1000));
    expect(failedChanges(second, 'HTTP 500', NOW, RETRY, highest).nextAttemptAt).toEqual(later(2000));
  });

  it('the last failed attempt fails the job for good', () => {
    expect(failedChanges({ attempts: 3 }, 'HTTP 503', NOW, RETRY)).toEqual({
      status: 'failed',
      leaseExpiresAt: null,
      lastError: 'HTTP 503',
      updatedAt: NOW,
    });
    expect(failedChanges({ attempts: 4 }, 'HTTP 503', NOW, RETRY).status).toBe('failed');
  });

  it(`keeps at most ${MAX_ERROR_LENGTH} characters of the error`, () => {
    expect(failedChanges({ attempts: 1 }, 'x'.repeat(5000), NOW, RETRY).lastError).toBe('x'.repeat(MAX_ERROR_LENGTH));
    expect(failedChanges({ attempts: 3 }, 'x'.repeat(5000), NOW, RETRY).lastError).toBe('x'.repeat(MAX_ERROR_LENGTH));
  });

  it('a released job is due at once and its attempt does not count', () => {
    expect(releasedChanges({ attempts: 1 }, NOW)).toEqual({
      status: 'pending',
      attempts: 0,
      leaseExpiresAt: null,
      nextAttemptAt: NOW,
      updatedAt: NOW,
    });
  });
});

describe('isOpenJob', () => {
  it('pending and processing jobs are open; done and failed ones are not', () => {
    expect(UNAUTH_JOB_STATUSES.filter(isOpenJob)).toEqual(['pending', 'processing']);
  });
});

describe('sessions of a CoA job', () => {
  const on = (id: string, nasClientId: string | null) => ({ ...session(id), nasClientId });
  const sessions = [on('s1', 'nas-a'), on('s2', 'nas-b'), on('s3', null), on('s4', 'nas-a')];

  it('keeps the sessions whose NAS is not known to refuse CoA, and those without a registered NAS', () => {
    expect(sessionsTakingCoa(sessions, new Set(['nas-a'])).map((entry) => entry.id)).toEqual(['s2', 's3']);
    expect(sessionsTakingCoa(sessions, new Set())).toEqual(sessions);
    expect(sessionsTakingCoa([on('s1', 'nas-a')], new Set(['nas-a']))).toEqual([]);
  });

  it('names each registered NAS once', () => {
    expect(nasClientIdsOf(sessions)).toEqual(['nas-a', 'nas-b']);
    expect(nasClientIdsOf([])).toEqual([]);
  });
});

describe('a failed job retried', () => {
  const at = '2030-01-01T11:00:00.000Z';
  const outcome = (result: 'acked' | 'failed' | 'retry') => ({
    result,
    errorCause: result === 'acked' ? null : 404,
    detail: null,
    nas: 'nas-1',
    attempts: 3,
    at,
  });

  it('is pending, due now, its attempts from zero, and no longer leased', () => {
    expect(retriedChanges({ deliveries: null }, NOW)).toEqual({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: NOW,
      leaseExpiresAt: null,
      deliveries: null,
      updatedAt: NOW,
    });
  });

  it('opens its failed deliveries and their failed sessions again; what was settled stays settled', () => {
    const changes = retriedChanges(
      {
        deliveries: {
          radius: {
            status: 'failed',
            attempts: 3,
            lastError: 'session s2: refused',
            at,
            sessions: { s1: outcome('acked'), s2: outcome('failed'), s3: outcome('retry') },
          },
          webhook: { status: 'done', attempts: 1, lastError: null, at },
        },
      },
      NOW,
    );
    expect(changes.deliveries).toEqual({
      radius: {
        status: 'pending',
        attempts: 3,
        lastError: 'session s2: refused',
        at,
        sessions: { s1: outcome('acked'), s2: outcome('retry'), s3: outcome('retry') },
      },
      webhook: { status: 'done', attempts: 1, lastError: null, at },
    });
  });
});

describe('a job seen from some venues', () => {
  const at = '2030-01-01T11:00:00.000Z';
  const acked = { result: 'acked' as const, errorCause: null, detail: null, nas: 'nas-1', attempts: 1, at };
  function twoVenues(): UnauthJobEntity {
    const job = newPendingJob(
      'job-1',
      {
        userId: 'user-1',
        username: 'guest',
        reason: 'blocked',
        sessions: [session('s1'), { ...session('s2'), venueId: 'venue-b', ipAddress: '10.9.9.9' }],
      },
      NOW,
    );
    job.deliveries = {
      radius: { status: 'done', attempts: 1, lastError: null, at, sessions: { s1: acked, s2: acked } },
      webhook: { status: 'done', attempts: 1, lastError: null, at },
    };
    return job;
  }

  it("keeps only the sessions of the actor's venues, and only their outcomes", () => {
    const seen = jobSeenFrom(twoVenues(), ['venue-a']);
    expect(seen.sessions.map((s) => s.id)).toEqual(['s1']);
    expect(seen.deliveries).toEqual({
      radius: { status: 'done', attempts: 1, lastError: null, at, sessions: { s1: acked } },
      webhook: { status: 'done', attempts: 1, lastError: null, at },
    });
    expect(JSON.stringify(seen)).not.toContain('10.9.9.9');
  });

  it('is the whole job for an actor of every venue, or of all its venues', () => {
    const job = twoVenues();
    expect(jobSeenFrom(job, null)).toBe(job);
    expect(jobSeenFrom(job, ['venue-a', 'venue-b'])).toBe(job);
  });
});
