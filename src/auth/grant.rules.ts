import { permissionLevel, RADIUS_PERMISSION, satisfies, type Permission } from './permissions.js';

/** Rights as tokens and operators hold them: permissions, and venues (null: every venue). */
export interface Rights {
  permissions: readonly Permission[];
  venueIds: readonly string[] | null;
}

/**
 * Why `grantor` may not give `granted` (to a token or an operator), or manage someone who holds it,
 * or null when it may: nobody gives more than it holds. The level (read < write < delete) is at
 * most the grantor's; restricted to venues, the grantor gives only some of its own venues, never
 * every venue; `radius` (every NAS of every venue) needs a grantor of every venue at delete level.
 */
export function grantProblem(grantor: Rights, granted: Rights): string | null {
  if (granted.permissions.includes(RADIUS_PERMISSION)) {
    if (grantor.venueIds !== null || permissionLevel(grantor.permissions) !== 'delete') {
      return 'radius needs every venue and the delete level';
    }
  }
  const level = permissionLevel(granted.permissions);
  if (level !== null && !satisfies(grantor.permissions, level)) {
    return `${level} is more than your own level (${permissionLevel(grantor.permissions) ?? 'none'})`;
  }
  if (grantor.venueIds === null) return null;
  if (granted.venueIds === null) return 'every venue is more than your own venues';
  const own = new Set(grantor.venueIds);
  const outside = granted.venueIds.filter((venueId) => !own.has(venueId));
  return outside.length === 0 ? null : `outside your venues: ${outside.join(', ')}`;
}

/** A grant beyond the grantor's own rights (grantProblem). */
export class GrantRefusedError extends Error {
  constructor(readonly problem: string) {
    super(`Refused: ${problem}`);
    this.name = 'GrantRefusedError';
  }
}

/** Throws GrantRefusedError when `grantor` (null: the command line, which may do anything) may not give `granted`. */
export function assertGrantable(grantor: Rights | null, granted: Rights): void {
  if (grantor === null) return;
  const problem = grantProblem(grantor, granted);
  if (problem !== null) throw new GrantRefusedError(problem);
}
