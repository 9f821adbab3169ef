export const PERMISSIONS = ['read', 'write', 'delete', 'radius'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The ordered levels of the REST API: read < write < delete. */
export type ApiLevel = Exclude<Permission, 'radius'>;

const RANK: Record<ApiLevel, number> = { read: 1, write: 2, delete: 3 };

/**
 * `radius` is the permission of the FreeRADIUS back end: it opens the /radius/ routes and nothing
 * else, and no API level opens them. It is held alone, so a leaked FreeRADIUS configuration cannot
 * read or change users.
 */
export const RADIUS_PERMISSION = 'radius' satisfies Permission;

function isApiLevel(permission: Permission): permission is ApiLevel {
  return permission !== RADIUS_PERMISSION;
}

/** Levels are ordered read < write < delete; a token's level is the highest it holds (`radius` is no level). */
export function permissionLevel(permissions: readonly Permission[]): ApiLevel | null {
  let best: ApiLevel | null = null;
  for (const permission of permissions) {
    if (!isApiLevel(permission)) continue;
    if (best === null || RANK[permission] > RANK[best]) best = permission;
  }
  return best;
}

export function satisfies(held: readonly Permission[], required: Permission): boolean {
  if (!isApiLevel(required)) return held.includes(RADIUS_PERMISSION);
  const level = permissionLevel(held);
  return level !== null && RANK[level] >= RANK[required];
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** Why a set of permissions cannot be given to one token, or null when it can. */
export function permissionConflict(permissions: readonly Permission[]): string | null {
  if (permissions.includes(RADIUS_PERMISSION) && permissions.some(isApiLevel)) {
    return 'radius cannot be combined with read, write or delete';
  }
  return null;
}
