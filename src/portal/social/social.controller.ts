import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../../common/clock.js';
import { AdmissionRefused, GuestAccessService } from '../../guest-access/guest-access.service.js';
import type { VenuePortal } from '../../guest-access/venue-portals.service.js';
import { SocialSignInFailure, SocialSignInService } from '../../social-sign-in/social-sign-in.service.js';
import { requestCookies } from '../../web/cookies.js';
import { PageRefusal } from '../../web/errors.js';
import { field, queryValue } from '../../web/forms.js';
import { PortalHandover } from '../handover/portal-handover.js';
import { PortalLimits } from '../portal-limits.js';
import { PortalPages } from '../portal-pages.js';
import { PORTAL_PREFIX, portalPath } from '../portal-paths.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalScreen } from '../portal-screen.decorator.js';
import { PortalSessions } from '../portal-session.js';
import { PortalSocialButtons } from './social-buttons.js';
import { problemKey, problemOfFailure, problemOfQuery, problemOfRefusal, type SocialProblem } from './social.rules.js';

/** The one redirect URI of every venue, under the portal. */
const CALLBACK_PATH = `${PORTAL_PREFIX}/social/callback`;
/** Binds a sign-in to the browser that started it; sent back only to the callback. */
const BINDING_COOKIE = 'hotspot_portal_social';
const BINDING_MAX_AGE_MS = 10 * 60 * 1000;

/**
 * Social sign-in: the venue's providers as buttons, the way out to the provider (the state, nonce and
 * PKCE verifier stay with social-sign-in), and the one callback, which finds the venue from the state,
 * admits the verified identity and hands over to the gateway of the visit. A failure comes back to
 * the venue's screen with its problem named (no code or state in that URL).
 */
@PortalScreen()
export class PortalSocialController {
  constructor(
    private readonly pages: PortalPages,
    private readonly sessions: PortalSessions,
    private readonly social: SocialSignInService,
    private readonly guestAccess: GuestAccessService,
    private readonly handover: PortalHandover,
    private readonly limits: PortalLimits,
    private readonly clock: Clock,
    private readonly buttons: PortalSocialButtons,
  ) {}

  @Get('social/callback')
  async callback(@Req() request: PortalRequest, @Res() response: Response): Promise<void> {
    const binding = requestCookies(request).get(BINDING_COOKIE) ?? null;
    response.clearCookie(BINDING_COOKIE, { path: CALLBACK_PATH });
    let identity;
    try {
      identity = await this.social.complete(queryOf(request), binding);
    } catch (error) {
      if (!(error instanceof SocialSignInFailure)) throw error;
      if (error.venueId === null) throw new PageRefusal(400, problemKey('unknownState'));
      return this.backWith(response, error.venueId, problemOfFailure(error.kind));
    }
    const { venueId } = identity;
    const portal = await this.pages.portalOffering(venueId, 'social');
    const session = this.sessions.read(request, venueId, this.clock.now().getTime());
    // The gateway context is in the visit's session: without it there is no gateway to hand over to.
    if (session === null) return this.backWith(response, venueId, 'visitOver');
    request.portalSession = session;
    try {
      const admission = await this.guestAccess.admitSocial({
        venueId,
        issuer: identity.issuer,
        subject: identity.subject,
        email: identity.email,
        device: this.pages.device(request),
        termsVersion: identity.termsVersion,
      });
      await this.handover.answer(request, response, portal, admission);
    } catch (error) {
      if (!(error instanceof AdmissionRefused)) throw error;
      this.backWith(response, venueId, problemOfRefusal(error.reason));
    }
  }

  @Get(':venueId/social')
  async choose(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'social');
    this.pages.session(request, response, venueId, null);
    await this.show(request, response, 200, portal, problemOfQuery(queryValue(request, 'problem')));
  }

  @Post(':venueId/social')
  async leave(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'social');
    await this.limits.consume(request.ip, this.pages.device(request).mac);
    const accepted = this.pages.acceptedTerms(request, portal);
    if (portal.termsVersion !== null && accepted !== portal.termsVersion) {
      await this.show(request, response, 422, portal, 'terms');
      return;
    }
    let start;
    try {
      start = await this.social.begin(venueId, field(request, 'provider', 64), accepted);
    } catch (error) {
      if (!(error instanceof SocialSignInFailure)) throw error;
      const problem = problemOfFailure(error.kind);
      await this.show(request, response, problem === 'providerDown' ? 503 : 422, portal, problem);
      return;
    }
    response.cookie(BINDING_COOKIE, start.binding, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.secure,
      path: CALLBACK_PATH,
      maxAge: BINDING_MAX_AGE_MS,
    });
    response.redirect(303, start.authorizationUrl);
  }

  private backWith(response: Response, venueId: string, problem: SocialProblem): void {
    response.redirect(303, `${portalPath(venueId, 'social')}?problem=${problem}`);
  }

  private async show(
    request: PortalRequest,
    response: Response,
    status: number,
    portal: VenuePortal,
    problem: SocialProblem | null,
  ): Promise<void> {
    await this.pages.render(request, response, status, 'social/social', portal, {
      socialProviders: await this.buttons.prepare(response, portal),
      problem: problem === null ? null : problemKey(problem),
    });
  }
}

/** The callback's query as the provider sent it: its text parameters, each once. */
function queryOf(request: PortalRequest): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (typeof value === 'string') query.set(name, value);
  }
  return query;
}
