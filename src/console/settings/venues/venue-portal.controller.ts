import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { actorOf } from '../../../audit/audit.rules.js';
import { PORTAL_WAYS } from '../../../guest-access/guest-access.rules.js';
import {
  PortalValidationError,
  VenuePortalsService,
  type VenuePortal,
} from '../../../guest-access/venue-portals.service.js';
import { PlansService } from '../../../plans/plans.service.js';
import { VenuesService } from '../../../venues/venues.service.js';
import { PageRefusal } from '../../../web/errors.js';
import { field, fieldValues } from '../../../web/forms.js';
import { ConsolePages, operatorActor, originOf, requireAdmin } from '../../console-page.js';
import type { ConsoleRequest } from '../../console-request.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';
import { formFieldOf, portalChangesOfForm, type PortalForm, type PortalFormProblem } from './venue-portal.rules.js';

/** Settings → Venues → Guest portal at /admin/settings/venues/:id/portal (administrators): the venue's portal. */
@ConsoleScreen('admin/settings/venues')
export class VenuePortalSettingsController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly venues: VenuesService,
    private readonly portals: VenuePortalsService,
    private readonly plans: PlansService,
  ) {}

  @Get(':id/portal')
  async form(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    requireAdmin(request);
    await this.assertRegistered(id);
    const portal = await this.portals.portal(id);
    await this.show(request, response, 200, id, formOf(portal), portal, null);
  }

  @Post(':id/portal')
  async save(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requireAdmin(request);
    await this.assertRegistered(id);
    const form: PortalForm = {
      ways: fieldValues(request, 'ways'),
      displayName: field(request, 'displayName'),
      logoUrl: field(request, 'logoUrl', 2048).trim(),
      colourAccent: field(request, 'colourAccent').trim(),
      colourBackground: field(request, 'colourBackground').trim(),
      colourText: field(request, 'colourText').trim(),
      termsText: field(request, 'termsText', 20_000),
      privacyText: field(request, 'privacyText', 20_000),
      planId: field(request, 'planId').trim(),
      validityMinutes: field(request, 'validityMinutes').trim(),
      keepSocialEmail: field(request, 'keepSocialEmail') === 'yes',
      faskey: field(request, 'faskey', 256),
      clearFaskey: field(request, 'clearFaskey') === 'yes',
    };
    const stored = await this.portals.portal(id);
    const parsed = portalChangesOfForm(form);
    if ('problem' in parsed) {
      await this.show(request, response, 422, id, { ...form, faskey: '' }, stored, parsed.problem);
      return;
    }
    try {
      await this.portals.set(
        id,
        parsed.changes,
        actorOf(operatorActor(operator), originOf(request)),
        this.pages.claim(request, { link: `/admin/settings/venues/${encodeURIComponent(id)}/portal` }),
      );
    } catch (error) {
      if (!(error instanceof PortalValidationError)) throw error;
      const field = formFieldOf(error.field);
      await this.show(request, response, 422, id, { ...form, faskey: '' }, stored, {
        field,
        key: `venues.portal.problem.${field}`,
      });
      return;
    }
    response.redirect(303, '/admin/settings/venues?notice=notice.venues.portalSaved');
  }

  private async assertRegistered(id: string): Promise<void> {
    if (!(await this.venues.list()).some((venue) => venue.id === id)) throw new PageRefusal(404, 'error.notFound');
  }

  private async show(
    request: ConsoleRequest,
    response: Response,
    status: number,
    venueId: string,
    form: PortalForm,
    stored: VenuePortal | null,
    problem: PortalFormProblem | null,
  ): Promise<void> {
    const operator = requireAdmin(request);
    const plans = await this.plans.list(operatorActor(operator), venueId);
    await this.pages.render(request, response, status, 'settings/venues/portal', {
      venueId,
      form,
      problem,
      ways: PORTAL_WAYS,
      plans: plans.map((plan) => ({ id: plan._id, name: plan.name })),
      termsVersion: stored?.termsVersion ?? null,
      hasFaskey: stored?.hasFaskey ?? false,
    });
  }
}

function formOf(portal: VenuePortal | null): PortalForm {
  return {
    ways: portal?.ways ?? [],
    displayName: portal?.displayName ?? '',
    logoUrl: portal?.logoUrl ?? '',
    colourAccent: portal?.colours.accent ?? '',
    colourBackground: portal?.colours.background ?? '',
    colourText: portal?.colours.text ?? '',
    termsText: portal?.termsText ?? '',
    privacyText: portal?.privacyText ?? '',
    planId: portal?.planId ?? '',
    validityMinutes: String(Math.round((portal?.validitySeconds ?? 86_400) / 60)),
    keepSocialEmail: portal?.keepSocialEmail ?? false,
    faskey: '',
    clearFaskey: false,
  };
}
