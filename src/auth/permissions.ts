export const PERMISSIONS = ['read', 'write', 'delete'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const RANK: Record<Permission, number> = { read: 1, write: 2, delete: 3 };

/** Levels are ordered read < write < delete; a token's level is the highest it holds. */
export function permissionLevel(permissions: readonly Permission[]): Permission | null {
  let best: Permission | null = null;
  for (const permission of permissions) {
    if (best === null || RANK[permission] > RANK[best]) best = permission;
  }
  return best;
}

export function satisfies(held: readonly Permission[], required: Permission): boolean {
  const level = permissionLevel(held);
  return level !== null && RANK[level] >= RANK[required];
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
