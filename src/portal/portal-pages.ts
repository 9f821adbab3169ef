import { Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../common/clock.js';
import { VenuePortalsService, type VenuePortal } from '../guest-access/venue-portals.service.js';
import type { PortalDevice } from '../guest-access/guest-access.service.js';
import type { PortalWay } from '../guest-access/guest-access.rules.js';
import { PageRefusal } from '../web/errors.js';
import { field } from '../web/forms.js';
import { DEFAULT_LANGUAGE } from '../web/language.js';
import { NO_GATEWAY, type GatewayContext } from './gateways/gateway.js';
import { isTrustedGateway } from './gateways/trust.js';
import { PORTAL_FORM_TOKEN_FIELD } from './portal.guard.js';
import { portalPath } from './portal-paths.js';
import type { PortalRequest } from './portal-request.js';
import { PortalSessions, type PortalSession } from './portal-session.js';
import { PortalViews } from './portal-views.js';

/** How a venue's portal looks: its name, logo and whether it has colours of its own (theme.css). */
export interface PortalTheme {
  venueId: string;
  name: string;
  logoUrl: string | null;
  privacy: boolean;
}

/**
 * Renders a portal screen in the venue's theme and the guest's language, every text from the
 * screens' catalogues; and what every screen needs of the visit: the venue's portal (404 without one),
 * the session (made when missing), the device the gateway named, the terms the guest accepted.
 */
@Injectable()
export class PortalPages {
  private readonly logger = new Logger('Portal');

  constructor(
    private readonly views: PortalViews,
    private readonly portals: VenuePortalsService,
    private readonly sessions: PortalSessions,
    private readonly clock: Clock,
  ) {}

  /** The venue's portal when it offers at least one way in; else the 404 page. */
  async portal(venueId: string): Promise<VenuePortal> {
    const portal = await this.openPortal(venueId);
    if (portal === null) throw new PageRefusal(404, 'error.noPortal');
    return portal;
  }

  /** The venue's portal when it offers the way in `way`; else the 404 page (a way's own screens). */
  async portalOffering(venueId: string, way: PortalWay): Promise<VenuePortal> {
    const portal = await this.portal(venueId);
    if (!portal.ways.includes(way)) throw new PageRefusal(404, 'error.notFound');
    return portal;
  }

  /** The venue's portal when it offers at least one way in; else null. */
  async openPortal(venueId: string): Promise<VenuePortal | null> {
    const portal = await this.portals.portal(venueId);
    return portal === null || portal.ways.length === 0 ? null : portal;
  }

  /**
   * Refuses (a page saying so, nothing handed over) a gateway the venue does not trust: a portal link
   * naming a login URL, gateway address or log-out link elsewhere than a private or local address or
   * the venue's gateway hosts (a crafted link would otherwise collect the guest's credentials).
   */
  assertTrustedGateway(portal: VenuePortal, gateway: GatewayContext): void {
    if (isTrustedGateway(gateway, portal.gatewayHosts)) return;
    this.logger.warn(`Untrusted ${gateway.vendor} gateway in a portal link of venue ${portal.venueId}: refused`);
    throw new PageRefusal(400, 'error.untrustedGateway');
  }

  /** The visit's session, started (and its cookie set) when the request has none of this venue. */
  session(request: PortalRequest, response: Response, venueId: string, gateway: GatewayContext | null): PortalSession {
    const current = request.portalSession ?? null;
    if (current !== null && gateway === null) return current;
    const session = this.sessions.start(venueId, gateway ?? current?.gateway ?? NO_GATEWAY, this.clock.now().getTime());
    this.sessions.write(request, response, session);
    request.portalSession = session;
    return session;
  }

  /** The device of the visit: the MAC and IP the gateway named, else the request's own address. */
  device(request: PortalRequest): PortalDevice {
    const gateway = request.portalSession?.gateway ?? NO_GATEWAY;
    return { mac: gateway.mac, ip: gateway.ip ?? request.ip ?? null };
  }

  /** The terms version the form accepted: the current one when its box was ticked; null otherwise or without terms. */
  acceptedTerms(request: PortalRequest, portal: VenuePortal): string | null {
    if (portal.termsVersion === null || field(request, 'acceptTerms') !== 'yes') return null;
    const version = field(request, 'termsVersion', 64);
    return version === '' ? null : version;
  }

  /** Sends the page (a promise, as the screens' handlers await their answers alike). */
  render(
    request: PortalRequest,
    response: Response,
    status: number,
    view: string,
    portal: VenuePortal,
    data: Record<string, unknown> = {},
  ): Promise<void> {
    const session = request.portalSession ?? null;
    const theme: PortalTheme = {
      venueId: portal.venueId,
      name: portal.displayName ?? portal.venueId,
      logoUrl: portal.logoUrl,
      privacy: portal.privacyText !== null,
    };
    const language = request.portalLanguage ?? DEFAULT_LANGUAGE;
    const html = this.views.render(view, language, {
      ...data,
      portal,
      theme,
      here: request.path,
      path: (screen = '') => portalPath(portal.venueId, screen),
      tokenField: PORTAL_FORM_TOKEN_FIELD,
      formToken: () => (session === null ? '' : this.sessions.formToken(session)),
    });
    response.status(status).type('html').send(html);
    return Promise.resolve();
  }
}
