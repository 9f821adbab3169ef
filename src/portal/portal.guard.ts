import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../common/clock.js';
import { requestCookies } from '../web/cookies.js';
import { crossSiteRefusal } from '../web/cross-site.js';
import { PageRefusal } from '../web/errors.js';
import { field } from '../web/forms.js';
import { isLanguage, pickLanguage } from '../web/language.js';
import { PORTAL_PREFIX } from './portal-paths.js';
import type { PortalRequest } from './portal-request.js';
import { PortalSessions } from './portal-session.js';

export const PORTAL_LANGUAGE_COOKIE = 'portal_lang';
const LANGUAGE_COOKIE_MAX_AGE_MS = 30 * 86_400_000;
/** The hidden field of every portal form: the session's form token. */
export const PORTAL_FORM_TOKEN_FIELD = 'formToken';

/**
 * The portal's guard: the language (`?lang=`, kept in a cookie, else that cookie, else Accept-Language),
 * the visit's session of the venue, and for a POST a refusal when it comes from another site or
 * without the session's form token (a forged form, or a page from an ended visit: start again).
 */
@Injectable()
export class PortalGuard implements CanActivate {
  constructor(
    private readonly sessions: PortalSessions,
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<PortalRequest>();
    const asked = request.query.lang;
    if (isLanguage(asked)) {
      // The switch's choice holds for the rest of the visit's pages.
      context.switchToHttp().getResponse<Response>().cookie(PORTAL_LANGUAGE_COOKIE, asked, {
        path: PORTAL_PREFIX,
        sameSite: 'lax',
        secure: request.secure,
        maxAge: LANGUAGE_COOKIE_MAX_AGE_MS,
      });
      request.portalLanguage = asked;
    } else {
      request.portalLanguage = pickLanguage(
        requestCookies(request).get(PORTAL_LANGUAGE_COOKIE),
        request.headers['accept-language'],
      );
    }
    const venueId = (request.params as Record<string, string | undefined>).venueId;
    request.portalSession =
      venueId === undefined ? null : this.sessions.read(request, venueId, this.clock.now().getTime());
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    const ownOrigin = `${request.protocol}://${request.get('host') ?? ''}`;
    // A captive browser may send neither Fetch Metadata nor Origin: the form token decides then.
    if (
      crossSiteRefusal({ secFetchSite: request.get('sec-fetch-site'), origin: request.get('origin') }, ownOrigin) ===
      'cross-site'
    )
      throw new PageRefusal(403, 'error.forbidden');
    const session = request.portalSession;
    if (session === null || !this.sessions.isFormToken(session, field(request, PORTAL_FORM_TOKEN_FIELD, 128)))
      throw new PageRefusal(403, 'error.expired');
    return true;
  }
}
