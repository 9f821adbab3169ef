import type { NextFunction, Request, Response } from 'express';
import { ApiError, ERROR_MESSAGES } from '../errors/api-error.js';
import { HttpStatus } from '@nestjs/common';

/** Bodies are JSON objects; deeper nesting than this is refused before validation recurses into it. */
export const MAX_BODY_DEPTH = 16;
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

function isJsonMediaType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** A body that is not JSON (or has no Content-Type) gets 415 instead of being silently ignored. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (METHODS_WITH_BODY.has(req.method) && hasBody(req)) {
    const contentType = req.headers['content-type'];
    if (contentType === undefined || !isJsonMediaType(contentType)) {
      next(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ERROR_MESSAGES.unsupportedMediaType));
      return;
    }
  }
  next();
}

/** Depth of a parsed JSON value, counted without recursion so a hostile body cannot overflow the stack. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

/** After parsing: a body must be a JSON object, and not absurdly deep. */
export function requireObjectBody(req: Request, _res: Response, next: NextFunction): void {
  if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) {
    next();
    return;
  }
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    next(ApiError.validation([{ field: 'body', message: 'body must be a JSON object' }]));
    return;
  }
  if (jsonDepth(body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    next(ApiError.validation([{ field: 'body', message: `body must not nest deeper than ${MAX_BODY_DEPTH} levels` }]));
    return;
  }
  next();
}
