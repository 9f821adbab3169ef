import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/public-route.js';
import { ConsoleExceptionFilter } from './console-exception.filter.js';
import { ConsoleGuard } from './console.guard.js';

/**
 * A controller of console pages under /admin (or the sub-path `path` names): left out of the OpenAPI document, not for API tokens
 * (the console's own sign-in, ConsoleGuard, decides), and answering every error as a page
 * (ConsoleExceptionFilter).
 */
export function ConsoleScreen(path = 'admin'): ClassDecorator {
  return applyDecorators(
    ApiExcludeController(),
    Public(),
    Controller(path),
    UseGuards(ConsoleGuard),
    UseFilters(ConsoleExceptionFilter),
  );
}
