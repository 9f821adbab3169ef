import { VENUE_ID_PATTERN } from '../../common/validation/validators.js';

/** The pure rules of the dashboard (and of the pages that show a venue's view the same way). */

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
