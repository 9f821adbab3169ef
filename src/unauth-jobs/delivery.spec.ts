import {
  confirmedEndCause,
  deliveryAfter,
  deliverySummary,
  errorOf,
  exhausted,
  jobVerdict,
  unsettledSessions,
  type Delivery,
  type SessionDispatchResult,
} from './delivery.js';
import type { UnauthJobSession } from './entities/unauth-job.entity.js';

const T1 = new Date('2030-01-01T00:00:01.000Z');
const T2 = new Date('2030-01-01T00:00:02.000Z');

const session = (id: string): UnauthJobSession => ({
  id,
  venueId: 'v',
  macAddress: 'AA:BB:CC:DD:EE:01',
  ipAddress: null,
  nasId: 'nas',
});
const result = (
  sessionId: string,
  kind: SessionDispatchResult['result'],
  errorCause: number | null = null,
): SessionDispatchResult => ({
  sessionId,
  result: kind,
  errorCause,
  detail: kind === 'acked' || kind === 'gone' ? null : `${kind} detail`,
  nas: 'nas-a',
});

describe('delivery rules', () => {
  it('a whole-job dispatcher is done when it resolves, pending with its error when it rejects', () => {
    expect(deliveryAfter(undefined, { results: null }, T1)).toEqual({
      status: 'done',
      attempts: 1,
      lastError: null,
      at: T1.toISOString(),
    });
    const failed = deliveryAfter(undefined, { error: 'webhook answered HTTP 500' }, T1);
    expect(failed).toEqual({
      status: 'pending',
      attempts: 1,
      lastError: 'webhook answered HTTP 500',
      at: T1.toISOString(),
    });
    expect(deliveryAfter(failed, { results: null }, T2)).toMatchObject({
      status: 'done',
      attempts: 2,
      lastError: null,
    });
  });

  it('per session: ACK, NAK 503 and skipped are done; a retry keeps the delivery pending', () => {
    const first = deliveryAfter(
      undefined,
      { results: [result('s1', 'acked'), result('s2', 'retry'), result('s3', 'skipped')] },
      T1,
    );
    expect(first.status).toBe('pending');
    expect(first.lastError).toBe('session s2: retry detail');
    expect(unsettledSessions([session('s1'), session('s2'), session('s3')], first).map((s) => s.id)).toEqual(['s2']);
    const second = deliveryAfter(first, { results: [result('s2', 'gone', 503)] }, T2);
    expect(second.status).toBe('done');
    expect(second.lastError).toBeNull();
    expect(second.sessions).toEqual({
      s1: { result: 'acked', errorCause: null, detail: null, nas: 'nas-a', attempts: 1, at: T1.toISOString() },
      s2: { result: 'gone', errorCause: 503, detail: null, nas: 'nas-a', attempts: 2, at: T2.toISOString() },
      s3: {
        result: 'skipped',
        errorCause: null,
        detail: 'skipped detail',
        nas: 'nas-a',
        attempts: 1,
        at: T1.toISOString(),
      },
    });
  });

  it('a permanent failure is settled (never resent); the delivery fails once nothing is left to retry', () => {
    const first = deliveryAfter(undefined, { results: [result('s1', 'failed', 404), result('s2', 'retry')] }, T1);
    expect(first.status).toBe('pending');
    expect(unsettledSessions([session('s1'), session('s2')], first).map((s) => s.id)).toEqual(['s2']);
    const second = deliveryAfter(first, { results: [result('s2', 'acked')] }, T2);
    expect(second.status).toBe('failed');
    expect(second.lastError).toBe('session s1: failed detail');
  });

  it('a session the NAS reported stopped (accounting) is settled and done, never resent', () => {
    const first = deliveryAfter(undefined, { results: [result('s1', 'retry'), result('s2', 'acked')] }, T1);
    const second = deliveryAfter(first, { results: [result('s1', 'stopped')] }, T2);
    expect(second.status).toBe('done');
    expect(second.lastError).toBeNull();
    expect(unsettledSessions([session('s1'), session('s2')], second)).toEqual([]);
  });

  it('the job: retried while a delivery is pending, then failed if one failed, else done', () => {
    const done: Delivery = { status: 'done', attempts: 1, lastError: null, at: '' };
    const pending: Delivery = { status: 'pending', attempts: 1, lastError: 'x', at: '' };
    const failed: Delivery = { status: 'failed', attempts: 1, lastError: 'y', at: '' };
    const skipped: Delivery = { status: 'skipped', attempts: 0, lastError: 'coa', at: '' };
    expect(jobVerdict({ radius: done, webhook: done })).toBe('done');
    expect(jobVerdict({ radius: done, webhook: skipped })).toBe('done');
    expect(jobVerdict({ radius: failed, webhook: pending })).toBe('retry');
    expect(jobVerdict({ radius: failed, webhook: done })).toBe('failed');
    expect(exhausted({ radius: done, webhook: pending })).toEqual({
      radius: done,
      webhook: { ...pending, status: 'failed' },
    });
    expect(errorOf({ radius: failed, webhook: pending, log: done })).toBe('radius: y | webhook: x');
    expect(errorOf({ webhook: pending })).toBe('x');
  });

  it('a session the NAS confirmed over ends with a cause; other results end nothing', () => {
    expect(confirmedEndCause('acked')).toBe('disconnected');
    expect(confirmedEndCause('gone')).toBe('disconnect-not-found');
    // A stopped session was ended by the NAS's accounting already.
    for (const result of ['stopped', 'skipped', 'failed', 'retry'] as const)
      expect(confirmedEndCause(result)).toBeNull();
  });

  it('summarises deliveries on one line', () => {
    const radius = deliveryAfter(
      undefined,
      { results: [result('s1', 'acked'), result('s2', 'acked'), result('s3', 'retry')] },
      T1,
    );
    expect(deliverySummary({ radius, webhook: { status: 'done', attempts: 1, lastError: null, at: '' } })).toBe(
      'radius pending (acked 2, retry 1), webhook done',
    );
    expect(deliverySummary(null)).toBe('-');
  });
});
