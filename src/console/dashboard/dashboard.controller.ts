import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConsolePages, session } from '../console-page.js';
import { queryValue } from '../../web/forms.js';
import { PageRefusal } from '../../web/errors.js';
import type { ConsoleRequest } from '../console-request.js';
import { DashboardService } from './dashboard.service.js';
import { venueView, type VenueView } from './dashboard.rules.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

/** The operator's scope, or the one venue `?venueId=` asks for: 400 when malformed, 403 outside the operator's venues. */
export function requestedVenueView(request: ConsoleRequest): VenueView {
  const { operator } = session(request);
  const view = venueView(operator.venueIds, operator.admin, queryValue(request, 'venueId'));
  if (view === 'invalid') throw new PageRefusal(400, 'error.invalid');
  if (view === 'forbidden') throw new PageRefusal(403, 'error.forbidden');
  return view;
}

/** The dashboard at /admin: the figures of the operator's venues at a glance. */
@ConsoleScreen()
export class DashboardController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly dashboard: DashboardService,
  ) {}

  @Get()
  async home(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const view = requestedVenueView(request);
    const figures = await this.dashboard.figures(view);
    await this.pages.render(request, response, 200, 'dashboard/index', {
      figures,
      venueId: queryValue(request, 'venueId'),
      venueChoices: session(request).operator.venueIds ?? [],
    });
  }
}
