import { VENUE_ID_PATTERN } from '../common/validation/validators.js';
import { REJECT_MESSAGES } from '../radius/radius.rules.js';

/** The pure rules of the dashboard, the login attempts and the NAS and venue settings screens. */

/** What an operator's page covers: venues (null: every venue) and whether attempts of no venue show. */
export interface VenueView {
  venueIds: string[] | null;
  withoutVenue: boolean;
}

/**
 * The venues a page covers for an operator with `operatorVenues` (null: unrestricted): all of them,
 * or the one asked for. 'invalid' for a malformed id, 'forbidden' for one outside the operator's
 * venues (as the API answers 403). Attempts of no venue (an unknown NAS's) show to unrestricted
 * operators and administrators, and only when no venue is asked for.
 */
export function venueView(
  operatorVenues: readonly string[] | null,
  admin: boolean,
  requested: string,
): VenueView | 'invalid' | 'forbidden' {
  if (requested === '') {
    return {
      venueIds: operatorVenues === null ? null : [...operatorVenues],
      withoutVenue: operatorVenues === null || admin,
    };
  }
  if (!VENUE_ID_PATTERN.test(requested)) return 'invalid';
  if (operatorVenues !== null && !operatorVenues.includes(requested)) return 'forbidden';
  return { venueIds: [requested], withoutVenue: false };
}

/** How a NAS's accounting stands: `silent` without any packet yet, `stale` after the sessions' stale window. */
export type NasFreshness = 'fresh' | 'stale' | 'silent';

export function nasFreshness(lastAccountingAt: Date | null, now: Date, staleAfterMs: number): NasFreshness {
  if (lastAccountingAt === null) return 'silent';
  return now.getTime() - lastAccountingAt.getTime() > staleAfterMs ? 'stale' : 'fresh';
}

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
