import { All, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/public-route.js';
import { ConsoleExceptionFilter } from './console-exception.filter.js';
import { ConsoleRefusal } from './console-errors.js';
import { Access, ConsoleGuard } from './console.guard.js';

/**
 * Any other path under /admin: the console's own 404 page, not the API's JSON. Its own controller,
 * listed last in ConsoleModule, so its route is registered after every page's.
 */
@ApiExcludeController()
@Public()
@Controller('admin')
@UseGuards(ConsoleGuard)
@UseFilters(ConsoleExceptionFilter)
export class ConsoleNotFoundController {
  @All('*path')
  @Access('anyone')
  notFound(): never {
    throw new ConsoleRefusal(404, 'error.notFound');
  }
}
