import { Injectable } from '@nestjs/common';
import { WebViews } from '../web/views.js';
import { consoleAssetsDir } from './console-assets.js';

/** The console's pages: the templates and catalogues of its screens' folders under src/console/. */
@Injectable()
export class ConsoleViews extends WebViews {
  constructor() {
    super(consoleAssetsDir());
  }
}
