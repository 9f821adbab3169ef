import { Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PageRefusal } from '../../web/errors.js';
import { PortalPages } from '../portal-pages.js';
import { PortalScreen } from '../portal-screen.decorator.js';
import { portalAssetsDir } from '../portal-views.js';
import { themeCss } from './theme.rules.js';

const STATIC_TYPES: Record<string, string> = {
  'portal.css': 'text/css; charset=utf-8',
  'portal.js': 'text/javascript; charset=utf-8',
};

/** What every portal page shares: its static files and each venue's colours (theme.css). */
@PortalScreen()
export class PortalShellController {
  private readonly staticFiles = new Map(
    Object.keys(STATIC_TYPES).map((name) => [name, readFileSync(join(portalAssetsDir(), 'static', name))]),
  );

  constructor(private readonly pages: PortalPages) {}

  @Get('static/:file')
  staticFile(@Param('file') name: string, @Res() response: Response): void {
    const body = Object.hasOwn(STATIC_TYPES, name) ? this.staticFiles.get(name) : undefined;
    if (body === undefined) throw new PageRefusal(404, 'error.notFound');
    response.setHeader('Cache-Control', 'public, max-age=3600');
    response.type(STATIC_TYPES[name]).send(body);
  }

  /** The venue's colours as CSS variables (a stylesheet: the pages' policy allows no inline style). */
  @Get(':venueId/theme.css')
  async theme(@Param('venueId') venueId: string, @Res() response: Response): Promise<void> {
    const portal = await this.pages.portal(venueId);
    response.setHeader('Cache-Control', 'no-cache');
    response.type('text/css; charset=utf-8').send(themeCss(portal.colours));
  }
}
