import type { UnauthJobSession } from './entities/unauth-job.entity.js';

/**
 * How a job's deliveries stand, per dispatcher, and for per-session dispatchers (RADIUS) per session.
 * Pure rules: the worker applies them to what each dispatcher reports.
 */

/**
 * `acked`: the NAS ended (or changed) the session; `gone`: NAK 503, the NAS has no such session;
 * `stopped`: the NAS's accounting said the session is over (a Stop, or the NAS's Accounting-On/Off)
 * before a Disconnect reached it, so none is sent; `skipped`: nothing to send it to (no NAS, NAS
 * without RFC 5176 listener); `failed`: NAK 401-407, a configuration problem, not retried; `retry`:
 * no answer or another NAK, sent again with the job.
 */
export const SESSION_RESULTS = ['acked', 'gone', 'stopped', 'skipped', 'failed', 'retry'] as const;
export type SessionResult = (typeof SESSION_RESULTS)[number];

/** What a per-session dispatcher reports for one session of one attempt. */
export interface SessionDispatchResult {
  sessionId: string;
  result: SessionResult;
  /** The Error-Cause of a NAK (or of an ACK that carried one). */
  errorCause: number | null;
  /** Why it was skipped, failed or is retried. */
  detail: string | null;
  /** The NAS's name, when known. */
  nas: string | null;
}

/**
 * The terminate cause of a session whose NAS confirmed it is over (`acked`, `gone`); null for the
 * other results, which say nothing of the session's end.
 */
export function confirmedEndCause(result: SessionResult): string | null {
  if (result === 'acked') return 'disconnected';
  if (result === 'gone') return 'disconnect-not-found';
  return null;
}

/** A session's outcome as stored on the job. */
export interface SessionOutcome extends Omit<SessionDispatchResult, 'sessionId'> {
  /** Job attempts that included this session. */
  attempts: number;
  /** When the last result came (ISO 8601). */
  at: string;
}

export const DELIVERY_STATUSES = ['pending', 'done', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface Delivery {
  status: DeliveryStatus;
  /** Job attempts that ran this dispatcher. */
  attempts: number;
  lastError: string | null;
  /** When the last attempt ended (ISO 8601). */
  at: string;
  /** Per session, for per-session dispatchers. */
  sessions?: Record<string, SessionOutcome>;
}

/** Dispatcher name → its delivery. */
export type Deliveries = Record<string, Delivery>;

const SETTLED: readonly SessionResult[] = ['acked', 'gone', 'stopped', 'skipped', 'failed'];
const DONE: readonly SessionResult[] = ['acked', 'gone', 'stopped', 'skipped'];

function isSettled(outcome: SessionOutcome | undefined): boolean {
  return outcome !== undefined && SETTLED.includes(outcome.result);
}

/** The sessions a per-session dispatcher still has to send: those without a settled outcome. */
export function unsettledSessions(
  sessions: readonly UnauthJobSession[],
  delivery: Delivery | undefined,
): UnauthJobSession[] {
  return sessions.filter((session) => !isSettled(delivery?.sessions?.[session.id]));
}

/** Whether this delivery still has work (a new or pending one). */
export function isOpen(delivery: Delivery | undefined): boolean {
  return delivery === undefined || delivery.status === 'pending';
}

/**
 * The delivery after one attempt: `error` when the dispatcher failed as a whole, else `results` for
 * per-session dispatchers (merged into the stored outcomes) or null for whole-job ones (delivered).
 * Done when every session is done, failed when every session is settled and one failed, else pending.
 */
export function deliveryAfter(
  previous: Delivery | undefined,
  outcome: { error: string } | { results: SessionDispatchResult[] | null },
  now: Date,
): Delivery {
  const at = now.toISOString();
  const attempts = (previous?.attempts ?? 0) + 1;
  if ('error' in outcome) return { ...previous, status: 'pending', attempts, lastError: outcome.error, at };
  if (outcome.results === null) return { ...previous, status: 'done', attempts, lastError: null, at };
  const sessions = { ...(previous?.sessions ?? {}) };
  for (const { sessionId, ...result } of outcome.results) {
    sessions[sessionId] = { ...result, attempts: (sessions[sessionId]?.attempts ?? 0) + 1, at };
  }
  const outcomes = Object.values(sessions);
  const problems = Object.entries(sessions)
    .filter(([, session]) => !DONE.includes(session.result))
    .map(([id, session]) => `session ${id}: ${session.detail ?? session.result}`);
  const status: DeliveryStatus = outcomes.some((session) => !isSettled(session))
    ? 'pending'
    : outcomes.some((session) => session.result === 'failed')
      ? 'failed'
      : 'done';
  return { status, attempts, lastError: problems.length === 0 ? null : problems.join('; '), at, sessions };
}

/** A dispatcher that does not handle this kind of job. */
export function skippedDelivery(reason: string, now: Date): Delivery {
  return { status: 'skipped', attempts: 0, lastError: reason, at: now.toISOString() };
}

export type JobVerdict = 'done' | 'failed' | 'retry';

/** The job after an attempt: retried while a delivery is pending, then failed if any failed, else done. */
export function jobVerdict(deliveries: Deliveries): JobVerdict {
  const all = Object.values(deliveries);
  if (all.some((delivery) => delivery.status === 'pending')) return 'retry';
  return all.some((delivery) => delivery.status === 'failed') ? 'failed' : 'done';
}

/** The deliveries once attempts ran out: those still pending have failed, and so have their open sessions. */
export function exhausted(deliveries: Deliveries): Deliveries {
  return Object.fromEntries(
    Object.entries(deliveries).map(([name, delivery]) => [
      name,
      delivery.status === 'pending' ? { ...delivery, status: 'failed' as const } : delivery,
    ]),
  );
}

/** The job's last error: each delivery's, prefixed with the dispatcher's name when there are several. */
export function errorOf(deliveries: Deliveries): string | null {
  const several = Object.keys(deliveries).length > 1;
  const errors = Object.entries(deliveries)
    .filter(
      ([, delivery]) => delivery.status !== 'done' && delivery.status !== 'skipped' && delivery.lastError !== null,
    )
    .map(([name, delivery]) => (several ? `${name}: ${delivery.lastError}` : String(delivery.lastError)));
  return errors.length === 0 ? null : errors.join(' | ');
}

/** Sessions by result, over every per-session delivery: `{ acked: 2, retry: 1 }`. */
export function sessionCounts(deliveries: Deliveries | null): Partial<Record<SessionResult, number>> {
  const counts: Partial<Record<SessionResult, number>> = {};
  for (const delivery of Object.values(deliveries ?? {})) {
    for (const outcome of Object.values(delivery.sessions ?? {}))
      counts[outcome.result] = (counts[outcome.result] ?? 0) + 1;
  }
  return counts;
}

/** One short line: `radius done (acked 2), webhook pending`. */
export function deliverySummary(deliveries: Deliveries | null): string {
  const entries = Object.entries(deliveries ?? {});
  if (entries.length === 0) return '-';
  return entries
    .map(([name, delivery]) => {
      const counts = Object.entries(sessionCounts({ [name]: delivery }))
        .map(([result, count]) => `${result} ${count}`)
        .join(', ');
      return `${name} ${delivery.status}${counts === '' ? '' : ` (${counts})`}`;
    })
    .join(', ');
}
