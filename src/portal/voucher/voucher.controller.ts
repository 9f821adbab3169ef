import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AdmissionRefused, GuestAccessService } from '../../guest-access/guest-access.service.js';
import { splitVoucherCode } from '../../guest-access/guest-access.rules.js';
import type { VenuePortal } from '../../guest-access/venue-portals.service.js';
import { field } from '../../web/forms.js';
import { PortalHandover } from '../handover/portal-handover.js';
import { PortalLimits } from '../portal-limits.js';
import { PortalPages } from '../portal-pages.js';
import type { PortalRequest } from '../portal-request.js';
import { PortalScreen } from '../portal-screen.decorator.js';
import { voucherForm, voucherProblemKey, type VoucherForm } from './voucher.rules.js';

/** The voucher way: a batch account's username and password, or both as one code. */
@PortalScreen()
export class PortalVoucherController {
  constructor(
    private readonly pages: PortalPages,
    private readonly guestAccess: GuestAccessService,
    private readonly handover: PortalHandover,
    private readonly limits: PortalLimits,
  ) {}

  @Get(':venueId/voucher')
  async form(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'voucher');
    this.pages.session(request, response, venueId, null);
    await this.show(request, response, 200, portal, { username: '', code: '' }, null);
  }

  @Post(':venueId/voucher')
  async submit(
    @Param('venueId') venueId: string,
    @Req() request: PortalRequest,
    @Res() response: Response,
  ): Promise<void> {
    const portal = await this.pages.portalOffering(venueId, 'voucher');
    const device = this.pages.device(request);
    await this.limits.consume(request.ip, device.mac);
    const form = voucherForm({
      username: field(request, 'username', 128),
      password: field(request, 'password', 128),
      code: field(request, 'code', 256),
    });
    const typed = { username: form.kind === 'pair' ? form.username : '', code: '' };
    if (form.kind === 'empty') {
      await this.show(request, response, 422, portal, typed, 'voucher.problem.empty');
      return;
    }
    const credentials = form.kind === 'pair' ? form : splitVoucherCode(form.code);
    if (credentials === null) {
      await this.show(request, response, 422, portal, typed, 'voucher.problem.invalidVoucher');
      return;
    }
    try {
      const admission = await this.guestAccess.admitVoucher({
        venueId,
        username: credentials.username,
        password: credentials.password,
        device,
        termsVersion: this.pages.acceptedTerms(request, portal),
      });
      await this.handover.answer(request, response, portal, admission);
    } catch (error) {
      if (!(error instanceof AdmissionRefused)) throw error;
      await this.show(request, response, 422, portal, typed, voucherProblemKey(error.reason));
    }
  }

  private show(
    request: PortalRequest,
    response: Response,
    status: number,
    portal: VenuePortal,
    form: Pick<VoucherForm & { kind: 'pair' }, 'username'> & { code: string },
    problem: string | null,
  ): Promise<void> {
    return this.pages.render(request, response, status, 'voucher/voucher', portal, { form, problem });
  }
}
