import { Get, Param, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Deadline } from '../../common/load/deadline.js';
import { UsageService } from '../../usage/usage.service.js';
import { VenuesService } from '../../venues/venues.service.js';
import { bytesText, timeHtml } from '../../web/format.js';
import { DEFAULT_LANGUAGE } from '../../web/language.js';
import { PortalPages } from '../portal-pages.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalScreen } from '../portal-screen.decorator.js';
import { statusView } from './status.rules.js';

/**
 * /portal/:venueId/status: where the hand-over lands when the gateway names no page of its own. The
 * user this visit admitted: until when it is valid, the time and data its plan leaves (src/usage),
 * and the gateway's log-out link.
 */
@PortalScreen()
export class PortalStatusController {
  constructor(
    private readonly pages: PortalPages,
    private readonly usage: UsageService,
    private readonly venues: VenuesService,
  ) {}

  @Get(':venueId/status')
  async status(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portal(venueId);
    const session = request.portalSession ?? null;
    const admitted = session?.admitted ?? null;
    const language = request.portalLanguage ?? DEFAULT_LANGUAGE;
    if (admitted === null) {
      await this.pages.render(request, response, 200, 'status/status', portal, { view: null });
      return;
    }
    const standing = await this.usage.loginStanding(
      admitted.userId,
      venueId,
      session?.gateway.mac ?? '',
      Deadline.none,
      'general',
    );
    const view = statusView(admitted.expiresAt, standing);
    const zone = (await this.venues.list()).find((venue) => venue.id === venueId)?.timeZone ?? null;
    await this.pages.render(request, response, 200, 'status/status', portal, {
      view,
      validUntil: view.validUntil === null ? null : timeHtml(new Date(view.validUntil), zone, language),
      dataLeft: view.bytesLeft === null ? null : bytesText(view.bytesLeft, language),
      logoutUrl: session?.gateway.logoutUrl ?? null,
    });
  }
}
