import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { ApiRequest } from '../request-context.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps the caller's X-Request-Id when it is a sane token, otherwise makes one; echoes it on every response. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (req as ApiRequest).requestId = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  next();
}
