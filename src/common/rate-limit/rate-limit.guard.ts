import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { PUBLIC_ROUTE } from '../../auth/auth.decorators.js';
import { ApiError, ERROR_MESSAGES } from '../errors/api-error.js';
import type { ApiRequest } from '../request-context.js';
import { RateLimiterService } from './rate-limiter.service.js';

/**
 * Second global guard, after AuthenticationGuard: counts the request against its token, or against
 * the client IP when it has no valid token, and answers 429 with Retry-After past the limit. Every
 * counted response carries X-RateLimit-Limit, -Remaining and -Reset. Health probes are not counted.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.limiter.enabled) return true;
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<ApiRequest>();
    const response = http.getResponse<Response>();
    const decision =
      request.token === undefined
        ? await this.limiter.consume('unauthenticated', request.ip ?? 'unknown')
        : await this.limiter.consume('token', request.token.id);
    response.setHeader('X-RateLimit-Limit', String(decision.limit));
    if (!decision.allowed) {
      response.setHeader('X-RateLimit-Remaining', '0');
      response.setHeader('X-RateLimit-Reset', String(decision.retryAfterSeconds));
      response.setHeader('Retry-After', String(decision.retryAfterSeconds));
      throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, ERROR_MESSAGES.tooManyRequests);
    }
    response.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    response.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
    return true;
  }
}
