import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AdmittedRequest } from './admission.middleware.js';
import { Deadline } from './deadline.js';

/** The request's deadline as the admission worked it out (none when the request did not pass through it). */
export const CurrentDeadline = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Deadline =>
    context.switchToHttp().getRequest<Partial<AdmittedRequest>>().deadline ?? Deadline.none,
);
