import type { Deliveries, SessionOutcome } from './delivery.js';
import type { UnauthJobSession, UnauthJobStatus } from './entities/unauth-job.entity.js';
import { deliveryReports, notSentOf, notSentReasonOf, sessionReports } from './job-report.js';

const AT = '2030-01-01T12:00:00.000Z';
const SESSION: UnauthJobSession = {
  id: 's1',
  venueId: 'venue-a',
  macAddress: 'AA:BB:CC:00:00:01',
  ipAddress: null,
  nasId: 'lobby-gw',
};

function outcome(result: SessionOutcome['result'], errorCause: number | null = null): SessionOutcome {
  return { result, errorCause, detail: result === 'acked' ? null : 'why', nas: 'lobby', attempts: 2, at: AT };
}

function reportOf(status: UnauthJobStatus, stored?: SessionOutcome) {
  const deliveries: Deliveries | null =
    stored === undefined
      ? null
      : { radius: { status: 'done', attempts: 2, lastError: null, at: AT, sessions: { s1: stored } } };
  const [report] = sessionReports({ sessions: [SESSION], status, deliveries });
  return { outcome: report.outcome, state: report.state, errorCause: report.errorCause };
}

describe('sessionReports', () => {
  it.each([
    ['acked', null, 'done', { outcome: 'ack', state: 'done', errorCause: null }],
    [
      'acked',
      201,
      'done',
      { outcome: 'ack', state: 'done', errorCause: { code: 201, name: 'Residual-Session-Context-Removed' } },
    ],
    [
      'gone',
      503,
      'done',
      { outcome: 'nak', state: 'done', errorCause: { code: 503, name: 'Session-Context-Not-Found' } },
    ],
    ['stopped', null, 'done', { outcome: 'stopped-by-nas', state: 'done', errorCause: null }],
    ['skipped', null, 'done', { outcome: 'not-sent', state: 'done', errorCause: null }],
    ['failed', 404, 'failed', { outcome: 'nak', state: 'failed', errorCause: { code: 404, name: 'Invalid-Request' } }],
    ['failed', null, 'failed', { outcome: 'not-sent', state: 'failed', errorCause: null }],
    ['retry', null, 'pending', { outcome: 'no-answer', state: 'pending', errorCause: null }],
    ['retry', null, 'failed', { outcome: 'no-answer', state: 'failed', errorCause: null }],
    [
      'retry',
      506,
      'pending',
      { outcome: 'nak', state: 'pending', errorCause: { code: 506, name: 'Resources-Unavailable' } },
    ],
    ['retry', 999, 'processing', { outcome: 'nak', state: 'pending', errorCause: { code: 999, name: null } }],
  ] as const)('%s (Error-Cause %s) in a %s job', (result, cause, status, expected) => {
    expect(reportOf(status, outcome(result, cause))).toEqual(expected);
  });

  it('a session no attempt reached: waiting while the job is open, not sent once it is over', () => {
    expect(reportOf('pending')).toEqual({ outcome: 'waiting', state: 'pending', errorCause: null });
    expect(reportOf('done')).toEqual({ outcome: 'not-sent', state: 'done', errorCause: null });
    expect(reportOf('failed')).toEqual({ outcome: 'not-sent', state: 'failed', errorCause: null });
  });

  it('keeps the detail, the NAS, the attempts and the time of the outcome', () => {
    const deliveries: Deliveries = {
      webhook: { status: 'done', attempts: 1, lastError: null, at: AT },
      radius: { status: 'pending', attempts: 2, lastError: 'x', at: AT, sessions: { s1: outcome('retry') } },
    };
    expect(sessionReports({ sessions: [SESSION], status: 'pending', deliveries })).toEqual([
      {
        session: SESSION,
        outcome: 'no-answer',
        state: 'pending',
        errorCause: null,
        nas: 'lobby',
        detail: 'why',
        attempts: 2,
        at: AT,
      },
    ]);
  });
});

