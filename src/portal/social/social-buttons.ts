import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { VenuePortal } from '../../guest-access/venue-portals.service.js';
import type { SocialProvider } from '../../social-sign-in/social-providers.service.js';
import { SocialSignInService } from '../../social-sign-in/social-sign-in.service.js';
import { socialPageContentSecurityPolicy } from './social.rules.js';

/**
 * The providers' buttons a page shows (the start page, the social screen; `social/_buttons`): the
 * venue's providers when it offers the social way, and the page's Content-Security-Policy letting its
 * form go on to them.
 */
@Injectable()
export class PortalSocialButtons {
  constructor(private readonly social: SocialSignInService) {}

  async prepare(response: Response, portal: VenuePortal): Promise<SocialProvider[]> {
    if (!portal.ways.includes('social')) return [];
    const providers = await this.social.offeredAt(portal.venueId);
    if (providers.length > 0) {
      response.setHeader(
        'Content-Security-Policy',
        socialPageContentSecurityPolicy(this.social.formTargets(providers)),
      );
    }
    return providers;
  }
}
