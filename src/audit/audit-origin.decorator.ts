import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ApiRequest } from '../common/request-context.js';
import type { AuditOrigin } from './audit.rules.js';

/** Where the current request came from, for its audit event: the client address (as TRUST_PROXY lets Express see it) and the request id. */
export const CurrentOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): AuditOrigin => {
  const request = context.switchToHttp().getRequest<ApiRequest>();
  return { clientAddress: request.ip ?? null, requestId: request.requestId };
});