describe('deliveryReports', () => {
  it('names each dispatcher with its status and attempts, never its error text', () => {
    const deliveries: Deliveries = {
      webhook: { status: 'pending', attempts: 3, lastError: 'webhook answered HTTP 500: secret stuff', at: AT },
    };
    expect(deliveryReports(deliveries)).toEqual([{ dispatcher: 'webhook', status: 'pending', attempts: 3 }]);
    expect(deliveryReports(null)).toEqual([]);
  });
});

describe('notSentOf', () => {
  const S2: UnauthJobSession = { ...SESSION, id: 's2' };
  const log = { status: 'done' as const, attempts: 1, lastError: null, at: AT };
  const skipped = (detail: string): SessionOutcome => ({ ...outcome('skipped'), detail });
  const radius = (sessions: Record<string, SessionOutcome>) => ({
    status: 'done' as const,
    attempts: 1,
    lastError: null,
    at: AT,
    sessions,
  });
  const job = (deliveries: Deliveries | null, status: UnauthJobStatus = 'done', sessions = [SESSION, S2]) => ({
    sessions,
    status,
    deliveries,
  });

  it('a job only the log took sent nothing, whatever its sessions', () => {
    expect(notSentOf(job({ log }))).toEqual({ reason: 'no-radius-dispatcher', sessions: 2 });
  });

  it('a job a webhook took told someone; a coa job the webhook skipped did not', () => {
    expect(notSentOf(job({ log, webhook: log }))).toBeNull();
    const skippedWebhook = { status: 'skipped' as const, attempts: 0, lastError: 'coa', at: AT };
    expect(notSentOf(job({ webhook: skippedWebhook }))).toEqual({ reason: 'no-radius-dispatcher', sessions: 2 });
  });

  it('RADIUS: the sessions it skipped, by the reason of their detail, or several', () => {
    const noPort = skipped('NAS lobby has no RFC 5176 listener (CoA port 0)');
    expect(notSentOf(job({ log, radius: radius({ s1: outcome('acked'), s2: noPort }) }))).toEqual({
      reason: 'no-coa-port',
      sessions: 1,
    });
    const noNas = skipped('no NAS reported this session (started by the CLI)');
    expect(notSentOf(job({ radius: radius({ s1: noNas, s2: skipped('its NAS is no longer registered') }) }))).toEqual({
      reason: 'no-nas',
      sessions: 2,
    });
    expect(notSentOf(job({ radius: radius({ s1: noNas, s2: noPort }) }))).toEqual({ reason: 'several', sessions: 2 });
  });

  it('nothing is missing when every session was answered or stopped by the NAS', () => {
    expect(notSentOf(job({ log, radius: radius({ s1: outcome('acked'), s2: outcome('stopped') }) }))).toBeNull();
    expect(notSentOf(job({ radius: radius({ s1: outcome('gone', 503), s2: outcome('acked') }) }))).toBeNull();
  });

  it('says nothing of an open or failed job, a job without sessions, or one whose deliveries are unknown', () => {
    expect(notSentOf(job({ log }, 'pending'))).toBeNull();
    expect(notSentOf(job({ log }, 'processing'))).toBeNull();
    expect(notSentOf(job({ log }, 'failed'))).toBeNull();
    expect(notSentOf(job({ log }, 'done', []))).toBeNull();
    expect(notSentOf(job(null))).toBeNull();
  });
});

describe('notSentReasonOf', () => {
  it.each([
    ['NAS lobby has no RFC 5176 listener (CoA port 0)', 'no-coa-port'],
    ["NAS lobby does not accept CoA-Requests: the session ends at the user's expiresAt", 'refuses-coa'],
    ['its NAS is no longer registered', 'no-nas'],
    ['no NAS reported this session (started by the CLI)', 'no-nas'],
    ['no address of NAS lobby was recorded inside its registered network', 'other'],
    [null, 'other'],
  ] as const)('%s: %s', (detail, reason) => {
    expect(notSentReasonOf(detail)).toBe(reason);
  });
});
