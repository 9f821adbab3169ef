import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/swagger/error-response.dto.js';
import type { AuthenticatedRequest, AuthenticatedToken } from './authenticated-token.js';
import type { Permission } from './permissions.js';

export const REQUIRED_PERMISSION = 'hotspot:required-permission';

/** The permission level a route needs (read < write < delete). Also documents it in OpenAPI. */
export function RequirePermission(permission: Permission | 'any'): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiBearerAuth(),
    ApiExtension('x-required-permission', permission),
    ApiUnauthorizedResponse({ description: 'Token missing, unknown, revoked or expired', type: ErrorResponseDto }),
    ApiForbiddenResponse({
      description:
        permission === 'any'
          ? 'Forbidden: a radius token (for FreeRADIUS) may call nothing in /api/v1'
          : `Token lacks the ${permission} permission, or a venue lies outside the token's venues (errors names the field)`,
      type: ErrorResponseDto,
    }),
  );
}

/** The authenticated token of the current request. */
export const CurrentToken = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedToken => {
  const token = context.switchToHttp().getRequest<AuthenticatedRequest>().token;
  if (token === undefined) throw new Error('CurrentToken used on a route without authentication');
  return token;
});
