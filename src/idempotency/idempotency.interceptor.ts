import { HttpStatus, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, from, of, type Observable } from 'rxjs';
import { ApiError, type ErrorBody } from '../common/errors/api-error.js';
import type { ApiRequest } from '../common/request-context.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_MESSAGES,
  isFinalStatus,
  keyProblem,
  REPLAYED_HEADER,
  requestFingerprint,
  type KeyState,
} from './idempotency.rules.js';
import { IdempotencyKeyTaken, IdempotencyService, type IdempotencyClaim } from './idempotency.service.js';

/** A request the interceptor let through with a key: the route hands the claim to its use case. */
export interface IdempotentRequest extends ApiRequest {
  idempotencyClaim?: IdempotencyClaim;
}

/**
 * The HTTP side of Idempotency-Key on a route: checks the header (400), answers a known key before
 * anything runs (replay, 422 for another request, 409 while in progress), and keeps the route's
 * final error answers. Its successes are kept by the use case, in its own transaction.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const claim = claimOf(request);
    if (claim === null) return next.handle();
    const state = await this.idempotency.stateOf(claim);
    if (state.kind !== 'new') return of(settle(state, response));
    request.idempotencyClaim = claim;
    return next.handle().pipe(catchError((error: unknown) => from(this.afterFailure(claim, error, response))));
  }

  private async afterFailure(claim: IdempotencyClaim, error: unknown, response: Response): Promise<unknown> {
    // Another request with the key committed first: its answer is this one's too.
    if (error instanceof IdempotencyKeyTaken) return settle(await this.idempotency.stateOf(claim), response);
    if (error instanceof ApiError && isFinalStatus(error.getStatus())) {
      await this.idempotency.keepError(claim, { status: error.getStatus(), headers: {}, body: error.body });
    }
    throw error;
  }
}

function claimOf(request: IdempotentRequest): IdempotencyClaim | null {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return null;
  const problem = keyProblem(value);
  if (problem !== null) throw ApiError.validation([{ field: IDEMPOTENCY_KEY_HEADER, message: problem }]);
  if (request.token === undefined) throw new Error('Idempotency-Key on a route without authentication');
  const fingerprint = requestFingerprint({
    method: request.method,
    path: request.path,
    query: request.query,
    body: request.body as unknown,
  });
  return { tokenId: request.token.id, key: value as string, fingerprint };
}

/**
 * The answer for a key another request holds. A replayed success returns its body (the route's own
 * status code is the stored one); a replayed error is thrown for the error filter to write as before.
 */
function settle(state: KeyState, response: Response): unknown {
  if (state.kind === 'mismatch') throw new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, IDEMPOTENCY_MESSAGES.mismatch);
  // A holder that is gone again ('new', 'expired') rolled back or was forgotten: the client may retry.
  if (state.kind !== 'replay') throw new ApiError(HttpStatus.CONFLICT, IDEMPOTENCY_MESSAGES.inProgress);
  const { answer } = state;
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  response.setHeader(REPLAYED_HEADER, 'true');
  const body = JSON.parse(answer.body) as unknown;
  if (answer.status >= 400) {
    const error = body as ErrorBody;
    throw new ApiError(answer.status, error.message, error.errors);
  }
  response.status(answer.status);
  return body;
}
