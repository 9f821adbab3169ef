import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/errors/api-error.js';
import type { ApiRequest } from '../common/request-context.js';
import { ApiTokenService } from './api-token.service.js';
import { PUBLIC_ROUTE, REQUIRED_PERMISSION } from './auth.decorators.js';
import { satisfies, type Permission } from './permissions.js';
import { bearerToken } from './token-value.js';

/**
 * Global guard: every route needs a valid bearer token unless marked @Public(); a route's
 * @RequirePermission level is then checked (401 before 403, as DECISIONS orders them).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ApiTokenService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<ApiRequest>();
    const value = bearerToken(request.headers.authorization);
    const token = value === null ? null : await this.tokens.authenticate(value);
    if (token === null) throw ApiError.unauthorized();
    request.token = token;

    const required = this.reflector.getAllAndOverride<Permission | 'any' | undefined>(REQUIRED_PERMISSION, targets);
    // A route that forgot to declare its level is treated as needing the highest one.
    const level: Permission = required === 'any' ? 'read' : (required ?? 'delete');
    if (!satisfies(token.permissions, level)) throw ApiError.forbidden();
    return true;
  }
}
