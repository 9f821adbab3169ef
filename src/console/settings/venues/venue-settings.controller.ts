import { Get, Param, Post, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Response } from 'express';
import { actorOf } from '../../../audit/audit.rules.js';
import type { AppConfig } from '../../../config/configuration.js';
import { PlansService } from '../../../plans/plans.service.js';
import type { VenueChanges } from '../../../venues/venue-rules.js';
import { VenuesService, VenueValidationError, type Venue } from '../../../venues/venues.service.js';
import { timeZones } from '../../../web/format.js';
import { ConsolePages, operatorActor, originOf, requireAdmin } from '../../console-page.js';
import { field } from '../../../web/forms.js';
import { PageRefusal } from '../../../web/errors.js';
import type { ConsoleRequest } from '../../console-request.js';
import { ConsoleScreen } from '../../console-screen.decorator.js';

interface VenueForm {
  id: string;
  displayName: string;
  timeZone: string;
  ssid: string;
  portalUrl: string;
  checkOutTime: string;
  /** '' for none; shown and sent when editing (a plan must offer a venue that exists). */
  defaultPlanId: string;
}

/** Settings → Venues at /admin/settings/venues (administrators): display names, time zones, SSIDs, portal URLs, check-out times. */
@ConsoleScreen('admin/settings/venues')
export class VenueSettingsController {
  private readonly registeredOnly: boolean;

  constructor(
    private readonly pages: ConsolePages,
    private readonly venues: VenuesService,
    private readonly plans: PlansService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.registeredOnly = config.get('venuesRegisteredOnly', { infer: true });
  }

  @Get()
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    await this.pages.render(request, response, 200, 'settings/venues/index', {
      venues: await this.venues.list(),
      registeredOnly: this.registeredOnly,
    });
  }

  @Get('new')
  async addForm(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    requireAdmin(request);
    const form = {
      id: '',
      displayName: '',
      timeZone: '',
      ssid: '',
      portalUrl: '',
      checkOutTime: '',
      defaultPlanId: '',
    };
    await this.showForm(request, response, 200, form, true, null);
  }

  @Post('new')
  async add(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const operator = requireAdmin(request);
    const form = formOf(request, field(request, 'id').trim());
    if ((await this.find(form.id)) !== undefined) {
      await this.showForm(request, response, 409, form, true, { field: 'id', key: 'venues.problem.taken' });
      return;
    }
    await this.save(request, response, form, true, actorOf(operatorActor(operator), originOf(request)));
  }

  @Get(':id/edit')
  async editForm(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    requireAdmin(request);
    const venue = await this.find(id);
    if (venue === undefined) throw new PageRefusal(404, 'error.notFound');
    const form = {
      id: venue.id,
      displayName: venue.displayName ?? '',
      timeZone: venue.timeZone ?? '',
      ssid: venue.ssid ?? '',
      portalUrl: venue.portalUrl ?? '',
      checkOutTime: venue.checkOutTime ?? '',
      defaultPlanId: venue.defaultPlanId ?? '',
    };
    await this.showForm(request, response, 200, form, false, null);
  }

  @Post(':id/edit')
  async edit(@Req() request: ConsoleRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const operator = requireAdmin(request);
    const venue = await this.find(id);
    if (venue === undefined) throw new PageRefusal(404, 'error.notFound');
    await this.save(
      request,
      response,
      formOf(request, venue.id),
      false,
      actorOf(operatorActor(operator), originOf(request)),
    );
  }

  private async save(
    request: ConsoleRequest,
    response: Response,
    form: VenueForm,
    adding: boolean,
    actor: ReturnType<typeof actorOf>,
  ): Promise<void> {
    const changes: VenueChanges = {
      displayName: form.displayName,
      timeZone: form.timeZone,
      ssid: form.ssid,
      portalUrl: form.portalUrl,
      checkOutTime: form.checkOutTime,
      ...(adding ? {} : { defaultPlanId: form.defaultPlanId }),
    };
    try {
      await this.venues.set(form.id, changes, actor, this.pages.claim(request, { link: '/admin/settings/venues' }));
    } catch (error) {
      if (!(error instanceof VenueValidationError)) throw error;
      await this.showForm(request, response, 422, form, adding, {
        field: error.field,
        key: `venues.problem.${error.field}`,
      });
      return;
    }
    this.pages.forgetVenueNames();
    response.redirect(303, `/admin/settings/venues?notice=${adding ? 'notice.venues.added' : 'notice.venues.saved'}`);
  }

  private async find(id: string): Promise<Venue | undefined> {
    return (await this.venues.list()).find((venue) => venue.id === id);
  }

  private async showForm(
    request: ConsoleRequest,
    response: Response,
    status: number,
    form: VenueForm,
    adding: boolean,
    problem: { field: string; key: string } | null,
  ): Promise<void> {
    const plans = adding ? [] : await this.plans.list(operatorActor(requireAdmin(request)), form.id);
    await this.pages.render(request, response, status, 'settings/venues/form', {
      form,
      adding,
      problem,
      zones: timeZones(),
      plans: plans.map((plan) => ({ id: plan._id, name: plan.name })),
    });
  }
}

/** The form's fields as typed (the time zone from the select; an empty value clears a field). */
function formOf(request: ConsoleRequest, id: string): VenueForm {
  return {
    id,
    displayName: field(request, 'displayName').trim(),
    timeZone: field(request, 'timeZone').trim(),
    ssid: field(request, 'ssid'),
    portalUrl: field(request, 'portalUrl').trim(),
    checkOutTime: field(request, 'checkOutTime').trim(),
    defaultPlanId: field(request, 'defaultPlanId').trim(),
  };
}
