/** Where the guest portal is mounted; everything under it is the portal's, nothing of the v1 API. */
export const PORTAL_PREFIX = '/portal';

/** Whether `path` is the portal's, in any letter case (Express matches routes regardless of case). */
export function isPortalPath(path: string): boolean {
  const start = path.slice(0, PORTAL_PREFIX.length + 1).toLowerCase();
  return start === PORTAL_PREFIX || start === `${PORTAL_PREFIX}/`;
}

/** A screen of a venue's portal. */
export function portalPath(venueId: string, screen = ''): string {
  return `${PORTAL_PREFIX}/${encodeURIComponent(venueId)}${screen === '' ? '' : `/${screen}`}`;
}
