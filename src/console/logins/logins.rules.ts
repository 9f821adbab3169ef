import { REJECT_MESSAGES } from '../../radius/radius.rules.js';

/** The pure rules of the login attempts screen. */

/** Which outcomes the login attempts list shows: rejections by default, accepted ones, or both. */
export const ATTEMPT_OUTCOME_FILTERS = ['rejected', 'accepted', 'all'] as const;
export type AttemptOutcomeFilter = (typeof ATTEMPT_OUTCOME_FILTERS)[number];

export function attemptOutcomeFilter(raw: string): AttemptOutcomeFilter {
  return (ATTEMPT_OUTCOME_FILTERS as readonly string[]).includes(raw) ? (raw as AttemptOutcomeFilter) : 'rejected';
}

/** The stored outcomes a filter selects (`unknown`: FreeRADIUS did not say accept; it refused). */
export function outcomesOf(filter: AttemptOutcomeFilter): Array<'accept' | 'reject' | 'unknown'> {
  if (filter === 'accepted') return ['accept'];
  if (filter === 'rejected') return ['reject', 'unknown'];
  return ['accept', 'reject', 'unknown'];
}

/** The reject reasons authorize records (REJECT_MESSAGES' keys); any other value reads as not recorded. */
const KNOWN_REASONS: readonly string[] = Object.keys(REJECT_MESSAGES);

/** The message key of an attempt's reason, in words: logins.reason.<reason>, or .none when not recorded. */
export function reasonKey(outcome: string, reason: string | null): string {
  if (outcome === 'accept') return 'logins.reason.accepted';
  return reason !== null && KNOWN_REASONS.includes(reason) ? `logins.reason.${reason}` : 'logins.reason.none';
}

/** A page number from the query: 1 when absent or odd, at most `max`. */
export function pageNumber(raw: string, max: number): number {
  if (!/^\d{1,6}$/.test(raw)) return 1;
  return Math.min(Math.max(Number(raw), 1), max);
}
