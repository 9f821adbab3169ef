import { Injectable } from '@nestjs/common';
import { surfaceDir } from '../web/assets.js';
import { WebViews } from '../web/views.js';

/** The folder of the portal's templates, catalogues and static files (src/portal/). */
export function portalAssetsDir(): string {
  return surfaceDir('portal', 'shell/layout.eta');
}

/** The portal's pages: the templates and catalogues of its screens' folders under src/portal/. */
@Injectable()
export class PortalViews extends WebViews {
  constructor() {
    super(portalAssetsDir());
  }
}
