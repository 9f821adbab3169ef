import { All } from '@nestjs/common';
import { PageRefusal } from '../web/errors.js';
import { Access } from './console.guard.js';
import { ConsoleScreen } from './console-screen.decorator.js';

/**
 * Any other path under /admin: the console's own 404 page, not the API's JSON. Its own controller,
 * listed last in ConsoleModule, so its route is registered after every page's.
 */
@ConsoleScreen()
export class ConsoleNotFoundController {
  @All('*path')
  @Access('anyone')
  notFound(): never {
    throw new PageRefusal(404, 'error.notFound');
  }
}
