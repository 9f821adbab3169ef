/**
 * The pure rules of the metrics: how a request, a count or a time becomes a label or a value. No
 * I/O; every label value they return comes from a bounded set.
 */

/** The status class of an HTTP status: `2xx` … `5xx` (anything else: `other`). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The method as a label: one of the usual seven, else `other` (a client may send any token). */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other';
}

/**
 * The route template of a request that reached a route (`/api/v1/hotspot-users/:id`), never its
 * path: a request that matched no route is `unmatched`, whatever path it asked for.
 */
export function routeLabel(route: { path?: unknown } | undefined, baseUrl: string | undefined): string {
  if (route === undefined || typeof route.path !== 'string') return 'unmatched';
  const template = `${baseUrl ?? ''}${route.path}`;
  return template.length > 200 ? 'unmatched' : template;
}

/** A 429 the rate limiter gave (it sets X-RateLimit-Limit), not another refusal. */
export function refusedByRateLimiter(status: number, rateLimitHeader: unknown): boolean {
  return status === 429 && rateLimitHeader !== undefined;
}

/** Active sessions per venue, labelled by venue only while there are at most `maxVenues` of them. */
export function venueSessionSeries(
  counts: ReadonlyArray<{ venueId: string; sessions: number }>,
  maxVenues: number,
): { total: number; perVenue: ReadonlyArray<{ venueId: string; sessions: number }> } {
  const total = counts.reduce((sum, { sessions }) => sum + sessions, 0);
  return { total, perVenue: counts.length <= maxVenues ? counts : [] };
}

/** Whether a value read from the database at `readAt` (ms) is still fresh enough to serve at `now`. */
export function isFresh(readAt: number | null, now: number, maxAgeMs: number): boolean {
  return readAt !== null && now - readAt < maxAgeMs;
}

/** Seconds since `oldest` at `now`, 0 when nothing is waiting. */
export function ageSeconds(oldest: Date | null, now: Date): number {
  return oldest === null ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000);
}
