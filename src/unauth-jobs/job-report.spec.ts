import type { Deliveries, SessionOutcome } from './delivery.js';
import type { UnauthJobSession, UnauthJobStatus } from './entities/unauth-job.entity.js';
import { deliveryReports, sessionReports } from './job-report.js';

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
