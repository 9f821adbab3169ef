import type { ApiRequest } from '../common/request-context.js';
import type { Permission } from './permissions.js';

/** The caller of a request, as the guard established it. Never carries the token value. */
export interface AuthenticatedToken {
  id: string;
  name: string;
  permissions: Permission[];
  /** null: authorised for every venue. */
  venueIds: string[] | null;
  expiresAt: Date | null;
}

/** A request as auth sees it: the caller attached is the whole token. */
export interface AuthenticatedRequest extends ApiRequest {
  token?: AuthenticatedToken;
}
