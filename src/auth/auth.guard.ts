import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/errors/api-error.js';
import type { ApiRequest } from '../common/request-context.js';
import { PUBLIC_ROUTE, REQUIRED_PERMISSION } from './auth.decorators.js';
import { satisfies, type Permission } from './permissions.js';

/**
 * Last global guard: every route needs the token AuthenticationGuard found unless marked
 * @Public(); a route's @RequirePermission level is then checked (401 before 403, as DECISIONS orders them).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;

    const token = context.switchToHttp().getRequest<ApiRequest>().token;
    if (token === undefined) throw ApiError.unauthorized();

    const required = this.reflector.getAllAndOverride<Permission | 'any' | undefined>(REQUIRED_PERMISSION, targets);
    // A route that forgot to declare its level is treated as needing the highest one.
    const level: Permission = required === 'any' ? 'read' : (required ?? 'delete');
    if (!satisfies(token.permissions, level)) throw ApiError.forbidden();
    return true;
  }
}
