import type { ApiTokenEntity } from './entities/api-token.entity.js';
import type { TokenStatus } from './token-rules.js';

/** An API token as the command line shows it: never its value or hash. */
export interface TokenJson {
  id: string;
  name: string;
  /** The public prefix and the first 6 characters of the secret part (see visiblePrefix), enough to tell tokens apart. */
  prefix: string;
  permissions: string[];
  venueIds: string[] | null;
  status: TokenStatus;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export function toTokenJson(token: ApiTokenEntity, status: TokenStatus): TokenJson {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    permissions: [...token.permissions],
    venueIds: token.venueIds === null ? null : [...token.venueIds],
    status,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}
