import { Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../../common/clock.js';
import { AdmissionRefused, GuestAccessService } from '../../guest-access/guest-access.service.js';
import type { VenuePortal } from '../../guest-access/venue-portals.service.js';
import {
  PhoneVerificationService,
  type CodeMessage,
  type CodeRequest,
} from '../../phone-verification/phone-verification.service.js';
import { PageRedirect } from '../../web/errors.js';
import { field } from '../../web/forms.js';
import { DEFAULT_LANGUAGE } from '../../web/language.js';
import { PortalHandover } from '../handover/portal-handover.js';
import { PortalLimits } from '../portal-limits.js';
import { PortalPages } from '../portal-pages.js';
import { portalPath } from '../portal-paths.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalScreen } from '../portal-screen.decorator.js';
import { PortalSessions } from '../portal-session.js';
import { admissionProblemKey, codeProblemKey, phoneProblemKey, sendProblemOf, shownPhone } from './sms.rules.js';

/**
 * The SMS way: the guest types a phone number, gets a one-time code by SMS, types it; a verified
 * phone becomes the venue's `sms` user and is handed to the gateway. The challenge's id lives in the
 * sealed portal session, never in a URL. Whether the phone already belongs to a user changes no
 * answer: codes know nothing of users, and the admission makes or finds one alike.
 */
@PortalScreen()
export class PortalSmsController {
  constructor(
    private readonly pages: PortalPages,
    private readonly sessions: PortalSessions,
    private readonly phones: PhoneVerificationService,
    private readonly guestAccess: GuestAccessService,
    private readonly handover: PortalHandover,
    private readonly limits: PortalLimits,
    private readonly clock: Clock,
  ) {}

  @Get(':venueId/sms')
  async phoneForm(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'sms');
    this.pages.session(request, response, venueId, null);
    await this.showPhone(request, response, 200, portal, '', null);
  }

  @Post(':venueId/sms')
  async sendCode(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'sms');
    const device = this.pages.device(request);
    await this.limits.consume(request.ip, device.mac);
    const typed = field(request, 'phone', 64);
    const termsVersion = this.pages.acceptedTerms(request, portal);
    if (portal.termsVersion !== null && termsVersion !== portal.termsVersion) {
      await this.showPhone(request, response, 422, portal, typed, 'portal.problem.terms');
      return;
    }
    const phone = this.phones.normalisePhone(typed);
    if ('problem' in phone) {
      await this.showPhone(request, response, 422, portal, typed, phoneProblemKey(phone.problem));
      return;
    }
    const sent = await this.phones.requestCode({
      venueId,
      phone: phone.phone,
      device,
      message: this.smsMessage(request, portal),
    });
    if (sent.outcome !== 'sent') {
      await this.refuseSend(response, sent, (status, key, values) =>
        this.showPhone(request, response, status, portal, typed, key, values),
      );
      return;
    }
    this.remember(request, response, venueId, { challengeId: sent.challengeId, termsVersion });
    throw new PageRedirect(portalPath(venueId, 'sms/code'));
  }

  @Get(':venueId/sms/code')
  async codeForm(
    @Param('venueId') venueId: string,
    @Query('sent') sent: unknown,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'sms');
    await this.showCode(request, response, 200, portal, sent === '1' ? 'sms.resent' : null, null);
  }

  @Post(':venueId/sms/code')
  async verify(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'sms');
    const device = this.pages.device(request);
    await this.limits.consume(request.ip, device.mac);
    const sms = this.challengeOf(request, venueId);
    const check = await this.phones.verifyCode(sms.challengeId, field(request, 'code', 32));
    if (check.outcome !== 'verified') {
      await this.showCode(request, response, 422, portal, null, codeProblemKey(check), {
        tries: check.outcome === 'wrong' ? check.triesLeft : 0,
      });
      return;
    }
    try {
      const admission = await this.guestAccess.admitVerifiedPhone({
        venueId,
        phone: check.phone,
        device,
        termsVersion: sms.termsVersion,
      });
      this.remember(request, response, venueId, undefined);
      await this.handover.answer(request, response, portal, admission);
    } catch (error) {
      if (!(error instanceof AdmissionRefused)) throw error;
      this.remember(request, response, venueId, undefined);
      await this.showPhone(request, response, 422, portal, '', admissionProblemKey(error.reason));
    }
  }

  @Post(':venueId/sms/resend')
  async resend(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'sms');
    const device = this.pages.device(request);
    await this.limits.consume(request.ip, device.mac);
    const sms = this.challengeOf(request, venueId);
    const sent = await this.phones.resendCode({
      challengeId: sms.challengeId,
      device,
      message: this.smsMessage(request, portal),
    });
    if (sent.outcome === 'expired') throw new PageRedirect(portalPath(venueId, 'sms'));
    if (sent.outcome !== 'sent') {
      await this.refuseSend(response, sent, (status, key, values) =>
        this.showCode(request, response, status, portal, null, key, values),
      );
      return;
    }
    throw new PageRedirect(`${portalPath(venueId, 'sms/code')}?sent=1`);
  }

  /** The visit's challenge; without one (a new visit, an old page) back to the phone form. */
  private challengeOf(request: PortalRequest, venueId: string): NonNullable<PortalRequestSms> {
    const sms = request.portalSession?.sms;
    if (sms === undefined) throw new PageRedirect(portalPath(venueId, 'sms'));
    return sms;
  }

  /** Keeps (or forgets) the challenge in the visit's sealed cookie. */
  private remember(request: PortalRequest, response: Response, venueId: string, sms: PortalRequestSms): void {
    const session = this.pages.session(request, response, venueId, null);
    const next = { ...session, sms };
    if (sms === undefined) delete next.sms;
    this.sessions.write(request, response, next);
    request.portalSession = next;
  }

  private smsMessage(request: PortalRequest, portal: VenuePortal): CodeMessage {
    return { language: request.portalLanguage ?? DEFAULT_LANGUAGE, venueName: portal.displayName ?? portal.venueId };
  }

  private async refuseSend(
    response: Response,
    refusal: Exclude<CodeRequest, { outcome: 'sent' }>,
    show: (status: number, key: string, values: Record<string, number>) => Promise<void>,
  ): Promise<void> {
    const problem = sendProblemOf(refusal, this.clock.now());
    response.setHeader('Retry-After', String(problem.seconds));
    await show(problem.status, problem.key, { seconds: problem.seconds, minutes: Math.ceil(problem.seconds / 60) });
  }

  private showPhone(
    request: PortalRequest,
    response: Response,
    status: number,
    portal: VenuePortal,
    phone: string,
    problem: string | null,
    values: Record<string, number> = {},
  ): Promise<void> {
    return this.pages.render(request, response, status, 'sms/phone', portal, { phone, problem, values });
  }

  private async showCode(
    request: PortalRequest,
    response: Response,
    status: number,
    portal: VenuePortal,
    notice: string | null,
    problem: string | null,
    values: Record<string, number> = {},
  ): Promise<void> {
    const sms = this.challengeOf(request, portal.venueId);
    const challenge = await this.phones.challenge(sms.challengeId);
    if (challenge === null || challenge.venueId !== portal.venueId) {
      throw new PageRedirect(portalPath(portal.venueId, 'sms'));
    }
    await this.pages.render(request, response, status, 'sms/code', portal, {
      phone: shownPhone(challenge.phone),
      notice,
      problem,
      values,
    });
  }
}

type PortalRequestSms = NonNullable<PortalRequest['portalSession']>['sms'];
