import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AdmissionRefused, GuestAccessService } from '../../guest-access/guest-access.service.js';
import type { VenuePortal } from '../../guest-access/venue-portals.service.js';
import { PageRefusal } from '../../web/errors.js';
import { PortalHandover } from '../handover/portal-handover.js';
import { PortalLimits } from '../portal-limits.js';
import { PortalPages } from '../portal-pages.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalScreen } from '../portal-screen.decorator.js';
import { paragraphsOf, termsProblemKey } from './terms.rules.js';

/** The terms-only way (click-through: a guest user of the device's MAC), and the terms and privacy texts. */
@PortalScreen()
export class PortalTermsController {
  constructor(
    private readonly pages: PortalPages,
    private readonly guestAccess: GuestAccessService,
    private readonly handover: PortalHandover,
    private readonly limits: PortalLimits,
  ) {}

  @Get(':venueId/terms')
  async form(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'terms');
    this.pages.session(request, response, venueId, null);
    await this.show(request, response, 200, portal, null);
  }

  @Post(':venueId/terms')
  async accept(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'terms');
    const device = this.pages.device(request);
    await this.limits.consume(request.ip, device.mac);
    try {
      const admission = await this.guestAccess.admitTerms({
        venueId,
        device,
        termsVersion: this.pages.acceptedTerms(request, portal),
      });
      await this.handover.answer(request, response, portal, admission);
    } catch (error) {
      if (!(error instanceof AdmissionRefused)) throw error;
      await this.show(request, response, 422, portal, termsProblemKey(error.reason));
    }
  }

  /** The terms alone (linked from every way's form when the venue has terms). */
  @Get(':venueId/terms/text')
  async text(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portal(venueId);
    if (portal.termsText === null) throw new PageRefusal(404, 'error.notFound');
    await this.pages.render(request, response, 200, 'terms/text', portal, {
      heading: 'terms.textTitle',
      paragraphs: paragraphsOf(portal.termsText),
    });
  }

  @Get(':venueId/privacy')
  async privacy(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portal(venueId);
    if (portal.privacyText === null) throw new PageRefusal(404, 'error.notFound');
    await this.pages.render(request, response, 200, 'terms/text', portal, {
      heading: 'terms.privacyTitle',
      paragraphs: paragraphsOf(portal.privacyText),
    });
  }

  private show(
    request: PortalRequest,
    response: Response,
    status: number,
    portal: VenuePortal,
    problem: string | null,
  ): Promise<void> {
    return this.pages.render(request, response, status, 'terms/terms', portal, {
      problem,
      paragraphs: paragraphsOf(portal.termsText ?? ''),
    });
  }
}
