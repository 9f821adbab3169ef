import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpStatus } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
import { ApiError, ERROR_MESSAGES, type FieldError } from '../errors/api-error.js';
import { FORBIDDEN_KEYS } from '../validation/validators.js';

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

/** The `type` of the parser's error for a body that is not valid UTF-8 (the filter names it). */
export const BODY_NOT_UTF8 = 'entity.verify.not.utf8';

/**
 * The JSON parser's `verify` hook: a UTF-8 body must be valid UTF-8. The decoder would otherwise put
 * U+FFFD in place of each bad byte, and the text would be stored other than it was sent. The parser
 * wraps what this throws (a plain error: it assigns properties to it) into its 400.
 */
export function requireUtf8Body(_req: Request, _res: Response, body: Buffer, encoding: string): void {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(body)) {
    throw Object.assign(new Error('body is not valid UTF-8'), { status: HttpStatus.BAD_REQUEST, type: BODY_NOT_UTF8 });
  }
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

/**
 * Entries for keys that could pollute prototypes (`__proto__`, `constructor`, `prototype`) anywhere in
 * a body, named by the top-level field holding them. They are checked here, on the parsed body,
 * because the validation pipe strips such keys silently before any rule could see them.
 */
function forbiddenKeyErrors(body: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (FORBIDDEN_KEYS.has(field)) {
      errors.push({ field, message: `${field} is not an allowed field` });
      continue;
    }
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      const forbidden = Object.keys(node).find((key) => FORBIDDEN_KEYS.has(key));
      if (forbidden !== undefined) {
        errors.push({ field, message: `${field} must not use the key ${forbidden}` });
        break;
      }
      stack.push(...Object.values(node));
    }
  }
  return errors;
}

/** After parsing: a body must be a JSON object, not absurdly deep, without prototype keys. */
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
  const forbidden = forbiddenKeyErrors(body as Record<string, unknown>);
  next(forbidden.length > 0 ? ApiError.validation(forbidden) : undefined);
}

/**
 * The body checks around the JSON parser as one Express layer: the media type (415), the parser
 * (400 for malformed JSON, 413 past the size limit), then the shape of what it parsed. A request
 * that announces no body (neither Content-Length nor Transfer-Encoding: every GET of a well-behaved
 * client) skips all three, as each of them would let it through untouched.
 */
export function bodyChecks(parseJson: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      next();
      return;
    }
    requireJsonBody(req, res, (mediaTypeError?: unknown) => {
      if (mediaTypeError !== undefined) {
        next(mediaTypeError);
        return;
      }
      void parseJson(req, res, (parseError?: unknown) => {
        if (parseError !== undefined) next(parseError);
        else requireObjectBody(req, res, next);
      });
    });
  };
}
