import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/public-route.js';
import { PortalExceptionFilter } from './portal-exception.filter.js';
import { PortalGuard } from './portal.guard.js';

/**
 * A controller of guest portal pages under /portal: left out of the OpenAPI document, open to anyone
 * (no API token: the guest is not signed in yet), guarded by PortalGuard and answering errors as pages.
 */
export function PortalScreen(): ClassDecorator {
  return applyDecorators(
    ApiExcludeController(),
    Public(),
    Controller('portal'),
    UseGuards(PortalGuard),
    UseFilters(PortalExceptionFilter),
  );
}
