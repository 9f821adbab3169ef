import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiRequest } from '../common/request-context.js';
import { ApiTokenService } from './api-token.service.js';
import { PUBLIC_ROUTE } from './auth.decorators.js';
import { bearerToken } from './token-value.js';

/**
 * First global guard: identifies the caller. A valid bearer token is attached to the request; a
 * missing or invalid one is not refused here, so that the rate limiter (the next guard) can count
 * such requests per client IP before AuthGuard answers 401.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ApiTokenService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<ApiRequest>();
    const value = bearerToken(request.headers.authorization);
    const token = value === null ? null : await this.tokens.authenticate(value);
    if (token !== null) request.token = token;
    return true;
  }
}
