import type { ApiRequest } from '../common/request-context.js';
import type { Actor } from './actor.js';

/** The caller of a request, as the guard established it. Never carries the token value. */
export interface AuthenticatedToken extends Actor {
  kind: 'token';
  expiresAt: Date | null;
}

/** A request as auth sees it: the caller attached is the whole token. */
export interface AuthenticatedRequest extends ApiRequest {
  token?: AuthenticatedToken;
}
