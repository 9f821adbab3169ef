import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { ApiError, ERROR_MESSAGES } from '../../common/errors/api-error.js';
import { isPublicRoute } from '../../common/public-route.js';
import type { ApiRequest } from '../../common/request-context.js';
import type { AuthenticatedRequest } from '../authenticated-token.js';
import { RADIUS_PERMISSION } from '../permissions.js';
import { RateLimiterService, type RateLimitDecision } from './rate-limiter.service.js';

/**
 * Second global guard, after AuthenticationGuard: counts the request against its token, or against
 * the client IP when it has no valid token, and answers 429 with Retry-After past the limit. Every
 * counted response carries X-RateLimit-Limit, -Remaining and -Reset. Health probes are not counted,
 * nor requests of a kind whose limit is 0, nor FreeRADIUS's (a radius token): rlm_rest would turn a
 * 429 into an Access-Reject, a guest told "wrong password" because the hotspot is busy; its load is
 * bounded by its deadlines and the RADIUS work class instead.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (request.token?.permissions.includes(RADIUS_PERMISSION)) return true;
    const kind = request.token === undefined ? 'unauthenticated' : 'token';
    if (!this.limiter.enabled(kind)) return true;
    const key = request.token === undefined ? clientKey(request) : request.token.id;
    applyRateLimitDecision(http.getResponse<Response>(), await this.limiter.consume(kind, key));
    return true;
  }
}

/** The per-IP counter's key: the client address as Express sees it through TRUST_PROXY hops. */
export function clientKey(request: ApiRequest): string {
  return request.ip ?? 'unknown';
}

/** Sets the X-RateLimit-* headers of `decision`; throws the 429 (with Retry-After) when it refuses. */
export function applyRateLimitDecision(response: Response, decision: RateLimitDecision): void {
  response.setHeader('X-RateLimit-Limit', String(decision.limit));
  if (!decision.allowed) {
    response.setHeader('X-RateLimit-Remaining', '0');
    response.setHeader('X-RateLimit-Reset', String(decision.retryAfterSeconds));
    response.setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, ERROR_MESSAGES.tooManyRequests);
  }
  response.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  response.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
}
