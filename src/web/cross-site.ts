/** Cross-site request refusal, shared by the server-rendered surfaces (console, portal). */

/**
 * Why a state-changing request must be refused as possibly cross-site, or null. Browsers send
 * Sec-Fetch-Site (Fetch Metadata) with every request; only `same-origin` and `none` (typed or
 * bookmarked by the user) pass. Without it, the Origin header must be the service's own origin. A
 * request with neither is refused: every browser sends one of them with a form POST.
 */
export function crossSiteRefusal(
  headers: { secFetchSite?: string; origin?: string },
  ownOrigin: string,
): 'cross-site' | 'no-origin' | null {
  if (headers.secFetchSite !== undefined) {
    return headers.secFetchSite === 'same-origin' || headers.secFetchSite === 'none' ? null : 'cross-site';
  }
  if (headers.origin === undefined) return 'no-origin';
  return headers.origin === ownOrigin ? null : 'cross-site';
}
