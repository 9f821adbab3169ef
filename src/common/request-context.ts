import type { Request } from 'express';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';

/** What the service attaches to each Express request. */
export interface ApiRequest extends Request {
  requestId: string;
  token?: AuthenticatedToken;
}
