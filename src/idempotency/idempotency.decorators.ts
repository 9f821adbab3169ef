import { applyDecorators, createParamDecorator, UseInterceptors, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import { IdempotencyInterceptor, type IdempotentRequest } from './idempotency.interceptor.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, REPLAYED_HEADER } from './idempotency.rules.js';

/** The response header a replay carries, for a route's documented headers. */
export const REPLAYED_RESPONSE_HEADER = {
  [REPLAYED_HEADER]: {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * Makes a route honour `Idempotency-Key` (see IdempotencyInterceptor), and documents the header and
 * the 422 (with `unprocessable`, the route's own reasons for one too). The route documents its own
 * 409 (in progress), next to its other conflicts.
 */
export function Idempotent(unprocessable?: string): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes a retry safe: 1–255 printable ASCII characters, unique per request (e.g. a UUID), scoped to the ' +
        'token and kept 24 hours. The same key with the same request replays the first final answer ' +
        `(marked \`${REPLAYED_HEADER}: true\`) without doing the work again.`,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
    ApiUnprocessableEntityResponse({
      description:
        unprocessable === undefined
          ? IDEMPOTENCY_MESSAGES.mismatch
          : `${IDEMPOTENCY_MESSAGES.mismatch}; or ${unprocessable}`,
      type: ErrorResponseDto,
    }),
  );
}

/** The claim of a request whose Idempotency-Key the interceptor let through; null without a key. */
export const CurrentIdempotencyClaim = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<IdempotentRequest>().idempotencyClaim ?? null,
);
