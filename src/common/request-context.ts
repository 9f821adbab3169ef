import type { Request } from 'express';

/** The caller as cross-cutting code (the request log) sees it; auth attaches the full token. */
export interface RequestCaller {
  id: string;
  name: string;
}

/** What the service attaches to each Express request. */
export interface ApiRequest extends Request {
  requestId: string;
  /** Set once the caller's token has been verified. */
  token?: RequestCaller;
}
