import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_MESSAGES, type ErrorBody } from '../errors/api-error.js';

/*
 * What every operation shares, added to the generated document in one place rather than on each
 * handler: the statuses the global middleware, guards and filter can answer (with their example
 * bodies) and the response headers they set. Handlers declare only what is their own.
 */

interface Header {
  description: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, Response>;
}

export const HEADERS: Record<string, Header> = {
  'X-Request-Id': {
    description: "The caller's own X-Request-Id when it is 1-128 characters of A-Za-z0-9._:-, else a new one",
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'X-RateLimit-Limit': {
    description:
      'Requests allowed per minute to this token (or, without a valid token, this client IP); sent while a limit applies',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window; sent while a limit applies',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends; sent while a limit applies',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before repeating the request',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'WWW-Authenticate': {
    description: 'The scheme to authenticate with',
    required: true,
    schema: { type: 'string', enum: ['Bearer'] },
  },
};

const ref = (name: string): { $ref: string } => ({ $ref: `#/components/headers/${name}` });
const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Answers of the validation pipe and the handler; guards and body parsing answer before a key is claimed. */
const REPLAYABLE_ERRORS = ['400', '403', '404', '409', '412'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorResponseDto' };

const error = (message: string, errors?: ErrorBody['errors']): ErrorBody =>
  errors === undefined ? { success: false, message } : { success: false, message, errors };

/** The description and example body of each status the shared machinery answers. */
const GENERIC: Record<string, { description: string; example: ErrorBody }> = {
  '400': {
    description: 'Validation error: `errors` names each field (a body that is not valid JSON: `body`)',
    example: error(ERROR_MESSAGES.validation, [{ field: 'body', message: 'body is not valid JSON' }]),
  },
  '401': {
    description: 'Unauthorized: the token is missing, unknown, revoked or expired',
    example: error(ERROR_MESSAGES.unauthorized),
  },
  '403': {
    description:
      "Forbidden: the token lacks the permission, or a venue lies outside the token's venues (`errors` names the field)",
    example: error(ERROR_MESSAGES.forbidden),
  },
  '404': {
    description: 'Kullanıcı bulunamadı: unknown id, or not visible to this token',
    example: error(ERROR_MESSAGES.userNotFound),
  },
  '409': {
    description: 'Conflict',
    example: error(ERROR_MESSAGES.conflict, [
      { field: 'username', message: 'username already used in venue istanbul-lobby' },
    ]),
  },
  '412': {
    description: 'Precondition Failed: the user changed since the If-Match ETag; nothing changed',
    example: error('Precondition Failed'),
  },
  '413': { description: 'Payload Too Large: the body exceeds 100 KiB', example: error(ERROR_MESSAGES.payloadTooLarge) },
  '415': {
    description:
      'Unsupported Media Type: a body that is not application/json (or application/*+json), or one without Content-Type',
    example: error(ERROR_MESSAGES.unsupportedMediaType),
  },
  '422': {
    description: 'The Idempotency-Key was used before with a different request',
    example: error('Idempotency-Key reused with a different request'),
  },
  '429': {
    description: 'Too Many Requests: the rate limit is used up; repeat after Retry-After',
    example: error(ERROR_MESSAGES.tooManyRequests),
  },
  '500': {
    description: 'Internal server error (nothing internal in the body)',
    example: error(ERROR_MESSAGES.internal),
  },
  '503': {
    description:
      'Service Unavailable: the service is saturated (requests of this kind are being shed), the deadline the caller announced (X-Request-Timeout-Ms) has passed, or the database cannot be reached or stayed contended; nothing was done; repeat after Retry-After',
    example: error(ERROR_MESSAGES.serviceUnavailable),
  },
};

/**
 * What an unknown path, or a method a path does not have, answers (with or without a token): 404,
 * unless the body parser, which runs before routing, refused the body first. No operation owns these
 * responses, so they are an extension of the document rather than unused components.
 */
export const UNKNOWN_ROUTE_RESPONSES = 'x-unknown-route-responses';

/** The health probes: the admission never turns them away. */
const PROBES = new Set(['/healthz', '/readyz']);

/** The statuses an operation can answer besides its own: which middleware, guard or filter sends them. */
function sharedStatuses(path: string, method: string, operation: Operation): string[] {
  // The JSON parser runs before routing, for every method: a broken or oversized body is a 400 or 413.
  const statuses = ['400', '413', '500'];
  if (method === 'post' || method === 'put') statuses.push('415');
  if ((operation.security ?? []).length > 0) statuses.push('401', '403', '429');
  // The admission answers 503 before routing (shed, or the caller's deadline passed), probes excepted.
  if (!PROBES.has(path)) statuses.push('503');
  return statuses;
}

/** Adds the shared statuses, examples and headers to every operation of `document`, in place. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  const components = document.components ?? {};
  document.components = components;
  components.headers = { ...components.headers, ...HEADERS };
  const unknownRoute: Record<string, Response> = {
    '404': { description: 'Not Found: no such path, or not this method on it' },
    '400': { description: GENERIC['400'].description },
    '413': { description: GENERIC['413'].description },
    '415': { description: GENERIC['415'].description },
  };
  for (const [status, response] of Object.entries(unknownRoute)) completeResponse(status, response, false);
  unknownRoute['404'].content!['application/json'].example = error(ERROR_MESSAGES.notFound);
  (document as OpenAPIObject & Record<string, unknown>)[UNKNOWN_ROUTE_RESPONSES] = unknownRoute;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const operation = value as Operation;
      // Public operations (the probes) say so, rather than inheriting a security requirement.
      operation.security ??= [];
      const counted = operation.security.length > 0;
      for (const status of sharedStatuses(path, method, operation)) {
        operation.responses[status] ??= { description: GENERIC[status].description };
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        completeResponse(status, response, counted, !PROBES.has(path));
      }
      declareReplays(operation);
    }
  }
  return document;
}

/**
 * An Idempotency-Key route stores whatever its handler answered, errors included, and replays it
 * with the replay header: every answer given after the guards and before the handler's end carries it.
 */
function declareReplays(operation: Operation): void {
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
  const replayed = Object.entries(success?.headers ?? {}).find(([name]) => name === REPLAYED_HEADER);
  if (replayed === undefined) return;
  for (const [status, response] of Object.entries(operation.responses)) {
    if (REPLAYABLE_ERRORS.includes(status)) response.headers = { ...response.headers, [REPLAYED_HEADER]: replayed[1] };
  }
}

function completeResponse(status: string, response: Response, counted: boolean, retriable = counted): void {
  const generic = GENERIC[status];
  if (generic !== undefined) {
    response.content ??= { 'application/json': { schema: ERROR_SCHEMA } };
    const media = response.content['application/json'];
    const isError = JSON.stringify(media.schema) === JSON.stringify(ERROR_SCHEMA);
    if (isError && media.example === undefined && media.examples === undefined) media.example = generic.example;
  }
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('X-Request-Id') };
  if (counted) for (const name of RATE_LIMIT_HEADERS) headers[name] = ref(name);
  if (status === '401') headers['WWW-Authenticate'] = ref('WWW-Authenticate');
  if (status === '429' || (status === '503' && retriable)) headers['Retry-After'] = ref('Retry-After');
  response.headers = { ...headers, ...response.headers };
  if (status === '503' && retriable) response.headers['Retry-After'] = ref('Retry-After');
}
