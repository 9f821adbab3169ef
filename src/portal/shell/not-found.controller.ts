import { All, Controller, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/public-route.js';
import { PageRefusal } from '../../web/errors.js';
import { PORTAL_PREFIX } from '../portal-paths.js';
import { PortalExceptionFilter } from '../portal-exception.filter.js';
import { PortalPages } from '../portal-pages.js';
import type { PortalRequest } from '../portal-request.js';
import { choosePortalLanguage } from '../portal.guard.js';

const VENUE_ID_MAX_LENGTH = 64;

/**
 * Every other address under /portal, with any method: the portal's 404 page rather than the API's
 * JSON, in the venue's look when the path starts with a venue that has a portal. Registered after
 * every portal screen (last in PortalModule), so it takes only what none of them matches.
 */
@ApiExcludeController()
@Public()
@Controller(PORTAL_PREFIX.slice(1))
@UseFilters(PortalExceptionFilter)
export class PortalNotFoundController {
  constructor(private readonly pages: PortalPages) {}

  @All(['', '{*rest}'])
  async notFound(@Req() request: PortalRequest, @Res() response: Response): Promise<void> {
    choosePortalLanguage(request, response);
    request.portalSession = null;
    const venueId = firstSegment(request.path);
    const portal = venueId === null ? null : await this.pages.openPortal(venueId);
    if (portal === null) throw new PageRefusal(404, 'error.notFound');
    await this.pages.render(request, response, 404, 'shell/error', portal, {
      message: { key: 'error.notFound', values: {} },
      venueId: portal.venueId,
      title: null,
    });
  }
}

/** The path's segment after /portal/, decoded; null when there is none or it cannot be a venue id. */
function firstSegment(path: string): string | null {
  const segment = path.slice(PORTAL_PREFIX.length + 1).split('/')[0] ?? '';
  if (segment === '' || segment.length > 3 * VENUE_ID_MAX_LENGTH) return null;
  try {
    const decoded = decodeURIComponent(segment);
    return decoded.length > VENUE_ID_MAX_LENGTH ? null : decoded;
  } catch {
    return null;
  }
}
