import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../common/errors/api-error.js';
import { isPublicRoute } from '../common/public-route.js';
import { REQUIRED_PERMISSION } from './auth.decorators.js';
import type { AuthenticatedRequest } from './authenticated-token.js';
import { satisfies, type Permission } from './permissions.js';

/**
 * Last global guard: every route needs the token AuthenticationGuard found unless marked
 * @Public(); a route's @RequirePermission level is then checked (401 before 403).
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (isPublicRoute(this.reflector, context)) return true;

    const token = context.switchToHttp().getRequest<AuthenticatedRequest>().token;
    if (token === undefined) throw ApiError.unauthorized();

    const targets = [context.getHandler(), context.getClass()];
    const required = this.reflector.getAllAndOverride<Permission | 'any' | undefined>(REQUIRED_PERMISSION, targets);
    // A route that forgot to declare its level is treated as needing the highest one.
    const level: Permission = required === 'any' ? 'read' : (required ?? 'delete');
    if (!satisfies(token.permissions, level)) throw ApiError.forbidden();
    return true;
  }
}
