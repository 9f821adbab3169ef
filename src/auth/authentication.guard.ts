import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { REQUIRED_PERMISSION } from './auth.decorators.js';
import { RADIUS_PERMISSION } from './permissions.js';
import type { Response } from 'express';
import { isPublicRoute } from '../common/public-route.js';
import { ApiTokenService } from './api-token.service.js';
import type { AuthenticatedRequest } from './authenticated-token.js';
import { applyRateLimitDecision, clientKey } from './rate-limit/rate-limit.guard.js';
import { RateLimiterService } from './rate-limit/rate-limiter.service.js';
import { bearerToken } from './token-value.js';

/**
 * First global guard: identifies the caller. A valid bearer token is attached to the request; a
 * missing or invalid one is not refused here, so that the rate limiter (the next guard) can count
 * such requests per client IP before PermissionGuard answers 401. A token the cache cannot vouch for costs
 * a database lookup, so a client IP already over its per-IP limit is refused (429) before it.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ApiTokenService,
    private readonly limiter: RateLimiterService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isPublicRoute(this.reflector, context)) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const value = bearerToken(request.headers.authorization);
    if (value === null) return true;
    const response = http.getResponse<Response>();
    // FreeRADIUS's routes look their token up in RADIUS's database lane.
    const required = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_PERMISSION, [
      context.getHandler(),
      context.getClass(),
    ]);
    const lane = required === RADIUS_PERMISSION ? 'radius' : 'general';
    const token = await this.tokens.authenticate(value, () => this.refuseClientOverLimit(request, response), lane);
    if (token !== null) request.token = token;
    return true;
  }

  private async refuseClientOverLimit(request: AuthenticatedRequest, response: Response): Promise<void> {
    if (!this.limiter.enabled('unauthenticated')) return;
    const refusal = await this.limiter.exhausted('unauthenticated', clientKey(request));
    if (refusal !== null) applyRateLimitDecision(response, refusal);
  }
}
