import type { AuthenticatedToken } from './authenticated-token.js';
import type { ApiTokenEntity } from './entities/api-token.entity.js';

/** last_used_at is refreshed at most this often per token, so reads do not turn into writes. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** A token's state: revoked wins over expired. */
export type TokenStatus = 'active' | 'revoked' | 'expired';

/** Whether a token with this expiry is past it at `nowMs` (the expiry instant itself counts as past). */
export function isExpired(expiresAt: Date | null, nowMs: number): boolean {
  return expiresAt !== null && expiresAt.getTime() <= nowMs;
}

/** The token's state at `now`. */
export function tokenStatus(token: Pick<ApiTokenEntity, 'revokedAt' | 'expiresAt'>, now: Date): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  if (isExpired(token.expiresAt, now.getTime())) return 'expired';
  return 'active';
}

/**
 * Whether a token returned by a revocation started at `callStartedAt` had been revoked before it: a
 * revocation keeps the first time, so an earlier time means an earlier revocation.
 */
export function wasRevokedBefore(token: Pick<ApiTokenEntity, 'revokedAt'>, callStartedAt: Date): boolean {
  return token.revokedAt !== null && token.revokedAt.getTime() < callStartedAt.getTime();
}

/** Whether a use at `nowMs` should be written to last_used_at, given the last one this instance knows of. */
export function lastUseIsDue(lastUsedAtMs: number | null, nowMs: number): boolean {
  return lastUsedAtMs === null || nowMs - lastUsedAtMs >= LAST_USED_WRITE_INTERVAL_MS;
}

/**
 * Tokens are never deleted and a revocation is final, so the number of tokens and of revoked ones
 * change whenever a token is created or revoked: together they name the table's revision.
 */
export function tokenRevision(counts: { total: number; revoked: number }): string {
  return `${counts.total}:${counts.revoked}`;
}

/** What a request carries about its caller: never the value or its hash. */
export function toAuthenticated(record: ApiTokenEntity): AuthenticatedToken {
  return {
    kind: 'token',
    id: record.id,
    name: record.name,
    permissions: record.permissions,
    venueIds: record.venueIds,
    expiresAt: record.expiresAt,
  };
}
