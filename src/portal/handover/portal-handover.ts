import { Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { Admission } from '../../guest-access/guest-access.service.js';
import { VenuePortalsService, type VenuePortal } from '../../guest-access/venue-portals.service.js';
import { PageRefusal } from '../../web/errors.js';
import { NO_GATEWAY } from '../gateways/gateway.js';
import { handoverOf } from '../gateways/gateways.js';
import { portalPath } from '../portal-paths.js';
import { PortalPages } from '../portal-pages.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalSessions } from '../portal-session.js';
import { HANDOVER_CONTENT_SECURITY_POLICY } from './handover.rules.js';

/**
 * The answer after a way in succeeded: the page that hands the credentials to the gateway of the
 * visit (an auto-submitting form to its login URL), openNDS's hand-back (a redirect of the browser),
 * or without a gateway the status page. The credentials appear only in that form's fields: never in
 * a URL the portal makes, never in a log line.
 */
@Injectable()
export class PortalHandover {
  private readonly logger = new Logger('PortalHandover');

  constructor(
    private readonly pages: PortalPages,
    private readonly portals: VenuePortalsService,
    private readonly sessions: PortalSessions,
  ) {}

  async answer(request: PortalRequest, response: Response, portal: VenuePortal, admission: Admission): Promise<void> {
    const gateway = request.portalSession?.gateway ?? NO_GATEWAY;
    const landing = `${request.protocol}://${request.get('host') ?? ''}${portalPath(portal.venueId, 'status')}`;
    const faskey = gateway.vendor === 'opennds' ? await this.portals.faskey(portal.venueId) : null;
    const handover = handoverOf(
      gateway,
      { username: admission.username, password: admission.password },
      landing,
      faskey,
    );
    this.logger.log(
      `Guest admitted at venue ${portal.venueId} as user ${admission.userId} (gateway ${gateway.vendor})`,
    );
    if (handover === null) throw new PageRefusal(503, 'error.gatewayNotSetUp');
    const session = request.portalSession ?? null;
    if (session !== null) {
      const admitted = { userId: admission.userId, expiresAt: admission.expiresAt?.getTime() ?? null };
      request.portalSession = { ...session, admitted };
      this.sessions.write(request, response, request.portalSession);
    }
    if (handover.kind === 'redirect') {
      response.redirect(303, handover.location);
      return;
    }
    response.setHeader('Content-Security-Policy', HANDOVER_CONTENT_SECURITY_POLICY);
    await this.pages.render(request, response, 200, 'handover/handover', portal, { handover });
  }
}
